import type { DynamoDBRecord } from 'aws-lambda';
import type { EventBus, GraphEvent } from '../../../ports/event-bus';
import { eventFromStreamRecord, type EventsFromStreamOptions } from './stream-to-events';

/** Events handed to the bus per `publish` call: one EventBridge PutEvents request. */
export const PUBLISH_BATCH_SIZE = 10;

/**
 * Publishing stopped at `firstFailed`: every stream record before it has had its event
 * published, it and the ones after it may not have. The stream publisher reports its
 * `SequenceNumber` to Lambda, which retries the batch from there.
 */
export class StreamPublishError extends Error {
  constructor(
    readonly firstFailed: DynamoDBRecord,
    cause: unknown,
  ) {
    super(`publishing the event of stream record ${firstFailed.eventID ?? '(no eventID)'} failed: ${String((cause as Error)?.message ?? cause)}`, {
      cause,
    });
    this.name = 'StreamPublishError';
  }
}

export interface PublishStreamRecordsOptions extends EventsFromStreamOptions {
  /** Events per `bus.publish` call (default `PUBLISH_BATCH_SIZE`). */
  batchSize?: number;
}

/**
 * The stream publisher's use case, on both hosts: turns stream records into data graph
 * events (`eventsFromStream`) and publishes them in stream order, a batch at a time. A failed
 * batch throws `StreamPublishError` naming the first stream record whose event is not known
 * to be published; the batches before it stay published (delivery is at least once, and a
 * redelivered event keeps its id).
 */
export async function publishStreamRecords(
  records: DynamoDBRecord[],
  bus: EventBus,
  options: PublishStreamRecordsOptions = {},
): Promise<void> {
  const batchSize = options.batchSize ?? PUBLISH_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
  const pending: { record: DynamoDBRecord; event: GraphEvent }[] = [];
  for (const record of records) {
    const event = eventFromStreamRecord(record, options);
    if (event) pending.push({ record, event });
  }
  for (let i = 0; i < pending.length; i += batchSize) {
    const batch = pending.slice(i, i + batchSize);
    try {
      await bus.publish(batch.map((p) => p.event));
    } catch (err) {
      throw new StreamPublishError(batch[0]!.record, err);
    }
  }
}
