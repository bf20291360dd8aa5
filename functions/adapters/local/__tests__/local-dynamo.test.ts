import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamoDbStore } from '../../aws/dynamodb-store';
import { startLocalDynamo } from '../local-dynamo';

const tableName = 'records-local';
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'local-dynamo-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('startLocalDynamo', () => {
  it('keeps data on disk across stop and start on the same path', async () => {
    const path = join(dir, 'dynamodb'); // does not exist yet: startLocalDynamo creates it
    const first = await startLocalDynamo({ path, tableName });
    expect(first.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const store1 = new DynamoDbStore({ tableName, client: first.client });
    await store1.put({ pk: 'customer#1', sk: 'profile', name: 'Ada', tags: ['a', ''], n: 1.25, nested: { ok: true } });
    await store1.increment({ pk: 'customer#1', sk: 'counter' }, 'hits', 5);
    await first.stop();

    const second = await startLocalDynamo({ path, tableName });
    try {
      const store2 = new DynamoDbStore({ tableName, client: second.client });
      expect(await store2.get({ pk: 'customer#1', sk: 'profile' })).toEqual({
        pk: 'customer#1',
        sk: 'profile',
        name: 'Ada',
        tags: ['a', ''],
        n: 1.25,
        nested: { ok: true },
      });
      expect(await store2.increment({ pk: 'customer#1', sk: 'counter' }, 'hits')).toBe(6);
      // The table was found, not created twice.
      const tables = await second.client.send(new ListTablesCommand({}));
      expect(tables.TableNames).toEqual([tableName]);
    } finally {
      await second.stop();
    }

    // And a third time, after the second stop.
    const third = await startLocalDynamo({ path, tableName });
    try {
      const store3 = new DynamoDbStore({ tableName, client: third.client });
      expect((await store3.get({ pk: 'customer#1', sk: 'counter' }))!.hits).toBe(6);
    } finally {
      await third.stop();
    }
  });

  it('refuses a data folder in use, with a clear error and without crashing', async () => {
    const path = join(dir, 'busy');
    const first = await startLocalDynamo({ path, tableName });
    try {
      await expect(startLocalDynamo({ path, tableName })).rejects.toThrow(/in use/);
      const store = new DynamoDbStore({ tableName, client: first.client });
      await store.put({ pk: 'still', sk: 'working' });
      expect(await store.get({ pk: 'still', sk: 'working' })).toEqual({ pk: 'still', sk: 'working' });
    } finally {
      await first.stop();
    }
  });

  it('is in memory without a path: a new start is empty', async () => {
    const a = await startLocalDynamo({ tableName });
    await new DynamoDbStore({ tableName, client: a.client }).put({ pk: 'p', sk: 's' });
    await a.stop();
    const b = await startLocalDynamo({ tableName });
    try {
      expect(await new DynamoDbStore({ tableName, client: b.client }).get({ pk: 'p', sk: 's' })).toBeUndefined();
    } finally {
      await b.stop();
    }
  });

  it('runs two in-memory instances side by side on different ports', async () => {
    const [a, b] = await Promise.all([startLocalDynamo({ tableName }), startLocalDynamo({ tableName: 'other-table' })]);
    try {
      expect(a.endpoint).not.toBe(b.endpoint);
      await new DynamoDbStore({ tableName, client: a.client }).put({ pk: 'p', sk: 's' });
      expect(await new DynamoDbStore({ tableName: 'other-table', client: b.client }).get({ pk: 'p', sk: 's' })).toBeUndefined();
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('stop is idempotent', async () => {
    const a = await startLocalDynamo({ tableName });
    await Promise.all([a.stop(), a.stop()]);
    await a.stop();
  });

  it('lets the process exit after stop', async () => {
    const module = fileURLToPath(new URL('../local-dynamo.ts', import.meta.url));
    const script = `
      const { startLocalDynamo } = await import(${JSON.stringify(module)});
      const { DynamoDbStore } = await import(${JSON.stringify(fileURLToPath(new URL('../../aws/dynamodb-store.ts', import.meta.url)))});
      const d = await startLocalDynamo({ path: ${JSON.stringify(join(dir, 'exit'))}, tableName: 'exit-table' });
      await new DynamoDbStore({ tableName: 'exit-table', client: d.client }).put({ pk: 'p', sk: 's' });
      await d.stop();
      console.log('stopped');
    `;
    const started = Date.now();
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the process did not exit after stop(); stderr: ${stderr}`));
      }, 20_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        if (code !== 0) console.error(stderr);
        resolve({ code, stdout });
      });
    });
    expect(code).toBe(0);
    expect(stdout).toContain('stopped');
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
