import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_A, graphHeaders, startTestHost, waitForJob, type TestHost } from '../support/local-host';
import { startStubUpstream, type StubUpstream } from '../support/stub-upstream';

let host: TestHost;
let stub: StubUpstream;
const A = graphHeaders(CUSTOMER_A);
const waits: number[] = [];

beforeAll(async () => {
  [host, stub] = await Promise.all([
    startTestHost({ jobTuning: { retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5_000, sleep: async (ms) => void waits.push(ms) } } }),
    startStubUpstream(),
  ]);
  const items = Array.from({ length: 5 }, (_, i) => ({ id: `i${i + 1}` }));
  stub.on('/items', (req) => {
    const page = Number(req.query.get('page') ?? 1);
    return { body: { items: items.slice((page - 1) * 2, page * 2), page } };
  });
  stub.on('/forever', { body: { items: [{ id: 'x' }] } });
  stub.on('/busy', { status: 503, headers: { 'retry-after': '2' }, body: { message: 'busy' } });
});
afterAll(() => Promise.all([host.stop(), stub.stop()]));

const download = (body: unknown, bucket = 'incoming') => host.call('POST', `/_api/v1/buckets/${bucket}/files/_download-from-webservice`, body, A);
const files = async (pattern: string, bucket = 'incoming') =>
  (await host.call('GET', `/_api/v1/buckets/${bucket}/files?pattern=${encodeURIComponent(pattern)}`, undefined, A)).body.files.map((f: any) => f.filename);
const text = async (filename: string, bucket = 'incoming') => (await host.call('GET', `/_api/v1/buckets/${bucket}/files/${filename}`, undefined, A)).text;

describe('download from a web service (INTERFACE.md "Download body")', () => {
  it('pages while hasMore is true; each batch is one JSON Lines file named from targetFilename', async () => {
    const res = await download({
      targetBucketCode: 'incoming',
      targetFilename: 'items-{{batchId}}-{{batchNumber}}.jsonl',
      isPaged: true,
      isJson: true,
      hasMore: 'responseBody.items.length == 2',
      initialRequest: { url: `${stub.url}/items`, method: 'GET', queryParameters: { page: 1 } },
      nextPageRequest: { url: `${stub.url}/items`, method: 'GET', queryParameters: { page: '`batchNumber + 1`' } },
      responsePrep: '`response.items`',
    });
    expect(res.status).toBe(202);
    const job = await waitForJob(host, res.body.jobId, A);
    expect(job).toMatchObject({ jobType: 'downloadDataFromWebservice', status: 'SUCCEEDED', result: { pagesFetched: 3, filesWritten: 3, records: 5 } });
    expect(job.startedAt <= job.finishedAt).toBe(true);
    expect(await files('items-*')).toEqual(['items-00001-1.jsonl', 'items-00002-2.jsonl', 'items-00003-3.jsonl']);
    expect(await text('items-00002-2.jsonl')).toBe('{"id":"i3"}\n{"id":"i4"}\n');
    expect(stub.requests.filter((r) => r.path === '/items').map((r) => r.query.get('page'))).toEqual(['1', '2', '3']);
  });

  it("pages through the sample data service's _page parameter", async () => {
    const res = await download({
      targetFilename: 'movies-{{timestamp}}-{{batchId}}.jsonl',
      isPaged: true,
      isJson: true,
      hasMore: 'responseBody.length == 500',
      initialRequest: { url: `${host.url}/api/collections/collection-movie`, method: 'GET', queryParameters: { _page: 1, _limit: 500 } },
      nextPageRequest: { url: `${host.url}/api/collections/collection-movie`, method: 'GET', queryParameters: { _page: '`batchNumber + 1`', _limit: 500 } },
    });
    const job = await waitForJob(host, res.body.jobId, A);
    expect(job.result).toEqual({ pagesFetched: 3, filesWritten: 3, records: 1200 });
    const written = await files('movies-*');
    expect(written).toHaveLength(3);
    expect(written[0]).toMatch(/^movies-\d{8}T\d{9}Z-00001\.jsonl$/);
    const lines = (await text(written[2])).trim().split('\n');
    expect(lines).toHaveLength(200);
    expect(JSON.parse(lines[0]).id).toMatch(/^tt\d{7}$/);
  });

  it('a page limit stops a hasMore that never turns false', async () => {
    const res = await download({
      targetFilename: 'forever-{{batchId}}.jsonl',
      isPaged: true,
      hasMore: 'true',
      maxPages: 4,
      initialRequest: { url: `${stub.url}/forever`, queryParameters: {} },
      responsePrep: 'response.items',
    });
    const job = await waitForJob(host, res.body.jobId, A);
    expect(job).toMatchObject({ status: 'SUCCEEDED', result: { pagesFetched: 4, stoppedAtPageLimit: true } });
  });

  it('a non-2xx answer fails the job with the status after bounded retries that honour Retry-After', async () => {
    waits.length = 0;
    const before = stub.requests.length;
    const res = await download({ targetFilename: 'busy.jsonl', initialRequest: { url: `${stub.url}/busy`, queryParameters: {} } });
    const job = await waitForJob(host, res.body.jobId, A);
    expect(job.status).toBe('FAILED');
    expect(job.error).toContain('HTTP 503');
    expect(stub.requests.length - before).toBe(3);
    expect(waits).toEqual([2000, 2000]);
    expect(await files('busy*')).toEqual([]);
  });

  it('bad params answer 400 naming the param and start nothing', async () => {
    const missing = await download({ targetFilename: 'x.jsonl' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('params.initialRequest');
    const badExpression = await download({ targetFilename: 'x', isPaged: true, hasMore: 'responseBody.', initialRequest: { url: stub.url } });
    expect(badExpression.status).toBe(400);
    expect(badExpression.body.error.message).toContain('params.hasMore');
    const otherBucket = await download({ targetBucketCode: 'processed', targetFilename: 'x', initialRequest: { url: stub.url } });
    expect(otherBucket.status).toBe(400);
  });
});
