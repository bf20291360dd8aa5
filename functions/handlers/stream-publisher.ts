import type { DynamoDBBatchResponse, DynamoDBStreamEvent, DynamoDBStreamHandler } from 'aws-lambda';
import { publishStreamRecords, StreamPublishError } from '../core/graph/events/publish';
import type { EventBus } from '../ports/event-bus';

/**
 * The DynamoDB stream's Lambda (event source mapping with `ReportBatchItemFailures`): turns
 * the batch's record writes into data graph events and publishes them in stream order. When
 * publishing fails part way, it reports the first stream record not known to be published, so
 * Lambda retries the batch from there (the events before it are not sent again; events are
 * published at least once and a redelivered one keeps its id). An unreadable stream record
 * fails the whole batch.
 */
export function create(bus: EventBus): (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse> {
  return async (event) => {
    try {
      await publishStreamRecords(event.Records ?? [], bus);
      return { batchItemFailures: [] };
    } catch (err) {
      if (!(err instanceof StreamPublishError)) throw err;
      console.error(
        JSON.stringify({
          level: 'ERROR',
          message: 'publishing record events failed; Lambda retries from this stream record',
          eventID: err.firstFailed.eventID,
          sequenceNumber: err.firstFailed.dynamodb?.SequenceNumber,
          error: String((err.cause as Error)?.message ?? err.cause),
        }),
      );
      return { batchItemFailures: [{ itemIdentifier: err.firstFailed.dynamodb?.SequenceNumber ?? '' }] };
    }
  };
}

let ready: Promise<(event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>> | undefined;

/** The Lambda entry: the bus is built from the environment on the first invocation. */
export const handler: DynamoDBStreamHandler = async (event) => {
  ready ??= import('../adapters/aws/deps-from-env').then(({ depsFromEnv }) => create(depsFromEnv().eventBus));
  return (await ready)(event);
};
