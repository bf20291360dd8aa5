import { createHash } from 'node:crypto';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { GraphEvent, GraphEventType } from '../../../ports/event-bus';
import type { Item } from '../../../ports/store';
import { isRecordItem, type RecordItem } from '../records/record-item';

/** The stream view the table must have: the events carry the record before and after. */
export const STREAM_VIEW_TYPE = 'NEW_AND_OLD_IMAGES';

/** A stream record this code cannot turn into an event (a misconfigured stream, a foreign batch). */
export class InvalidStreamRecordError extends Error {
  readonly isRetryable = false;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidStreamRecordError';
  }
}

export interface EventsFromStreamOptions {
  /** Epoch ms; only used for a REMOVE record without `ApproximateCreationDateTime`. */
  now?: () => number;
}

/**
 * INTERFACE.md "Events" and "Data record lifecycle": the data graph events raised by a batch
 * of DynamoDB stream records (the AWS stream, or the local host's twin of it), in stream
 * order, exactly one per stream record that touches a data record item (`kind: 'record'`).
 * Every other item of the table (configuration, credentials, the event log, ...) is skipped.
 *
 * - INSERT -> DataRecordCreated (`new`); MODIFY -> DataRecordUpdated (`old`, `new`, also when
 *   no field but `@uat` changed); REMOVE -> DataRecordRemoved (`old`). Should an item change
 *   kind (never done today), a MODIFY whose old image only is a record is a removal, and one
 *   whose new image only is a record is a creation.
 * - `id` is derived from the stream record's `eventID`, so a redelivered stream record raises
 *   the same event id (trigger jobs deduplicate on it).
 * - `time` is the new record's `@uat` for Created and Updated, the stream record's
 *   `ApproximateCreationDateTime` for Removed (a removal has no later timestamp of its own).
 */
export function eventsFromStream(records: DynamoDBRecord[], options: EventsFromStreamOptions = {}): GraphEvent[] {
  const events: GraphEvent[] = [];
  for (const record of records) {
    const event = eventFromStreamRecord(record, options);
    if (event) events.push(event);
  }
  return events;
}

/** The event of one stream record, or undefined when it does not touch a data record. */
export function eventFromStreamRecord(record: DynamoDBRecord, options: EventsFromStreamOptions = {}): GraphEvent | undefined {
  const stream = record.dynamodb;
  if (!stream) throw new InvalidStreamRecordError(`stream record ${record.eventID ?? '(no eventID)'} has no dynamodb part`);
  if (stream.StreamViewType !== undefined && stream.StreamViewType !== STREAM_VIEW_TYPE) {
    throw new InvalidStreamRecordError(
      `stream record ${record.eventID ?? '(no eventID)'} has StreamViewType ${stream.StreamViewType}; ` +
        `the table stream must be ${STREAM_VIEW_TYPE} for record events to carry old and new`,
    );
  }
  const oldItem = imageOf(stream.OldImage);
  const newItem = imageOf(stream.NewImage);
  const oldRecord = isRecordItem(oldItem) ? (oldItem as Item & RecordItem) : undefined;
  const newRecord = isRecordItem(newItem) ? (newItem as Item & RecordItem) : undefined;
  if (!oldRecord && !newRecord) return undefined;

  if (!record.eventID) throw new InvalidStreamRecordError('a stream record of a data record has no eventID');
  let type: GraphEventType;
  switch (record.eventName) {
    case 'INSERT':
    case 'MODIFY':
    case 'REMOVE':
      type = newRecord ? (oldRecord ? 'DataRecordUpdated' : 'DataRecordCreated') : 'DataRecordRemoved';
      break;
    default:
      throw new InvalidStreamRecordError(`stream record ${record.eventID} has an unknown eventName ${String(record.eventName)}`);
  }
  const subject = (newRecord ?? oldRecord)!;
  const data: GraphEvent['data'] = { customerCode: subject.customerCode, dataCollectionCode: subject.collectionCode };
  if (type !== 'DataRecordCreated') data.old = oldRecord!.record;
  if (type !== 'DataRecordRemoved') data.new = newRecord!.record;

  return { id: eventIdOf(record.eventID), type, source: '', time: timeOf(type, newRecord, stream.ApproximateCreationDateTime, options), data };
}

/**
 * A UUID derived from a stream record's `eventID`: SHA-256, laid out as an RFC 9562 version 8
 * (custom) UUID. The same stream record always gives the same event id.
 */
export function eventIdOf(eventID: string): string {
  const bytes = createHash('sha256').update(`experience-graph/stream/${eventID}`, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function imageOf(image: { [key: string]: AttributeValue } | undefined): Item | undefined {
  if (!image) return undefined;
  // The Lambda event type and the SDK type describe the same wire format.
  return unmarshall(image as unknown as Record<string, SdkAttributeValue>);
}

function timeOf(
  type: GraphEventType,
  newRecord: RecordItem | undefined,
  approximateCreationSeconds: number | undefined,
  options: EventsFromStreamOptions,
): string {
  const uat = newRecord?.record['@uat'];
  if (type !== 'DataRecordRemoved' && isTimestamp(uat)) return new Date(uat).toISOString();
  if (isTimestamp(approximateCreationSeconds) && isTimestamp(approximateCreationSeconds * 1000)) {
    return new Date(Math.round(approximateCreationSeconds * 1000)).toISOString();
  }
  return new Date((options.now ?? Date.now)()).toISOString();
}

/** A number that `new Date(n).toISOString()` accepts. */
function isTimestamp(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= 8.64e15;
}
