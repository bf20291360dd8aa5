import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobServices } from '../../functions/core/jobs/services';
import { nextRun } from '../../functions/core/jobs/definitions/cron';
import { toEventBridgeCron } from '../../functions/core/jobs/definitions/eventbridge-cron';
import { startLocalScheduler } from '../../functions/local-host/scheduler';
import { CUSTOMER_A, FAST_JOBS, graphHeaders, startTestHost, type TestHost } from '../support/local-host';
import { startStubUpstream, type StubUpstream } from '../support/stub-upstream';

let host: TestHost;
let stub: StubUpstream;
const A = graphHeaders(CUSTOMER_A);

beforeAll(async () => {
  [host, stub] = await Promise.all([startTestHost({ jobTuning: FAST_JOBS }), startStubUpstream()]);
  stub.on('/tick', { body: {} });
});
afterAll(() => Promise.all([host.stop(), stub.stop()]));

describe('job definition schedules', () => {
  it('the local scheduler runs a scheduled definition when its time comes, once', async () => {
    const res = await host.call('POST', '/_api/v1/job-definitions', {
      jobDefinitionCode: 'everyHour',
      jobType: 'callWebservice',
      params: { url: `${stub.url}/tick`, method: 'GET' },
      schedule: '0 * * * *',
    }, A);
    expect(res.status).toBe(201);
    let now = Date.parse('2026-01-01T10:59:30Z');
    const scheduler = startLocalScheduler(jobServices(host.deps), () => now, 5);
    try {
      await new Promise((r) => setTimeout(r, 50));
      expect(stub.requests).toHaveLength(0);
      now = Date.parse('2026-01-01T11:00:10Z');
      for (let i = 0; i < 100 && stub.requests.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 10));
        await host.jobRunner.idle();
      }
      await new Promise((r) => setTimeout(r, 50));
      await host.jobRunner.idle();
      expect(stub.requests).toHaveLength(1);
      const jobs = (await host.call('GET', '/_api/v1/jobs', undefined, A)).body.data;
      expect(jobs[0]).toMatchObject({ jobDefinitionCode: 'everyHour', status: 'SUCCEEDED' });
    } finally {
      scheduler.stop();
    }
  });

  it('cron expressions map to EventBridge Scheduler form', () => {
    expect(toEventBridgeCron('0 2 * * *')).toBe('cron(0 2 * * ? *)');
    expect(toEventBridgeCron('30 6 * * 1-5')).toBe('cron(30 6 ? * 2-6 *)');
    expect(toEventBridgeCron('0 0 1 * *')).toBe('cron(0 0 1 * ? *)');
    expect(new Date(nextRun('*/15 * * * *', Date.parse('2026-01-01T10:07:00Z'))).toISOString()).toBe('2026-01-01T10:15:00.000Z');
  });
});
