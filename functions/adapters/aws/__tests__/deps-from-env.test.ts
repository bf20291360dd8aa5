import { afterEach, describe, expect, it, vi } from 'vitest';

const NAMES = ['TABLE_NAME', 'EVENT_BUS_NAME', 'FILES_BUCKET', 'JOB_STATE_MACHINES'] as const;
const original = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
afterEach(() => {
  for (const name of NAMES) {
    if (original[name] === undefined) delete process.env[name];
    else process.env[name] = original[name];
  }
  vi.resetModules();
});

describe('depsFromEnv', () => {
  it('fails fast with a clear message when TABLE_NAME is missing', async () => {
    delete process.env.TABLE_NAME;
    process.env.EVENT_BUS_NAME = 'graph-events';
    process.env.FILES_BUCKET = 'graph-files';
    const { depsFromEnv } = await import('../deps-from-env');
    expect(() => depsFromEnv().store).toThrow(/TABLE_NAME is not set/);
  });

  it('builds each adapter only when used, so a function needs only the settings of what it uses', async () => {
    process.env.TABLE_NAME = 'records-prod';
    delete process.env.FILES_BUCKET;
    delete process.env.EVENT_BUS_NAME;
    delete process.env.JOB_STATE_MACHINES;
    const { depsFromEnv } = await import('../deps-from-env');
    const deps = depsFromEnv();
    expect(deps.store).toBeDefined();
    expect(() => deps.blobStore).toThrow(/FILES_BUCKET is not set/);
    expect(() => deps.eventBus).toThrow(/EVENT_BUS_NAME is not set/);
    expect(() => deps.jobRunner).toThrow(/JOB_STATE_MACHINES is not set/);
    process.env.JOB_STATE_MACHINES = 'not json';
    expect(() => deps.jobRunner).toThrow(/must be a JSON object/);
  });

  it('builds the deps once from TABLE_NAME', async () => {
    process.env.TABLE_NAME = 'records-prod';
    process.env.EVENT_BUS_NAME = 'graph-events';
    process.env.FILES_BUCKET = 'graph-files';
    const { depsFromEnv } = await import('../deps-from-env');
    const { DynamoDbStore } = await import('../dynamodb-store');
    const { systemClock, randomIds } = await import('../../../ports/clock');
    const deps = depsFromEnv();
    expect(deps.store).toBeInstanceOf(DynamoDbStore);
    expect((deps.store as InstanceType<typeof DynamoDbStore>).tableName).toBe('records-prod');
    expect(deps.clock).toBe(systemClock);
    expect(deps.ids).toBe(randomIds);
    expect(typeof deps.httpClient.request).toBe('function');
    process.env.TABLE_NAME = 'changed';
    expect(depsFromEnv()).toBe(deps);
  });
});
