import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withLocalDynamo, type LocalDynamoFixture } from '../../../../../test/support/dynamo';
import type { GraphEvent, GraphEventType } from '../../../../ports/event-bus';
import { EVENT_LOG_RETENTION_SECONDS, EventLog } from '../event-log';

let dynamo: LocalDynamoFixture;
beforeAll(async () => {
  dynamo = await withLocalDynamo();
});
afterAll(async () => {
  await dynamo?.stop();
});

let customers = 0;
const freshCustomer = () => `cust-${++customers}`;
const T0 = Date.parse('2024-06-07T10:00:00.000Z');

function event(customerCode: string, n: number, type: GraphEventType = 'DataRecordCreated', dataCollectionCode = 'movies'): GraphEvent {
  const record = { dataRecordIdentifier: `r${n}`, '@iat': T0, '@uat': T0 + n * 1000 };
  return {
    id: `00000000-0000-8000-8000-${String(n).padStart(12, '0')}`,
    type,
    source: '',
    time: new Date(T0 + n * 1000).toISOString(),
    data: {
      customerCode,
      dataCollectionCode,
      ...(type === 'DataRecordCreated' ? {} : { old: record }),
      ...(type === 'DataRecordRemoved' ? {} : { new: record }),
    },
  };
}

describe('EventLog', () => {
  it('lists a customer\'s events newest first, envelope as published', async () => {
    const log = new EventLog(dynamo.store);
    const c = freshCustomer();
    const events = [event(c, 1), event(c, 2, 'DataRecordUpdated'), event(c, 3, 'DataRecordRemoved')];
    for (const e of [events[1]!, events[0]!, events[2]!]) await log.record(e);
    const listed = await log.list(c);
    expect(listed).toStrictEqual([events[2], events[1], events[0]]);
    expect(Object.keys(listed[1]!)).toEqual(['id', 'type', 'source', 'time', 'data']);
    expect(Object.keys(listed[1]!.data)).toEqual(['customerCode', 'dataCollectionCode', 'old', 'new']);
  });

  it('keeps customers apart', async () => {
    const log = new EventLog(dynamo.store);
    const a = freshCustomer();
    const b = freshCustomer();
    await log.record(event(a, 1));
    expect(await log.list(b)).toEqual([]);
    expect((await log.list(a)).map((e) => e.data.customerCode)).toEqual([a]);
  });

  it('filters by collection and type, and applies the limit after filtering', async () => {
    const log = new EventLog(dynamo.store);
    const c = freshCustomer();
    const types: GraphEventType[] = ['DataRecordCreated', 'DataRecordUpdated', 'DataRecordRemoved'];
    for (let n = 1; n <= 30; n++) await log.record(event(c, n, types[n % 3], n % 2 ? 'movies' : 'users'));
    const movies = await log.list(c, { collectionCode: 'movies' });
    expect(movies.map((e) => e.data.dataCollectionCode)).toEqual(Array(15).fill('movies'));
    const updates = await log.list(c, { type: 'DataRecordUpdated', collectionCode: 'users', limit: 2 });
    // n % 3 === 1 and n even: 28, 22, ...
    expect(updates.map((e) => e.id.slice(-2))).toEqual(['28', '22']);
    expect(await log.list(c, { limit: 1 })).toEqual([event(c, 30, types[0], 'users')]);
    expect(await log.list(c, { collectionCode: 'nothing' })).toEqual([]);
  });

  it('defaults to 100 events and refuses a limit outside 1..1000', async () => {
    const log = new EventLog(dynamo.store, { keep: 2000, trimEvery: 1000 });
    const c = freshCustomer();
    await dynamo.store.batchWrite(
      Array.from({ length: 120 }, (_, i) => {
        const e = event(c, i);
        return { pk: `EVENTS#${c}`, sk: `${e.time}#${e.id}`, kind: 'event', customerCode: c, collectionCode: 'movies', type: e.type, event: e, ttl: 4e9 };
      }),
      [],
    );
    expect(await log.list(c)).toHaveLength(100);
    for (const limit of [0, -1, 1001, 1.5, Number.NaN]) await expect(log.list(c, { limit })).rejects.toBeInstanceOf(RangeError);
  });

  it('is idempotent for the same event (a redelivery is recorded once)', async () => {
    const log = new EventLog(dynamo.store);
    const c = freshCustomer();
    await log.record(event(c, 1));
    await log.record(event(c, 1));
    await log.record(structuredClone(event(c, 1)));
    expect(await log.list(c)).toEqual([event(c, 1)]);
    expect(await dynamo.store.get({ pk: `EVENTS-COUNT#${c}`, sk: 'COUNT' })).toMatchObject({ recorded: 1 });
  });

  it('stores pk EVENTS#<customer>, sk <time>#<id>, kind event and a ttl of now + 7 days (epoch seconds)', async () => {
    const now = 1717755330999;
    const log = new EventLog(dynamo.store, { now: () => now });
    const c = freshCustomer();
    const e = event(c, 7);
    await log.record(e);
    const item = await dynamo.store.get({ pk: `EVENTS#${c}`, sk: `${e.time}#${e.id}` });
    expect(item).toEqual({
      pk: `EVENTS#${c}`,
      sk: `2024-06-07T10:00:07.000Z#${e.id}`,
      kind: 'event',
      customerCode: c,
      collectionCode: 'movies',
      type: 'DataRecordCreated',
      event: e,
      ttl: 1717755330 + 7 * 24 * 3600,
    });
    expect(EVENT_LOG_RETENTION_SECONDS).toBe(604800);
  });

  it('does not list expired events (dynalite has no TTL; DynamoDB deletes them late)', async () => {
    let now = T0;
    const log = new EventLog(dynamo.store, { now: () => now });
    const c = freshCustomer();
    await log.record(event(c, 1));
    now = T0 + 3 * 24 * 3600 * 1000;
    await log.record(event(c, 2));
    now = T0 + 8 * 24 * 3600 * 1000;
    expect((await log.list(c)).map((e) => e.id)).toEqual([event(c, 2).id]);
  });

  it('trims each customer to the newest `keep` every `trimEvery` records', async () => {
    const log = new EventLog(dynamo.store, { keep: 5, trimEvery: 4 });
    const c = freshCustomer();
    const other = freshCustomer();
    for (let n = 1; n <= 3; n++) await log.record(event(other, n));
    for (let n = 1; n <= 7; n++) await log.record(event(c, n));
    // Trimmed at the 4th (nothing beyond 5); 7 items now, the next trim is at the 8th.
    expect((await dynamo.store.query(`EVENTS#${c}`)).items).toHaveLength(7);
    // A listing never shows more than `keep`, trimmed or not.
    expect((await log.list(c)).map((e) => e.id.slice(-1))).toEqual(['7', '6', '5', '4', '3']);
    await log.record(event(c, 8));
    const left = (await dynamo.store.query(`EVENTS#${c}`)).items.map((i) => (i.event as GraphEvent).id.slice(-1));
    expect(left).toEqual(['4', '5', '6', '7', '8']);
    expect((await dynamo.store.query(`EVENTS#${other}`)).items).toHaveLength(3);
  });

  it('trims the default way: 1000 kept, checked each time the count passes a multiple of 500', async () => {
    const log = new EventLog(dynamo.store);
    const c = freshCustomer();
    // 1050 old events already there, as if recorded by another process.
    const items = Array.from({ length: 1050 }, (_, i) => {
      const e = event(c, i);
      return { pk: `EVENTS#${c}`, sk: `${e.time}#${e.id}`, kind: 'event', customerCode: c, collectionCode: 'movies', type: e.type, event: e, ttl: 4e9 };
    });
    await dynamo.store.batchWrite(items, []);
    await dynamo.store.increment({ pk: `EVENTS-COUNT#${c}`, sk: 'COUNT' }, 'recorded', 498);
    await log.record(event(c, 5000));
    expect((await dynamo.store.query(`EVENTS#${c}`)).items.length).toBe(1051);
    await log.record(event(c, 5001));
    const page = await dynamo.store.query(`EVENTS#${c}`, { limit: 1 });
    expect((page.items[0]!.event as GraphEvent).id).toBe(event(c, 52).id);
    let count = 0;
    let cursor: string | undefined;
    do {
      const p = await dynamo.store.query(`EVENTS#${c}`, { cursor });
      count += p.items.length;
      cursor = p.cursor;
    } while (cursor);
    expect(count).toBe(1000);
  });

  it('recordMany writes events in batches and trims when the count passes a multiple of trimEvery', async () => {
    const log = new EventLog(dynamo.store, { keep: 10, trimEvery: 5 });
    const c = freshCustomer();
    await log.recordMany(Array.from({ length: 4 }, (_, i) => event(c, i)));
    expect((await log.list(c, { limit: 100 })).length).toBe(4);
    await log.recordMany(Array.from({ length: 12 }, (_, i) => event(c, 10 + i)));
    expect((await dynamo.store.query(`EVENTS#${c}`)).items.length).toBe(10);
    // A redelivered batch leaves each event once.
    await log.recordMany([event(c, 21)]);
    expect((await log.list(c, { limit: 100 })).filter((e) => e.id === event(c, 21).id)).toHaveLength(1);
  });
});
