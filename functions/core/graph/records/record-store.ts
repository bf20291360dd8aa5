import { createHash } from 'node:crypto';
import type { Item, Key, Store } from '../../../ports/store';
import { isScalar } from './filter';
import {
  RECORD_SHARDS,
  isRecordItem,
  recordKey,
  recordPartition,
  shardOf,
  toRecordItem,
  type DataRecord,
} from './record-item';

/** A stored record with its write counter. */
export interface StoredRecord {
  record: DataRecord;
  version: number;
}

/** Parallel Queries per read of a whole collection (one per shard). */
const SCAN_PAGE = 500;

/**
 * Records in the table, with their equality indexes. Index entries are separate items
 * (`IDX#<customer>#<collection>#<field>#<value>#<shard>`, sort key the identifier), written
 * before the record and removed after it, so an index never misses a record; a stale entry
 * is harmless because every candidate is checked against the whole filter.
 */
export class RecordStore {
  constructor(private readonly store: Store) {}

  async get(customerCode: string, collectionCode: string, id: string): Promise<StoredRecord | undefined> {
    return stored(await this.store.get(recordKey(customerCode, collectionCode, id)));
  }

  async getMany(customerCode: string, collectionCode: string, ids: string[]): Promise<Map<string, StoredRecord>> {
    const items = await this.store.batchGet(ids.map((id) => recordKey(customerCode, collectionCode, id)));
    const found = new Map<string, StoredRecord>();
    for (const item of items) {
      const s = stored(item);
      if (s) found.set(s.record.dataRecordIdentifier, s);
    }
    return found;
  }

  /**
   * Writes a record on the condition that the stored one is still `previous` (or still
   * absent); throws the store's ConditionFailedError otherwise.
   */
  async write(
    customerCode: string,
    collectionCode: string,
    record: DataRecord,
    previous: StoredRecord | undefined,
    indexed: readonly string[],
  ): Promise<void> {
    const before = indexKeys(customerCode, collectionCode, previous?.record, indexed);
    const after = indexKeys(customerCode, collectionCode, record, indexed);
    const added = [...after.entries()].filter(([id]) => !before.has(id)).map(([, key]) => indexItem(key, collectionCode));
    const removed = [...before.entries()].filter(([id]) => !after.has(id)).map(([, key]) => key);
    if (added.length > 0) await this.store.batchWrite(added, []);
    await this.store.put(
      toRecordItem(customerCode, collectionCode, record, (previous?.version ?? 0) + 1),
      previous ? { ifFieldEquals: { field: 'version', value: previous.version } } : { ifNotExists: true },
    );
    if (removed.length > 0) await this.store.batchWrite([], removed);
  }

  /**
   * Writes many records at once with batch writes (the import path): index entries first,
   * then the records (each with its write counter advanced), then stale index entries.
   * Unconditional: an import is the writer of its records while it runs.
   */
  async writeMany(
    customerCode: string,
    collectionCode: string,
    entries: { record: DataRecord; previous: StoredRecord | undefined }[],
    indexed: readonly string[],
  ): Promise<void> {
    const added: (Item & Key)[] = [];
    const removed: Key[] = [];
    for (const { record, previous } of entries) {
      const before = indexKeys(customerCode, collectionCode, previous?.record, indexed);
      const after = indexKeys(customerCode, collectionCode, record, indexed);
      for (const [id, key] of after) if (!before.has(id)) added.push(indexItem(key, collectionCode));
      for (const [id, key] of before) if (!after.has(id)) removed.push(key);
    }
    if (added.length > 0) await this.store.batchWrite(added, []);
    await this.store.batchWrite(
      entries.map(({ record, previous }) => toRecordItem(customerCode, collectionCode, record, (previous?.version ?? 0) + 1)),
      [],
    );
    if (removed.length > 0) await this.store.batchWrite([], removed);
  }

  /** Removes a record and its index entries; the removed record, or undefined when absent. */
  async remove(customerCode: string, collectionCode: string, id: string, indexed: readonly string[]): Promise<DataRecord | undefined> {
    const old = stored(await this.store.delete(recordKey(customerCode, collectionCode, id)));
    if (!old) return undefined;
    const keys = [...indexKeys(customerCode, collectionCode, old.record, indexed).values()];
    if (keys.length > 0) await this.store.batchWrite([], keys);
    return old.record;
  }

  /** One page of one shard, in identifier order, after `startAfter`. */
  async page(customerCode: string, collectionCode: string, shard: number, startAfter: string | undefined, limit: number) {
    const page = await this.store.query(recordPartition(customerCode, collectionCode, shard), {
      limit,
      ...(startAfter !== undefined ? { startAfter } : {}),
    });
    return {
      items: page.items.filter(isRecordItem).map((item) => ({ sk: String(item.sk), record: item.record as DataRecord })),
      done: page.cursor === undefined,
    };
  }

  /** Every record of a collection: all shards read in parallel, each page by page. */
  async readAll(customerCode: string, collectionCode: string): Promise<DataRecord[]> {
    const shards = await Promise.all(
      Array.from({ length: RECORD_SHARDS }, async (_, shard) => {
        const records: DataRecord[] = [];
        let cursor: string | undefined;
        do {
          const page = await this.store.query(recordPartition(customerCode, collectionCode, shard), { cursor, limit: SCAN_PAGE });
          for (const item of page.items) if (isRecordItem(item)) records.push(item.record as DataRecord);
          cursor = page.cursor;
        } while (cursor);
        return records;
      }),
    );
    return shards.flat();
  }

  /** Identifiers whose indexed `field` holds `value` (or contains it, for arrays). */
  async idsByIndex(customerCode: string, collectionCode: string, field: string, value: unknown): Promise<string[]> {
    const shards = await Promise.all(
      Array.from({ length: RECORD_SHARDS }, async (_, shard) => {
        const ids: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await this.store.query(indexPartition(customerCode, collectionCode, field, value, shard), { cursor });
          ids.push(...page.items.map((item) => String(item.sk)));
          cursor = page.cursor;
        } while (cursor);
        return ids;
      }),
    );
    return shards.flat();
  }

  /** Writes the index entries of `field` for existing records (a field newly marked indexed). */
  async backfillIndex(customerCode: string, collectionCode: string, field: string): Promise<void> {
    const records = await this.readAll(customerCode, collectionCode);
    const items = records.flatMap((record) => [...indexKeys(customerCode, collectionCode, record, [field]).values()].map((key) => indexItem(key, collectionCode)));
    if (items.length > 0) await this.store.batchWrite(items, []);
  }
}

function stored(item: Item | undefined): StoredRecord | undefined {
  if (!isRecordItem(item)) return undefined;
  return { record: item.record as DataRecord, version: typeof item.version === 'number' ? item.version : 0 };
}

function indexItem(key: Key, collectionCode: string): Item & Key {
  return { ...key, kind: 'index', collectionCode };
}

/** Index entries of a record: one per indexed field and scalar value (each element of an array). */
function indexKeys(customerCode: string, collectionCode: string, record: DataRecord | undefined, indexed: readonly string[]): Map<string, Key> {
  const keys = new Map<string, Key>();
  if (!record) return keys;
  const shard = shardOf(record.dataRecordIdentifier);
  for (const field of indexed) {
    const raw = record[field];
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      if (!isScalar(value)) continue;
      const key = { pk: indexPartition(customerCode, collectionCode, field, value, shard), sk: record.dataRecordIdentifier };
      keys.set(key.pk, key);
    }
  }
  return keys;
}

function indexPartition(customerCode: string, collectionCode: string, field: string, value: unknown, shard: number): string {
  let valueKey = `${typeof value === 'string' ? 's' : typeof value === 'number' ? 'n' : 'b'}:${String(value)}`;
  if (valueKey.length > 200) valueKey = `h:${createHash('sha256').update(valueKey).digest('hex')}`;
  return `IDX#${customerCode}#${collectionCode}#${field}#${valueKey}#${shard.toString(16).padStart(2, '0')}`;
}
