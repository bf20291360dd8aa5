import { afterEach, describe, expect, it, vi } from 'vitest';

const original = process.env.TABLE_NAME;
afterEach(() => {
  if (original === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = original;
  vi.resetModules();
});

describe('depsFromEnv', () => {
  it('fails fast with a clear message when TABLE_NAME is missing', async () => {
    delete process.env.TABLE_NAME;
    const { depsFromEnv } = await import('../deps-from-env');
    expect(() => depsFromEnv()).toThrow(/TABLE_NAME is not set/);
  });

  it('builds the deps once from TABLE_NAME', async () => {
    process.env.TABLE_NAME = 'records-prod';
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
