import { readFileSync } from 'node:fs';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { toRecordItem, type DataRecord } from '../../records/record-item';
import { eventIdOf, eventsFromStream, InvalidStreamRecordError } from '../stream-to-events';

const readJson = (path: string) => JSON.parse(readFileSync(new URL(`../../../../../${path}`, import.meta.url), 'utf8'));
const SAMPLES = ['insert', 'modify', 'remove', 'config-item'];
const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const movie = (id: string, fields: Record<string, unknown> = {}): DataRecord => ({
  dataRecordIdentifier: id,
  title: `Movie ${id}`,
  '@iat': 1717755330123,
  '@uat': 1717755330123,
  ...fields,
});

/** A stream record as Lambda delivers it, from plain items. */
function streamRecord(
  eventID: string,
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  oldItem: Record<string, unknown> | undefined,
  newItem: Record<string, unknown> | undefined,
  approximateCreationDateTime: number | null = 1717755331,
): DynamoDBRecord {
  const any = (newItem ?? oldItem)!;
  return {
    eventID,
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'eu-west-1',
    dynamodb: {
      ...(approximateCreationDateTime === null ? {} : { ApproximateCreationDateTime: approximateCreationDateTime }),
      Keys: marshall({ pk: any.pk, sk: any.sk }) as never,
      ...(newItem ? { NewImage: marshall(newItem) as never } : {}),
      ...(oldItem ? { OldImage: marshall(oldItem) as never } : {}),
      SequenceNumber: '100',
      SizeBytes: 100,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    eventSourceARN: 'arn:aws:dynamodb:eu-west-1:123456789012:table/t/stream/2024-06-01T08:00:00.000',
  };
}

describe('eventsFromStream: the recorded stream batches in events/', () => {
  for (const sample of SAMPLES) {
    it(`dynamodb-stream-record-${sample}.json raises the events of expected/`, () => {
      const batch = readJson(`events/dynamodb-stream-record-${sample}.json`) as DynamoDBStreamEvent;
      const expected = readJson(`events/expected/dynamodb-stream-record-${sample}.json`);
      expect(eventsFromStream(batch.Records)).toEqual(expected);
      // toEqual ignores undefined keys: the envelope must not even carry them.
      expect(JSON.parse(JSON.stringify(eventsFromStream(batch.Records)))).toStrictEqual(expected);
    });
  }

  it('the samples cover every event type, and the config item sample raises none', () => {
    const types = ['insert', 'modify', 'remove'].flatMap((s) => readJson(`events/expected/dynamodb-stream-record-${s}.json`).map((e: { type: string }) => e.type));
    expect(new Set(types)).toEqual(new Set(['DataRecordCreated', 'DataRecordUpdated', 'DataRecordRemoved']));
    expect(readJson('events/expected/dynamodb-stream-record-config-item.json')).toEqual([]);
  });
});

describe('eventsFromStream: INTERFACE.md "Events" and "Data record lifecycle"', () => {
  const created = toRecordItem('acme', 'collection-movie', movie('m1', { '@uat': 1717755330123 }));
  const updated = toRecordItem('acme', 'collection-movie', movie('m1', { title: 'Renamed', '@uat': 1717755339999 }), 2);

  it('a record created: DataRecordCreated with new only, time = the record @uat', () => {
    const [event] = eventsFromStream([streamRecord('e1', 'INSERT', undefined, created)]);
    expect(event).toStrictEqual({
      id: eventIdOf('e1'),
      type: 'DataRecordCreated',
      source: '',
      time: '2024-06-07T10:15:30.123Z',
      data: { customerCode: 'acme', dataCollectionCode: 'collection-movie', new: created.record },
    });
    expect('old' in event!.data).toBe(false);
  });

  it('a record updated: DataRecordUpdated with old and new, time = the new @uat', () => {
    const [event] = eventsFromStream([streamRecord('e2', 'MODIFY', created, updated)]);
    expect(event).toStrictEqual({
      id: eventIdOf('e2'),
      type: 'DataRecordUpdated',
      source: '',
      time: '2024-06-07T10:15:39.999Z',
      data: { customerCode: 'acme', dataCollectionCode: 'collection-movie', old: created.record, new: updated.record },
    });
  });

  it('an update with no field changed (only @uat) still raises DataRecordUpdated', () => {
    const same = toRecordItem('acme', 'collection-movie', { ...created.record, '@uat': created.record['@uat'] + 1 }, 2);
    const events = eventsFromStream([streamRecord('e3', 'MODIFY', created, same)]);
    expect(events.map((e) => e.type)).toEqual(['DataRecordUpdated']);
    expect(events[0]!.data.old).toEqual(created.record);
    expect(events[0]!.data.new).toEqual(same.record);
  });

  it('a record removed: DataRecordRemoved with old only, time = the stream record time (seconds)', () => {
    const [event] = eventsFromStream([streamRecord('e4', 'REMOVE', updated, undefined, 1717928130)]);
    expect(event).toStrictEqual({
      id: eventIdOf('e4'),
      type: 'DataRecordRemoved',
      source: '',
      time: '2024-06-09T10:15:30.000Z',
      data: { customerCode: 'acme', dataCollectionCode: 'collection-movie', old: updated.record },
    });
    expect('new' in event!.data).toBe(false);
  });

  it('a removal without ApproximateCreationDateTime is timed now', () => {
    const [event] = eventsFromStream([streamRecord('e5', 'REMOVE', updated, undefined, null)], { now: () => 1700000000042 });
    expect(event!.time).toBe('2023-11-14T22:13:20.042Z');
  });

  it('a record holds the collection fields, dataRecordIdentifier, @iat and @uat as stored (numbers as numbers, nested values)', () => {
    const rich = toRecordItem('acme', 'c', movie('m2', { tags: ['a', 'b'], meta: { n: 1.5, none: null }, flag: false, empty: '' }));
    const [event] = eventsFromStream([streamRecord('e6', 'INSERT', undefined, rich)]);
    expect(event!.data.new).toStrictEqual(rich.record);
    expect(typeof event!.data.new!['@iat']).toBe('number');
  });

  it('skips every item that is not a data record, keeping the stream order of the others', () => {
    const config = { pk: 'ENGINE#acme', sk: 'CONNECTION#c1', body: { connectionCode: 'c1' } };
    const fakeKind = { pk: 'X', sk: 'Y', kind: 'event', customerCode: 'acme', collectionCode: 'c', record: { dataRecordIdentifier: 'x' } };
    const other = toRecordItem('globex', 'users', movie('u1'));
    const events = eventsFromStream([
      streamRecord('a', 'INSERT', undefined, config),
      streamRecord('b', 'INSERT', undefined, created),
      streamRecord('c', 'MODIFY', config, { ...config, body: {} }),
      streamRecord('d', 'INSERT', undefined, fakeKind),
      streamRecord('e', 'REMOVE', other, undefined),
      streamRecord('f', 'REMOVE', config, undefined),
    ]);
    expect(events.map((e) => [e.id, e.type, e.data.customerCode])).toEqual([
      [eventIdOf('b'), 'DataRecordCreated', 'acme'],
      [eventIdOf('e'), 'DataRecordRemoved', 'globex'],
    ]);
  });

  it('an item that stops or starts being a record is a removal or a creation', () => {
    const notRecord = { pk: created.pk, sk: created.sk, kind: 'tombstone' };
    expect(eventsFromStream([streamRecord('g', 'MODIFY', created, notRecord)]).map((e) => e.type)).toEqual(['DataRecordRemoved']);
    expect(eventsFromStream([streamRecord('h', 'MODIFY', notRecord, created)]).map((e) => e.type)).toEqual(['DataRecordCreated']);
  });

  it('refuses a stream that does not carry old and new images', () => {
    const record = streamRecord('k', 'INSERT', undefined, created);
    record.dynamodb!.StreamViewType = 'KEYS_ONLY';
    expect(() => eventsFromStream([record])).toThrow(InvalidStreamRecordError);
    expect(() => eventsFromStream([record])).toThrow(/NEW_AND_OLD_IMAGES/);
  });
});

describe('event id', () => {
  it('is a UUID derived from the stream eventID: a redelivered stream record gives the same id', () => {
    const record = streamRecord('c81e728d9d4c2f636f067f89cc14862c', 'INSERT', undefined, toRecordItem('a', 'c', movie('m')));
    const first = eventsFromStream([record])[0]!.id;
    const again = eventsFromStream([structuredClone(record)])[0]!.id;
    expect(first).toMatch(UUID_V8);
    expect(again).toBe(first);
    expect(eventIdOf('c81e728d9d4c2f636f067f89cc14862c')).toBe(first);
  });

  it('differs for different stream records', () => {
    const ids = new Set(Array.from({ length: 1000 }, (_, i) => eventIdOf(`event-${i}`)));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(UUID_V8);
  });
});
