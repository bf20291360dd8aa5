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
