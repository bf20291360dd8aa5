import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall, type marshallOptions } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { isRecordItem, isRecordKey } from '../../core/graph/records/record-item';
import type { Item, Key, QueryOptions, QueryPage, Store, WriteCondition } from '../../ports/store';

/** Receives the stream records of one write call, as Lambda receives a stream batch. */
export type StreamRecordsHandler = (records: DynamoDBRecord[]) => Promise<void>;

export interface LocalStreamStoreOptions {
  /** Epoch ms (default `Date.now`): `ApproximateCreationDateTime`. */
  now?: () => number;
  /** `eventID` of each stream record (default a random UUID). */
  newEventId?: () => string;
  /** `eventSourceARN` of the records (default a local, AWS-shaped stream ARN). */
  eventSourceARN?: string;
  /** `awsRegion` of the records (default `local`). */
  awsRegion?: string;
}

/** What the DynamoDB adapter's document client does to an item on its way in. */
/** Batch-read images remembered at most (oldest forgotten first). */
const REMEMBERED_READS = 50_000;

const MARSHALL: marshallOptions = { removeUndefinedValues: true, convertClassInstanceToMap: false };

/**
 * The local twin of DynamoDB Streams (dynalite has none), as a Store that wraps the real one.
 * After a write has succeeded, and before the write call returns, it hands the stream records
 * of that write (INSERT, MODIFY or REMOVE with `NEW_AND_OLD_IMAGES`, marshalled images, as
 * Lambda receives them) to `onRecords`, which on the local host is the same stream handler
 * that Lambda runs in AWS. A write that fails (a condition that does not hold, for instance)
 * emits nothing; a delete of an absent item emits nothing; and, as in DynamoDB, a put that
 * leaves the item exactly as it was emits nothing.
 *
 * Differences from AWS, on purpose:
 * - Only writes where the old or the new item is a data record item (`kind: 'record'`) are
 *   emitted: in AWS every item's writes reach the stream and the stream handler skips the
 *   others; locally they are skipped here, so configuration and log writes cost nothing.
 * - `put` and `delete` get the old image from the write itself (ALL_OLD). `batchWrite` has no
 *   ALL_OLD in DynamoDB: locally the old images are read (`batchGet`) just before the write,
 *   so a concurrent write to the same item in between would give a stale old image.
 * - A `batchWrite` that fails part way (one chunk written, the next not) emits the records of
 *   exactly the items found written afterwards, then rethrows: no event without its write,
 *   no write without its event.
 * - `increment` passes through without stream records (records are never incremented).
 * - Concurrent write calls hand on their records concurrently: a stream keeps one item's
 *   changes in order, this twin only the changes of one call. (Calls are not queued, because
 *   a subscriber, a trigger job say, may itself write through this store while it runs.)
 *
 * If `onRecords` throws, the write call rejects with that error although the write is done.
 */
export class LocalStreamStore implements Store {
  private sequence = BigInt(Date.now()) * 1_000_000n;
  /** Key -> item (null: absent) as a batch read saw it, until that key's next write. */
  private readonly remembered = new Map<string, Item | null>();
  private readonly now: () => number;
  private readonly newEventId: () => string;
  private readonly eventSourceARN: string;
  private readonly awsRegion: string;

  constructor(
    private readonly inner: Store,
    private readonly onRecords: StreamRecordsHandler,
    options: LocalStreamStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.newEventId = options.newEventId ?? randomUUID;
    this.awsRegion = options.awsRegion ?? 'local';
    this.eventSourceARN =
      options.eventSourceARN ?? `arn:aws:dynamodb:${this.awsRegion}:000000000000:table/local/stream/1970-01-01T00:00:00.000`;
  }

  get(key: Key): Promise<Item | undefined> {
    return this.inner.get(key);
  }

  query(pk: string, options?: QueryOptions): Promise<QueryPage> {
    return this.inner.query(pk, options);
  }

  /**
   * Reads pass through; what a batch read found (or did not find) is remembered until the next
   * write of that key, so the batch write that usually follows (an import: read the old records,
   * write the new) takes its old images from here instead of reading every key a second time.
   * Every write through this store forgets the keys it writes, so a remembered image is never
   * older than the item (all local writes of record items go through this store).
   */
  async batchGet(keys: Key[]): Promise<Item[]> {
    const items = await this.inner.batchGet(keys);
    const found = byKey(items);
    for (const key of keys) {
      if (this.remembered.size >= REMEMBERED_READS) this.remembered.delete(this.remembered.keys().next().value!);
      this.remembered.set(keyId(key), found.get(keyId(key)) ?? null);
    }
    return items;
  }

  increment(key: Key, field: string, by?: number): Promise<number> {
    return this.inner.increment(key, field, by);
  }

  async put(item: Item & Key, condition?: WriteCondition): Promise<Item | undefined> {
    this.remembered.delete(keyId(item));
    const old = await this.inner.put(item, condition);
    await this.emit([this.streamRecord(item, old, item)]);
    return old;
  }

  async delete(key: Key, condition?: WriteCondition): Promise<Item | undefined> {
    this.remembered.delete(keyId(key));
    const old = await this.inner.delete(key, condition);
    await this.emit([this.streamRecord(key, old, undefined)]);
    return old;
  }

  async batchWrite(puts: (Item & Key)[], deletes: Key[]): Promise<void> {
    // The item each key holds after the batch, as the DynamoDB adapter applies it (last put wins).
    const after = new Map<string, { key: Key; item: Item | undefined }>();
    for (const item of puts) after.set(keyId(item), { key: { pk: item.pk, sk: item.sk }, item });
    for (const key of deletes) after.set(keyId(key), { key: { pk: key.pk, sk: key.sk }, item: undefined });
    if (after.size === 0) return this.inner.batchWrite(puts, deletes);

    const keys = [...after.values()].map((a) => a.key);
    const before = await this.oldImages(keys);
    try {
      await this.inner.batchWrite(puts, deletes);
    } catch (err) {
      await this.emitWrittenAfterFailure(after, before, keys, err);
      throw err;
    }
    await this.emit([...after].map(([id, a]) => this.streamRecord(a.key, before.get(id), a.item)));
  }

  /**
   * The items the keys hold before a batch write: remembered from a batch read when possible,
   * read otherwise; keys that can hold no data record (indexes, the event log) are not read.
   */
  private async oldImages(keys: Key[]): Promise<Map<string, Item>> {
    const before = new Map<string, Item>();
    const unknown: Key[] = [];
    for (const key of keys) {
      const id = keyId(key);
      const remembered = this.remembered.get(id);
      this.remembered.delete(id);
      if (remembered !== undefined) {
        if (remembered !== null) before.set(id, remembered);
      } else if (isRecordKey(key)) {
        unknown.push(key);
      }
    }
    if (unknown.length > 0) for (const [id, item] of byKey(await this.inner.batchGet(unknown))) before.set(id, item);
    return before;
  }

  /** After a failed batch: the records of the items that the batch did write, found by reading them back. */
  private async emitWrittenAfterFailure(
    after: Map<string, { key: Key; item: Item | undefined }>,
    before: Map<string, Item>,
    keys: Key[],
    cause: unknown,
  ): Promise<void> {
    let now: Map<string, Item>;
    try {
      now = byKey(await this.inner.batchGet(keys));
    } catch (err) {
      console.error(
        JSON.stringify({ level: 'ERROR', message: 'local stream: cannot tell which items a failed batch wrote', error: String(err), cause: String(cause) }),
      );
      return;
    }
    const written = [...after].filter(([id, a]) => sameItem(now.get(id), a.item));
    await this.emit(written.map(([id, a]) => this.streamRecord(a.key, before.get(id), a.item)));
  }

  private async emit(records: (DynamoDBRecord | undefined)[]): Promise<void> {
    const batch = records.filter((r): r is DynamoDBRecord => r !== undefined);
    if (batch.length > 0) await this.onRecords(batch);
  }

  /** The stream record of one item's change, or undefined when DynamoDB would write none or it concerns no data record. */
  private streamRecord(key: Key, old: Item | undefined, item: Item | undefined): DynamoDBRecord | undefined {
    if (!isRecordItem(old) && !isRecordItem(item)) return undefined;
    if (old === undefined && item === undefined) return undefined;
    if (sameItem(old, item)) return undefined;
    const Keys = toImage({ pk: key.pk, sk: key.sk });
    const OldImage = old === undefined ? undefined : toImage(old);
    const NewImage = item === undefined ? undefined : toImage(item);
    const dynamodb: NonNullable<DynamoDBRecord['dynamodb']> = {
      ApproximateCreationDateTime: Math.floor(this.now() / 1000),
      Keys,
      ...(NewImage ? { NewImage } : {}),
      ...(OldImage ? { OldImage } : {}),
      SequenceNumber: String(++this.sequence),
      SizeBytes: Buffer.byteLength(JSON.stringify({ Keys, NewImage, OldImage }), 'utf8'),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    };
    return {
      eventID: this.newEventId(),
      eventName: old === undefined ? 'INSERT' : item === undefined ? 'REMOVE' : 'MODIFY',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: this.awsRegion,
      dynamodb,
      eventSourceARN: this.eventSourceARN,
    };
  }
}

function toImage(item: Item): { [key: string]: AttributeValue } {
  return marshall(item, MARSHALL) as unknown as { [key: string]: AttributeValue };
}

/** Equal as stored: compared after the same marshalling the adapter applies, map key order ignored. */
function sameItem(a: Item | undefined, b: Item | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return isDeepStrictEqual(asStored(a), asStored(b));
}

function asStored(item: Item): Item {
  return unmarshall(marshall(item, MARSHALL) as Record<string, SdkAttributeValue>);
}

function keyId(key: Key): string {
  return JSON.stringify([key.pk, key.sk]);
}

function byKey(items: Item[]): Map<string, Item> {
  return new Map(items.map((item) => [keyId(item as Item & Key), item]));
}
