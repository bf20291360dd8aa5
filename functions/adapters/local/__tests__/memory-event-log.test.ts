import { describe, expect, it } from 'vitest';
import type { GraphEvent } from '../../../ports/event-bus';
import { MemoryEventLog } from '../memory-event-log';

const event = (customerCode: string, i: number, dataCollectionCode = 'movies', type: GraphEvent['type'] = 'DataRecordCreated'): GraphEvent => ({
  id: `e-${customerCode}-${i}`,
  type,
  source: '',
  time: new Date(1_700_000_000_000 + i).toISOString(),
  data: { customerCode, dataCollectionCode, new: { dataRecordIdentifier: String(i) } },
});

describe('the local event log', () => {
  it('lists a customer\'s newest events first, filtered, limited, and keeps the newest `keep`', async () => {
    const log = new MemoryEventLog(10);
    await log.recordMany(Array.from({ length: 30 }, (_, i) => event('acme', i, i % 2 ? 'movies' : 'users', i % 3 ? 'DataRecordCreated' : 'DataRecordUpdated')));
    await log.recordMany([event('globex', 1)]);
    const all = await log.list('acme', { limit: 100 });
    expect(all.map((e) => e.id)).toEqual(Array.from({ length: 10 }, (_, i) => `e-acme-${29 - i}`));
    expect((await log.list('acme', { collectionCode: 'movies', limit: 100 })).every((e) => e.data.dataCollectionCode === 'movies')).toBe(true);
    expect((await log.list('acme', { type: 'DataRecordUpdated', limit: 100 })).every((e) => e.type === 'DataRecordUpdated')).toBe(true);
    expect(await log.list('acme', { limit: 2 })).toHaveLength(2);
    expect((await log.list('globex')).map((e) => e.id)).toEqual(['e-globex-1']);
    expect(await log.list('nobody')).toEqual([]);
  });

  it('a redelivered event is kept once', async () => {
    const log = new MemoryEventLog();
    await log.recordMany([event('acme', 1), event('acme', 1)]);
    await log.recordMany([event('acme', 1)]);
    expect(await log.list('acme')).toHaveLength(1);
  });
});
