import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN, call, eventually, graph, jobEnded } from './support/target';

const collectionCode = `e2e-orders-${RUN}`;
const filename = `e2e-orders-${RUN}.jsonl`;

beforeAll(async () => {
  const res = await graph('POST', '/collections', { collectionCode, name: 'E2E orders', description: `e2e run ${RUN}`, dataRecordIdentifierProperty: 'orderId' });
  expect(res.status, res.text).toBe(201);
});
afterAll(async () => {
  await graph('DELETE', `/buckets/processed/files/${filename}`);
  await graph('DELETE', `/buckets/incoming/files/${filename}`);
  await graph('DELETE', `/collections/${collectionCode}`);
});

describe('records', () => {
  it('writes, reads, patches, queries and removes a record; each change raises its event', async () => {
    const written = await graph('POST', `/collections/${collectionCode}/records`, { dataRecords: [{ orderId: 'o-1', total: 250, status: 'new' }] });
    expect(written.status, written.text).toBe(200);
    expect((await graph('GET', `/collections/${collectionCode}/records/o-1`)).body).toMatchObject({ orderId: 'o-1', total: 250 });

    const patched = await graph('PATCH', `/collections/${collectionCode}/records/o-1`, { status: 'paid' });
    expect(patched.status, patched.text).toBe(200);
    const found = await graph('POST', `/collections/${collectionCode}/records/_query`, { filter: { $eq: { field: 'status', value: 'paid' } } });
    expect(found.status, found.text).toBe(200);
    expect(JSON.stringify(found.body)).toContain('o-1');

    expect((await graph('DELETE', `/collections/${collectionCode}/records/o-1`)).status).toBe(204);
    expect((await graph('GET', `/collections/${collectionCode}/records/o-1`)).status).toBe(404);

    // Stream -> publisher -> bus -> event log (asynchronous in AWS).
    const events = await eventually(
      () => graph('GET', `/events?collectionCode=${collectionCode}`),
      (a) => a.status === 200 && a.body.data.length >= 3,
      'the record events in the event log',
    );
    // Newest first by event time; changes within one millisecond have no defined order.
    expect(events.body.data.map((e: { type: string }) => e.type).sort()).toEqual(['DataRecordCreated', 'DataRecordRemoved', 'DataRecordUpdated']);
    expect(events.body.data.every((e: { data: { new?: { orderId?: string }; old?: { orderId?: string } } }) => (e.data.new ?? e.data.old)?.orderId === 'o-1')).toBe(true);
  });
});

describe('import', () => {
  it('uploads a JSONL file, imports it as a job, and the records exist once the job SUCCEEDED', async () => {
    const lines = [{ orderId: 'i-1', total: 10 }, { orderId: 'i-2', total: 20 }].map((r) => JSON.stringify(r)).join('\n') + '\n';
    const uploaded = await call('PUT', `/_api/v1/buckets/incoming/files/${filename}`, { auth: 'graph', body: lines, contentType: 'application/x-ndjson' });
    expect(uploaded.status, uploaded.text).toBe(201);

    const started = await graph('POST', '/buckets/incoming/files/_import', {
      filenamePattern: filename,
      collectionCode,
      recordIdentifierField: 'orderId',
      parseOptions: { format: 'JSONL' },
      transformers: [{ type: 'javascript', config: { expression: "_.set(data, 'imported', true)" } }],
    });
    expect(started.status, started.text).toBe(202);
    const job = await jobEnded(started.body.jobId);
    expect(job.body, JSON.stringify(job.body)).toMatchObject({ status: 'SUCCEEDED', jobType: 'importDataFiles', result: { filesProcessed: 1, recordsCreated: 2, recordsInvalid: 0 } });
    expect((await graph('GET', `/collections/${collectionCode}/records/i-2`)).body).toMatchObject({ orderId: 'i-2', total: 20, imported: true });
    const processed = await graph('GET', `/buckets/processed/files?pattern=${encodeURIComponent(filename)}`);
    expect(processed.body.files.map((f: { filename: string }) => f.filename)).toEqual([filename]);
  });
});
