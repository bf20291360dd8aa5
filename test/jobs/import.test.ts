import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphEvent } from '../../functions/ports/event-bus';
import { CUSTOMER_A, FAST_JOBS, graphHeaders, startTestHost, waitForJob, type TestHost } from '../support/local-host';

let host: TestHost;
const A = graphHeaders(CUSTOMER_A);
const events: GraphEvent[] = [];
const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = A) => host.call(method, `/_api/v1${path}`, body, headers);

beforeAll(async () => {
  host = await startTestHost({ jobTuning: { ...FAST_JOBS, transformerDeadlineMs: 300 } });
  host.eventBus.subscribe(async (e) => void events.push(e));
  await api('POST', '/collections', { collectionCode: 'films', name: 'Films', description: '', dataRecordIdentifierProperty: 'id' });
  await api('POST', '/collections/films/schema', {
    fields: {
      id: { jsonSchema: { type: 'string' }, options: { required: true } },
      title: { jsonSchema: { type: 'string' }, options: { required: true } },
      year: { jsonSchema: { type: 'integer' } },
    },
  });
});
afterAll(() => host.stop());

const upload = (filename: string, content: string, bucket = 'incoming') =>
  host.call('PUT', `/_api/v1/buckets/${bucket}/files/${filename}`, content, { ...A, 'content-type': 'application/x-ndjson' });
const jsonl = (records: unknown[]) => records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';
const filesIn = async (bucket: string, pattern = '*') =>
  (await api('GET', `/buckets/${bucket}/files?pattern=${encodeURIComponent(pattern)}`)).body.files.map((f: any) => f.filename);
const importBody = (pattern: string, extra: Record<string, unknown> = {}) => ({
  skippedBucketCode: 'skipped',
  processedBucketCode: 'processed',
  invalidBucketCode: 'invalidated',
  filenamePattern: pattern,
  skipInvalidRecords: false,
  recordIdentifierField: 'id',
  transformers: [],
  collectionCode: 'films',
  parseOptions: { format: 'JSONL' },
  ...extra,
});
async function runImport(body: unknown) {
  const res = await api('POST', '/buckets/incoming/files/_import', body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return waitForJob(host, res.body.jobId, A);
}
const record = async (id: string) => (await api('GET', `/collections/films/records/${id}`)).body;

describe('import (INTERFACE.md "Import body", COMPAT.md bucket semantics)', () => {
  it('a valid file is imported whole and goes to the processed bucket; each record raises its event', async () => {
    events.length = 0;
    await upload('ok-1.jsonl', jsonl([{ id: 'f1', title: 'Alien', year: 1979 }, { id: 'f2', title: 'Heat', year: 1995 }]));
    const job = await runImport(importBody('ok-*.jsonl'));
    expect(job).toMatchObject({ status: 'SUCCEEDED', result: { filesProcessed: 1, filesInvalid: 0, recordsCreated: 2, recordsUpdated: 0, recordsInvalid: 0 } });
    expect(await filesIn('incoming', 'ok-*')).toEqual([]);
    expect(await filesIn('processed', 'ok-*')).toEqual(['ok-1.jsonl']);
    expect((await record('f1')).title).toBe('Alien');
    expect(events.filter((e) => e.type === 'DataRecordCreated').map((e) => e.data.new!.id).sort()).toEqual(['f1', 'f2']);
  });

  it('importing the same file twice gives the same records: updated, @iat unchanged', async () => {
    const before = await record('f1');
    await upload('ok-1.jsonl', jsonl([{ id: 'f1', title: 'Alien', year: 1979 }, { id: 'f2', title: 'Heat', year: 1995 }]));
    const job = await runImport(importBody('ok-*.jsonl'));
    expect(job.result).toMatchObject({ recordsCreated: 0, recordsUpdated: 2 });
    const after = await record('f1');
    expect(after['@iat']).toBe(before['@iat']);
    expect(after['@uat']).toBeGreaterThan(before['@uat']);
  });

  it('skipInvalidRecords false: a file with a bad line or an invalid record goes whole to the invalid bucket with an error file, nothing written', async () => {
    await upload('mixed-1.jsonl', jsonl([{ id: 'm1', title: 'Fine' }, '{not json', { id: 'm2', year: 'x' }, { title: 'no id' }]));
    const job = await runImport(importBody('mixed-*.jsonl'));
    expect(job).toMatchObject({ status: 'SUCCEEDED', result: { filesProcessed: 0, filesInvalid: 1, recordsCreated: 0, recordsInvalid: 3 } });
    expect(await filesIn('invalidated', 'mixed-*')).toEqual(['mixed-1.jsonl', 'mixed-1.jsonl.errors.json']);
    expect((await api('GET', '/collections/films/records/m1')).status).toBe(404);
    const report = JSON.parse((await api('GET', '/buckets/invalidated/files/mixed-1.jsonl.errors.json')).text);
    expect(report.errors).toEqual([
      { line: 2, problems: [expect.stringContaining('not valid JSON')] },
      { line: 3, identifier: 'm2', problems: ['title: is required', expect.stringContaining('year: must be an integer')] },
      { line: 4, problems: [expect.stringContaining('id: the identifier property')] },
    ]);
  });

  it('skipInvalidRecords true: the valid records are written and the file goes to processed with its error file', async () => {
    await upload('mixed-2.jsonl', jsonl([{ id: 'm3', title: 'Fine' }, { id: 'm4', year: 'x' }]));
    const job = await runImport(importBody('mixed-2.jsonl', { skipInvalidRecords: true }));
    expect(job.result).toMatchObject({ filesProcessed: 1, recordsCreated: 1, recordsInvalid: 1 });
    expect(await filesIn('processed', 'mixed-2*')).toEqual(['mixed-2.jsonl', 'mixed-2.jsonl.errors.json']);
    expect((await record('m3')).title).toBe('Fine');
  });

  it('a file that cannot be parsed at all goes to the invalid bucket', async () => {
    await upload('broken.json', '{"this is": not json');
    const job = await runImport(importBody('broken.json', { parseOptions: { format: 'JSON' } }));
    expect(job.result).toMatchObject({ filesInvalid: 1 });
    expect(await filesIn('invalidated', 'broken*')).toEqual(['broken.json', 'broken.json.errors.json']);
  });

  it('CSV and JSON array files are imported too', async () => {
    await upload('table.csv', 'id,title\nc1,"Quoted, title"\nc2,Plain\n');
    const csv = await runImport(importBody('table.csv', { parseOptions: { format: 'CSV' } }));
    expect(csv.result).toMatchObject({ recordsCreated: 2 });
    expect((await record('c1')).title).toBe('Quoted, title');
    await upload('list.json', JSON.stringify([{ id: 'j1', title: 'From JSON' }]));
    expect((await runImport(importBody('list.json', { parseOptions: { format: 'JSON' } }))).result).toMatchObject({ recordsCreated: 1 });
  });

  it('processLastMatchedFileOnly sends the other matches to the skipped bucket', async () => {
    await upload('batch-1.jsonl', jsonl([{ id: 'b1', title: 'One' }]));
    await upload('batch-2.jsonl', jsonl([{ id: 'b2', title: 'Two' }]));
    const job = await runImport(importBody('batch-*.jsonl', { processLastMatchedFileOnly: true }));
    expect(job.result).toMatchObject({ filesProcessed: 1, filesSkipped: 1 });
    expect(await filesIn('skipped', 'batch-*')).toEqual(['batch-1.jsonl']);
    expect((await api('GET', '/collections/films/records/b1')).status).toBe(404);
    expect((await record('b2')).title).toBe('Two');
  });

  it('a large file is imported in several chunks, every record exactly once', async () => {
    const many = Array.from({ length: 3_500 }, (_, i) => ({ id: `big${i}`, title: `Title ${i}`, year: 2000 }));
    await upload('big.jsonl', jsonl(many));
    const job = await runImport(importBody('big.jsonl'));
    expect(job.result).toMatchObject({ filesProcessed: 1, recordsCreated: 3_500 });
    const total = (await api('POST', '/collections/films/records/_query', { filter: { $eq: { field: 'year', value: 2000 } } })).body.total;
    expect(total).toBe(3_500);
  });

  it('a crash part-way through a file loses nothing: the file stays, and running the import again finishes the work', async () => {
    const many = Array.from({ length: 3_000 }, (_, i) => ({ id: `crash${i}`, title: `T${i}`, year: 1999 }));
    await upload('crash.jsonl', jsonl(many));
    const store = host.deps.store;
    const original = store.batchWrite.bind(store);
    let calls = 0;
    store.batchWrite = async (puts, deletes) => {
      // The store fails for good after the first chunk of records was written.
      if (puts.some((p) => (p as any).kind === 'record') && ++calls > 1) throw new Error('store unavailable');
      return original(puts, deletes);
    };
    try {
      const failed = await runImport(importBody('crash.jsonl'));
      expect(failed.status).toBe('FAILED');
      expect(failed.error).toContain('store unavailable');
    } finally {
      store.batchWrite = original;
    }
    expect(await filesIn('incoming', 'crash*')).toEqual(['crash.jsonl']);
    const firstRun = await record('crash0');
    expect(firstRun.title).toBe('T0');

    const resumed = await runImport(importBody('crash.jsonl'));
    expect(resumed.status).toBe('SUCCEEDED');
    expect(await filesIn('processed', 'crash*')).toEqual(['crash.jsonl']);
    const total = (await api('POST', '/collections/films/records/_query', { filter: { $eq: { field: 'year', value: 1999 } } })).body.total;
    expect(total).toBe(3_000);
    expect((await record('crash0'))['@iat']).toBe(firstRun['@iat']);
  });

  it('bad import params answer 400 naming the param', async () => {
    const res = await api('POST', '/buckets/incoming/files/_import', { ...importBody('*.jsonl'), parseOptions: { format: 'XML' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('params.parseOptions.format');
  });
});

describe('javascript transformers in the sandbox', () => {
  it('transformers apply in order with data and _; the last may keep only listed fields', async () => {
    await upload('people.jsonl', jsonl([{ ref: 't1', name: 'Brazil', extra: 'dropped', year: '1985' }]));
    const job = await runImport(
      importBody('people.jsonl', {
        recordIdentifierField: 'id',
        transformers: [
          { type: 'javascript', config: { expression: "_.set(data, 'id', data.ref)" } },
          { type: 'javascript', config: { expression: '({ ...data, title: data.name, year: _.toNumber(data.year) })' } },
          { type: 'javascript', config: { expression: "_.pick(data, ['id', 'title', 'year'])" } },
        ],
      }),
    );
    expect(job.result).toMatchObject({ recordsCreated: 1, recordsInvalid: 0 });
    const stored = await record('t1');
    expect(stored).toMatchObject({ id: 't1', title: 'Brazil', year: 1985 });
    expect(stored.extra).toBeUndefined();
  });

  it('an infinite loop runs past its deadline: its records are invalid with the reason, and the host goes on', async () => {
    await upload('loop.jsonl', jsonl([{ id: 'l1', title: 'Loop' }]));
    const job = await runImport(importBody('loop.jsonl', { transformers: [{ type: 'javascript', config: { expression: '(() => { while (true) {} })()' } }] }));
    expect(job.result).toMatchObject({ filesInvalid: 1, recordsInvalid: 1 });
    const report = JSON.parse((await api('GET', '/buckets/invalidated/files/loop.jsonl.errors.json')).text);
    expect(report.errors[0].problems[0]).toMatch(/deadline/);
    expect((await host.call('GET', '/health', undefined, {})).status).toBe(200);
  });

  it('a sandbox escape attempt cannot reach the host', async () => {
    await upload('escape.jsonl', jsonl([{ id: 'e1', title: 'Escape' }]));
    const job = await runImport(
      importBody('escape.jsonl', {
        skipInvalidRecords: true,
        transformers: [{ type: 'javascript', config: { expression: "(process.exit(1), require('fs').writeFileSync('/tmp/pwned', 'x'), data)" } }],
      }),
    );
    expect(job.result).toMatchObject({ recordsInvalid: 1, recordsCreated: 0 });
    const report = JSON.parse((await api('GET', '/buckets/processed/files/escape.jsonl.errors.json')).text);
    expect(report.errors[0].problems[0]).toMatch(/process'? is not defined/);
    expect((await host.call('GET', '/health', undefined, {})).status).toBe(200);
  });
});
