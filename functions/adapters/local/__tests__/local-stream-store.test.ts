import { readFileSync } from 'node:fs';
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withLocalDynamo, type LocalDynamoFixture } from '../../../../test/support/dynamo';
import { eventsFromStream } from '../../../core/graph/events/stream-to-events';
import { toRecordItem, type DataRecord } from '../../../core/graph/records/record-item';
import { ConditionFailedError, type Key } from '../../../ports/store';
import { DynamoDbStore } from '../../aws/dynamodb-store';
import { LocalStreamStore } from '../local-stream-store';

let dynamo: LocalDynamoFixture;
beforeAll(async () => {
  dynamo = await withLocalDynamo({ batchRetry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
});
afterAll(async () => {
  await dynamo?.stop();
});

let collections = 0;
const freshCollection = () => `col-${++collections}`;
const NOW = 1717755330999;

const movie = (id: string, fields: Record<string, unknown> = {}): DataRecord => ({
  dataRecordIdentifier: id,
  title: `Movie ${id}`,
  '@iat': 1717755330123,
  '@uat': 1717755330123,
  ...fields,
});

/** A LocalStreamStore over the real adapter, recording every batch it hands on. */
function streamed(inner = dynamo.store as DynamoDbStore) {
  const batches: DynamoDBRecord[][] = [];
  let ids = 0;
  const store = new LocalStreamStore(
    inner,
    async (records) => {
      batches.push(records);
    },
    { now: () => NOW, newEventId: () => `local-event-${++ids}` },
  );
  return { store, batches, records: () => batches.flat() };
}

const image = (item: Record<string, unknown>) => marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: false });
const keyOf = (item: Key): Key => ({ pk: item.pk, sk: item.sk });

describe('LocalStreamStore: single writes', () => {
  it('a put of a new record item emits one INSERT stream record, as DynamoDB Streams would, before put returns', async () => {
    const { store, batches } = streamed();
    const item = toRecordItem('acme', freshCollection(), movie('m1', { tags: ['a'], none: null }));
    expect(await store.put(item)).toBeUndefined();
    expect(batches).toHaveLength(1);
    const [record] = batches[0]!;
    expect(record).toEqual({
      eventID: 'local-event-1',
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'local',
      dynamodb: {
        ApproximateCreationDateTime: 1717755330,
        Keys: image(keyOf(item)),
        NewImage: image(item),
        SequenceNumber: expect.stringMatching(/^\d+$/),
        SizeBytes: expect.any(Number),
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
      eventSourceARN: expect.stringMatching(/^arn:aws:dynamodb:local:\d{12}:table\/.+\/stream\/.+$/),
    });
    expect(record!.dynamodb).not.toHaveProperty('OldImage');
  });

  it('a put over a record emits MODIFY with the replaced item (ALL_OLD) as OldImage', async () => {
    const { store, records } = streamed();
    const col = freshCollection();
    const v1 = toRecordItem('acme', col, movie('m1'));
    const v2 = toRecordItem('acme', col, movie('m1', { title: 'Renamed', '@uat': 1717755339999 }), 2);
    await store.put(v1);
    expect(await store.put(v2, { ifFieldEquals: { field: 'version', value: 1 } })).toEqual(v1);
    const modify = records()[1]!;
    expect(modify.eventName).toBe('MODIFY');
    expect(modify.dynamodb!.OldImage).toEqual(image(v1));
    expect(modify.dynamodb!.NewImage).toEqual(image(v2));
  });

  it('a delete of a record emits REMOVE with the removed item; a delete of an absent item emits nothing', async () => {
    const { store, records } = streamed();
    const item = toRecordItem('acme', freshCollection(), movie('m1'));
    await store.put(item);
    expect(await store.delete(keyOf(item))).toEqual(item);
    expect(await store.delete(keyOf(item))).toBeUndefined();
    expect(records().map((r) => r.eventName)).toEqual(['INSERT', 'REMOVE']);
    expect(records()[1]!.dynamodb).toMatchObject({ Keys: image(keyOf(item)), OldImage: image(item) });
    expect(records()[1]!.dynamodb).not.toHaveProperty('NewImage');
  });

  it('a failed conditional write emits nothing; a succeeded one emits exactly one', async () => {
    const { store, records } = streamed();
    const col = freshCollection();
    const item = toRecordItem('acme', col, movie('m1'));
    await expect(store.put(item, { ifExists: true })).rejects.toBeInstanceOf(ConditionFailedError);
    await expect(store.delete(keyOf(item), { ifExists: true })).rejects.toBeInstanceOf(ConditionFailedError);
    expect(records()).toEqual([]);
    await store.put(item, { ifNotExists: true });
    expect(records()).toHaveLength(1);
    await expect(store.put({ ...item, version: 9 }, { ifNotExists: true })).rejects.toBeInstanceOf(ConditionFailedError);
    await expect(store.put({ ...item, version: 9 }, { ifFieldEquals: { field: 'version', value: 7 } })).rejects.toBeInstanceOf(ConditionFailedError);
    await expect(store.delete(keyOf(item), { ifFieldEquals: { field: 'version', value: 7 } })).rejects.toBeInstanceOf(ConditionFailedError);
    expect(records()).toHaveLength(1);
    expect(await dynamo.store.get(keyOf(item))).toEqual(item);
  });

  it('a write refused by the store (item too large) emits nothing', async () => {
    const { store, records } = streamed();
    const item = toRecordItem('acme', freshCollection(), movie('m1', { blob: 'x'.repeat(400 * 1024) }));
    await expect(store.put(item)).rejects.toThrow(/too large/);
    expect(records()).toEqual([]);
  });

  it('writes of items that are not records emit nothing (in AWS the stream handler would skip them)', async () => {
    const { store, records } = streamed();
    await store.put({ pk: 'ENGINE#acme', sk: 'CONNECTION#c1', body: { a: 1 } });
    await store.put({ pk: 'ENGINE#acme', sk: 'CONNECTION#c1', body: { a: 2 } });
    await store.delete({ pk: 'ENGINE#acme', sk: 'CONNECTION#c1' });
    await store.increment({ pk: 'ENGINE#acme', sk: 'VERSION' }, 'version');
    await store.batchWrite([{ pk: 'X#1', sk: 'a' }], [{ pk: 'X#2', sk: 'b' }]);
    expect(records()).toEqual([]);
  });

  it('an item that stops being a record emits MODIFY (the stream handler makes it a removal)', async () => {
    const { store, records } = streamed();
    const item = toRecordItem('acme', freshCollection(), movie('m1'));
    await store.put(item);
    await store.put({ ...keyOf(item), kind: 'tombstone' });
    expect(records().map((r) => r.eventName)).toEqual(['INSERT', 'MODIFY']);
    expect(eventsFromStream(records()).map((e) => e.type)).toEqual(['DataRecordCreated', 'DataRecordRemoved']);
  });

  it('a put that leaves the item exactly as it was emits nothing, as in DynamoDB (an update always moves @uat)', async () => {
    const { store, records } = streamed();
    const item = toRecordItem('acme', freshCollection(), movie('m1', { nested: { b: 1, a: [1, { c: null }] } }));
    await store.put(item);
    await store.put({ ...item, record: { ...item.record }, ignored: undefined });
    expect(records()).toHaveLength(1);
    await store.put({ ...item, record: { ...item.record, '@uat': item.record['@uat'] + 1 } });
    expect(records().map((r) => r.eventName)).toEqual(['INSERT', 'MODIFY']);
  });

  it('get, query, batchGet and increment pass through and emit nothing', async () => {
    const { store, records } = streamed();
    const item = toRecordItem('acme', freshCollection(), movie('m1'));
    await dynamo.store.put(item);
    expect(await store.get(keyOf(item))).toEqual(item);
    expect((await store.query(item.pk, { prefix: 'R#' })).items).toEqual([item]);
    expect(await store.batchGet([keyOf(item)])).toEqual([item]);
    expect(await store.increment({ pk: 'COUNT#x', sk: 'n' }, 'n', 2)).toBe(2);
    expect(records()).toEqual([]);
  });

  it('sequence numbers increase from write to write', async () => {
    const { store, records } = streamed();
    const col = freshCollection();
    for (let i = 0; i < 5; i++) await store.put(toRecordItem('acme', col, movie(`m${i}`)));
    const sequence = records().map((r) => BigInt(r.dynamodb!.SequenceNumber!));
    expect(sequence).toEqual([...sequence].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(sequence).size).toBe(5);
  });

  it('has the shape of a real stream record (the recorded samples in events/)', async () => {
    const { store, records } = streamed();
    const col = freshCollection();
    const item = toRecordItem('acme', col, movie('m1'));
    await store.put(item);
    await store.put({ ...item, record: { ...item.record, '@uat': 1717755339999 } });
    await store.delete(keyOf(item));
    const samples = ['insert', 'modify', 'remove'].map(
      (s) => (JSON.parse(readFileSync(new URL(`../../../../events/dynamodb-stream-record-${s}.json`, import.meta.url), 'utf8')) as DynamoDBStreamEvent).Records[0]!,
    );
    records().forEach((local, i) => {
      expect(Object.keys(local).sort()).toEqual(Object.keys(samples[i]!).sort());
      expect(Object.keys(local.dynamodb!).sort()).toEqual(Object.keys(samples[i]!.dynamodb!).sort());
      expect(local.eventName).toBe(samples[i]!.eventName);
    });
    // And the stream handler makes of them the three lifecycle events.
    expect(eventsFromStream(records()).map((e) => [e.type, e.data.dataCollectionCode, e.data.old?.['@uat'], e.data.new?.['@uat']])).toEqual([
      ['DataRecordCreated', col, undefined, 1717755330123],
      ['DataRecordUpdated', col, 1717755330123, 1717755339999],
      ['DataRecordRemoved', col, 1717755339999, undefined],
    ]);
  });

  it('a failure of the stream handler surfaces to the writer (the write itself is done)', async () => {
    const store = new LocalStreamStore(dynamo.store, async () => {
      throw new Error('handler down');
    });
    const item = toRecordItem('acme', freshCollection(), movie('m1'));
    await expect(store.put(item)).rejects.toThrow('handler down');
    expect(await dynamo.store.get(keyOf(item))).toEqual(item);
  });
});

describe('LocalStreamStore: batchWrite', () => {
  it('emits one stream record per item in one batch, old images read just before the write', async () => {
    const { store, batches } = streamed();
    const col = freshCollection();
    const existing = toRecordItem('acme', col, movie('old'));
    const gone = toRecordItem('acme', col, movie('gone'));
    await dynamo.store.batchWrite([existing, gone], []);
    const updated = toRecordItem('acme', col, movie('old', { '@uat': 1717755339999 }), 2);
    const fresh = toRecordItem('acme', col, movie('new'));
    const config = { pk: 'ENGINE#acme', sk: 'TEMPLATE#t', body: {} };
    await store.batchWrite([updated, fresh, config], [keyOf(gone), { pk: 'REC#none', sk: 'R#none' }]);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.map((r) => [r.eventName, r.dynamodb!.Keys])).toEqual([
      ['MODIFY', image(keyOf(updated))],
      ['INSERT', image(keyOf(fresh))],
      ['REMOVE', image(keyOf(gone))],
    ]);
    expect(batches[0]![0]!.dynamodb!.OldImage).toEqual(image(existing));
    expect(batches[0]![2]!.dynamodb!.OldImage).toEqual(image(gone));
    expect(eventsFromStream(batches[0]!).map((e) => e.type)).toEqual(['DataRecordUpdated', 'DataRecordCreated', 'DataRecordRemoved']);
  });

  it('the last put of a key wins, as in the adapter', async () => {
    const { store, records } = streamed();
    const col = freshCollection();
    const a = toRecordItem('acme', col, movie('m1', { title: 'first' }));
    const b = toRecordItem('acme', col, movie('m1', { title: 'second' }));
    await store.batchWrite([a, b], []);
    expect(records()).toHaveLength(1);
    expect(records()[0]!.dynamodb!.NewImage).toEqual(image(b));
  });

  it('a batch that fails half-way leaves no event without a written record and no written record without its event', async () => {
    // The adapter over a client whose second BatchWriteItem call fails (chunks of 25 run 4 at a time).
    let batchWrites = 0;
    const failing = {
      send: (command: unknown) => {
        if (command instanceof BatchWriteCommand && ++batchWrites === 2) return Promise.reject(new Error('chunk 2 failed'));
        return dynamo.client.send(command as never);
      },
    } as unknown as DynamoDBDocumentClient;
    const inner = new DynamoDbStore({ tableName: dynamo.tableName, client: failing, batchRetry: { maxAttempts: 1 } });
    const { store, records } = streamed(inner);
    const col = freshCollection();
    const existing = Array.from({ length: 30 }, (_, i) => toRecordItem('acme', col, movie(`old${i}`)));
    await dynamo.store.batchWrite(existing, []);
    const puts = Array.from({ length: 60 }, (_, i) => toRecordItem('acme', col, movie(`new${i}`)));
    const deletes = existing.map(keyOf);

    await expect(store.batchWrite(puts, deletes)).rejects.toThrow('chunk 2 failed');

    const changed = new Set<string>();
    for (const item of puts) if (await dynamo.store.get(keyOf(item))) changed.add(item.sk);
    for (const key of deletes) if (!(await dynamo.store.get(key))) changed.add(key.sk);
    const emitted = records().map((r) => r.dynamodb!.Keys!.sk!.S!);
    expect(changed.size).toBeGreaterThan(0);
    expect(changed.size).toBeLessThan(90);
    expect(new Set(emitted)).toEqual(changed);
    expect(emitted).toHaveLength(changed.size);
    for (const r of records()) {
      const sk = r.dynamodb!.Keys!.sk!.S!;
      expect(r.eventName).toBe(sk.startsWith('R#new') ? 'INSERT' : 'REMOVE');
    }
  });

  it('a batch refused before anything is written emits nothing', async () => {
    const { store, records } = streamed();
    const item = toRecordItem('acme', freshCollection(), movie('m1'));
    await expect(store.batchWrite([item], [keyOf(item)])).rejects.toBeInstanceOf(TypeError);
    expect(records()).toEqual([]);
    expect(await dynamo.store.get(keyOf(item))).toBeUndefined();
  });
});


describe('LocalStreamStore: old images remembered from a batch read', () => {
  /** The real adapter, counting the keys it is asked to batch-read. */
  function counting() {
    const inner = dynamo.store as DynamoDbStore;
    let keysRead = 0;
    const spy = Object.create(inner) as DynamoDbStore;
    spy.batchGet = async (keys) => {
      keysRead += keys.length;
      return inner.batchGet(keys);
    };
    return { spy, keysRead: () => keysRead };
  }

  it('a batch write right after a batch read of the same keys reads nothing again, and its events carry the read images', async () => {
    const { spy, keysRead } = counting();
    const { store, records } = streamed(spy);
    const col = freshCollection();
    const old = toRecordItem('acme', col, movie('a'));
    await store.put(old);
    await store.batchGet([keyOf(old), keyOf(toRecordItem('acme', col, movie('b')))]);
    expect(keysRead()).toBe(2);
    await store.batchWrite([toRecordItem('acme', col, movie('a', { title: 'A2' }), 2), toRecordItem('acme', col, movie('b'))], []);
    expect(keysRead()).toBe(2);
    const events = eventsFromStream(records().slice(1));
    expect(events.map((e) => e.type).sort()).toEqual(['DataRecordCreated', 'DataRecordUpdated']);
    expect(events.find((e) => e.type === 'DataRecordUpdated')!.data.old!.title).toBe('Movie a');
  });

  it('a write between the read and the batch write makes the batch write read the key again', async () => {
    const { spy, keysRead } = counting();
    const { store, records } = streamed(spy);
    const col = freshCollection();
    const first = toRecordItem('acme', col, movie('c'));
    await store.batchGet([keyOf(first)]);
    await store.put(first);
    await store.batchWrite([toRecordItem('acme', col, movie('c', { title: 'C2' }), 2)], []);
    expect(keysRead()).toBe(2);
    const events = eventsFromStream(records());
    expect(events.map((e) => e.type)).toEqual(['DataRecordCreated', 'DataRecordUpdated']);
    expect(events[1].data.old!.title).toBe('Movie c');
  });
});
