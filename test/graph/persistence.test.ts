import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_A, graphHeaders, startTestHost } from '../support/local-host';

describe('data survives a restart of the local host', () => {
  it('collections, schemas and records written before a stop are there after a start on the same DATA_DIR', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'graph-restart-'));
    const A = graphHeaders(CUSTOMER_A);
    try {
      const first = await startTestHost({ dataDir });
      await first.call('POST', '/_api/v1/collections', { collectionCode: 'users', dataRecordIdentifierProperty: 'email' }, A);
      await first.call('POST', '/_api/v1/collections/users/schema', { fields: { email: { jsonSchema: { type: 'string' } } } }, A);
      const written = await first.call('POST', '/_api/v1/collections/users/records', { dataRecords: [{ email: 'ann@example.com' }] }, A);
      expect(written.status).toBe(200);
      await first.stop();

      const second = await startTestHost({ dataDir });
      try {
        const read = await second.call('GET', '/_api/v1/collections/users/records/ann@example.com', undefined, A);
        expect(read.status).toBe(200);
        expect(read.body).toEqual(written.body.data[0].new);
        expect((await second.call('GET', '/_api/v1/collections/users/schema', undefined, A)).body.fields.email).toBeDefined();
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('jobs left unfinished when the local host stopped', () => {
  it('are FAILED with the reason at the next start, not RUNNING forever', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'jobs-restart-'));
    const A = graphHeaders(CUSTOMER_A);
    try {
      const first = await startTestHost({ dataDir });
      // A job record as a run would leave it when the process dies mid-run.
      const { JobStore } = await import('../../functions/core/jobs/job-store');
      const store = new JobStore(first.deps.store);
      await store.create(CUSTOMER_A.customerCode, {
        jobId: '01a20000-0000-7000-8000-000000000001',
        jobType: 'callWebservice',
        status: 'RUNNING',
        createdAt: new Date().toISOString(),
        params: { url: 'http://127.0.0.1:9' },
      });
      await first.stop();

      const second = await startTestHost({ dataDir });
      try {
        const job = (await second.call('GET', '/_api/v1/jobs/01a20000-0000-7000-8000-000000000001', undefined, A)).body;
        expect(job.status).toBe('FAILED');
        expect(job.error).toContain('local host stopped');
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
