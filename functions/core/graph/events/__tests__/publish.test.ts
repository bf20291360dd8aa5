import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { EventBus, GraphEvent } from '../../../../ports/event-bus';
import { toRecordItem } from '../../records/record-item';
import { publishStreamRecords, StreamPublishError } from '../publish';
import { eventIdOf } from '../stream-to-events';

function insert(n: number, item: Record<string, unknown> = toRecordItem('acme', 'c', { dataRecordIdentifier: `r${n}`, '@iat': n, '@uat': n })): DynamoDBRecord {
  return {
    eventID: `ev-${n}`,
    eventName: 'INSERT',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      ApproximateCreationDateTime: 1717755331,
      Keys: marshall({ pk: item.pk, sk: item.sk }) as never,
      NewImage: marshall(item) as never,
      SequenceNumber: String(1000 + n),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}
const config = (n: number) => insert(n, { pk: 'ENGINE#acme', sk: `CONNECTION#${n}`, body: {} });

class RecordingBus implements EventBus {
  readonly calls: GraphEvent[][] = [];
  constructor(private readonly failOnCall?: number) {}
  async publish(events: GraphEvent[]): Promise<void> {
    if (this.calls.length + 1 === this.failOnCall) throw new Error('bus down');
    this.calls.push(events);
  }
}

describe('publishStreamRecords', () => {
  it('publishes the events of the records in stream order, ten per bus call', async () => {
    const bus = new RecordingBus();
    const records = Array.from({ length: 23 }, (_, i) => insert(i));
    await publishStreamRecords(records, bus);
    expect(bus.calls.map((c) => c.length)).toEqual([10, 10, 3]);
    expect(bus.calls.flat().map((e) => e.id)).toEqual(records.map((r) => eventIdOf(r.eventID!)));
  });

  it('publishes nothing for a batch without record items', async () => {
    const bus = new RecordingBus();
    await publishStreamRecords([config(1), config(2)], bus);
    expect(bus.calls).toEqual([]);
  });

  it('a failed bus call names the first stream record whose event is not published; the earlier ones stay published', async () => {
    const bus = new RecordingBus(2);
    const records = [config(0), ...Array.from({ length: 12 }, (_, i) => insert(i + 1)), config(13), insert(14)];
    const err = await publishStreamRecords(records, bus, { batchSize: 5 }).catch((e) => e);
    expect(err).toBeInstanceOf(StreamPublishError);
    // Batch 1 = records 1..5 (published), batch 2 = records 6..10 (failed).
    expect(err.firstFailed).toBe(records[6]);
    expect(err.firstFailed.dynamodb.SequenceNumber).toBe('1006');
    expect(err.cause).toEqual(new Error('bus down'));
    expect(bus.calls.flat().map((e) => e.id)).toEqual([1, 2, 3, 4, 5].map((n) => eventIdOf(`ev-${n}`)));
  });
});
