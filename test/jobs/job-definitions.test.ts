import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_A, CUSTOMER_B, FAST_JOBS, graphHeaders, startTestHost, waitForJob, type TestHost } from '../support/local-host';
import { startStubUpstream, type StubUpstream } from '../support/stub-upstream';

let host: TestHost;
let stub: StubUpstream;
const A = graphHeaders(CUSTOMER_A);
const api = (method: string, path: string, body?: unknown, headers = A) => host.call(method, `/_api/v1${path}`, body, headers);

beforeAll(async () => {
  [host, stub] = await Promise.all([startTestHost({ jobTuning: FAST_JOBS }), startStubUpstream()]);
  stub.on('/ping', { body: { pong: true } });
});
afterAll(() => Promise.all([host.stop(), stub.stop()]));

const definition = () => ({
  jobDefinitionCode: 'nightlyPing',
  name: 'Nightly ping',
  jobType: 'callWebservice',
  params: { url: `${stub.url}/ping`, method: 'GET' },
  schedule: '0 2 * * *',
});

describe('job definitions (INTERFACE.md "Job, job definition")', () => {
  it('POST /job-definitions answers 201; a duplicate code 409; GET lists and reads; 404 when unknown', async () => {
    const res = await api('POST', '/job-definitions', definition());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ jobDefinitionCode: 'nightlyPing', schedule: '0 2 * * *' });
    expect((await api('POST', '/job-definitions', definition())).status).toBe(409);
    expect((await api('GET', '/job-definitions')).body.data.map((d: any) => d.jobDefinitionCode)).toEqual(['nightlyPing']);
    expect((await api('GET', '/job-definitions/nightlyPing')).body.jobType).toBe('callWebservice');
    expect((await api('GET', '/job-definitions/nope')).status).toBe(404);
    expect((await api('GET', '/job-definitions', undefined, graphHeaders(CUSTOMER_B))).body.data).toEqual([]);
  });

  it('a definition is validated: a 400 names the bad param, the bad schedule', async () => {
    const badParams = await api('POST', '/job-definitions', { ...definition(), jobDefinitionCode: 'bad', params: { method: 'GET' } });
    expect(badParams.status).toBe(400);
    expect(badParams.body.error.message).toContain('params.url');
    const badSchedule = await api('POST', '/job-definitions', { ...definition(), jobDefinitionCode: 'bad', schedule: 'every day' });
    expect(badSchedule.status).toBe(400);
    expect(badSchedule.body.error.code).toBe('InvalidSchedule');
    const badType = await api('POST', '/job-definitions', { ...definition(), jobDefinitionCode: 'bad', jobType: 'mineBitcoin' });
    expect(badType.status).toBe(400);
  });

  it('_execute answers 202 {jobId}; the job records its definition and runs to SUCCEEDED; params can be overridden', async () => {
    const res = await api('POST', '/job-definitions/nightlyPing/_execute', { params: { url: `${stub.url}/ping?override=1` } });
    expect(res.status).toBe(202);
    const job = await waitForJob(host, res.body.jobId, A);
    expect(job).toMatchObject({ jobId: res.body.jobId, jobDefinitionCode: 'nightlyPing', jobType: 'callWebservice', status: 'SUCCEEDED', result: { status: 200 } });
    expect(job.params.url).toContain('override=1');
    expect(stub.requests.at(-1)!.query.get('override')).toBe('1');
  });

  it('POST /job-types/{jobType}/_execute starts a job by type; an unknown type is 404', async () => {
    const res = await api('POST', '/job-types/callWebservice/_execute', { params: { url: `${stub.url}/ping` } });
    expect(res.status).toBe(202);
    expect((await waitForJob(host, res.body.jobId, A)).status).toBe('SUCCEEDED');
    expect((await api('POST', '/job-types/nope/_execute', { params: {} })).status).toBe(404);
    expect((await api('POST', '/job-types/callWebservice/_execute', { params: { url: 5 } })).status).toBe(400);
  });

  it('GET /jobs lists the newest first, filtered by status and limited; GET /jobs/{id} 404 when unknown', async () => {
    const failed = await api('POST', '/job-types/callWebservice/_execute', { params: { url: 'http://127.0.0.1:9/nothing-listens-here' } });
    await waitForJob(host, failed.body.jobId, A);
    const all = (await api('GET', '/jobs')).body.data;
    expect(all[0].jobId).toBe(failed.body.jobId);
    const created = all.map((j: any) => j.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    expect((await api('GET', '/jobs?status=FAILED')).body.data.map((j: any) => j.jobId)).toEqual([failed.body.jobId]);
    expect((await api('GET', '/jobs?limit=1')).body.data).toHaveLength(1);
    expect((await api('GET', '/jobs?status=DONE')).status).toBe(400);
    expect((await api('GET', '/jobs/00000000-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await api('GET', `/jobs/${failed.body.jobId}`, undefined, graphHeaders(CUSTOMER_B))).status).toBe(404);
  });

  it('DELETE /job-definitions/{code} answers 204, then 404', async () => {
    expect((await api('DELETE', '/job-definitions/nightlyPing')).status).toBe(204);
    expect((await api('DELETE', '/job-definitions/nightlyPing')).status).toBe(404);
  });
});
