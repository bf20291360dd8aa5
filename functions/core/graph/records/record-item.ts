import type { Item, Key } from '../../../ports/store';

/** A data record as stored and returned: the schema's fields plus identifier and timestamps. */
export type DataRecord = Record<string, unknown> & {
  dataRecordIdentifier: string;
  /** Epoch ms of creation, set once (INTERFACE.md "Data record"). */
  '@iat': number;
  /** Epoch ms of the last write. */
  '@uat': number;
};

/**
 * How a record lives in the table. A collection's records are spread over `RECORD_SHARDS`
 * partitions by a hash of the identifier, so a large collection has no hot partition and is
 * still read without a scan (one Query per shard, in parallel). The stream handler recognises
 * record items by `kind`; every other item of the table (configuration, indexes, jobs) is
 * ignored by it.
 */
export type RecordItem = Key & {
  kind: 'record';
  customerCode: string;
  collectionCode: string;
  record: DataRecord;
  /** Write counter: every write is conditional on it, so concurrent writers never lose an update. */
  version: number;
};

export const RECORD_SHARDS = 16;

/** FNV-1a: stable across processes and hosts, cheap, well spread for short ids. */
export function shardOf(dataRecordIdentifier: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < dataRecordIdentifier.length; i++) {
    hash ^= dataRecordIdentifier.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % RECORD_SHARDS;
}

export function recordPartition(customerCode: string, collectionCode: string, shard: number): string {
  return `REC#${customerCode}#${collectionCode}#${shard.toString(16).padStart(2, '0')}`;
}

export function recordKey(customerCode: string, collectionCode: string, dataRecordIdentifier: string): Key {
  return { pk: recordPartition(customerCode, collectionCode, shardOf(dataRecordIdentifier)), sk: `R#${dataRecordIdentifier}` };
}

export function toRecordItem(customerCode: string, collectionCode: string, record: DataRecord, version = 1): RecordItem {
  return { ...recordKey(customerCode, collectionCode, record.dataRecordIdentifier), kind: 'record', customerCode, collectionCode, record, version };
}

export function isRecordItem(item: Item | undefined): item is Item & RecordItem {
  return item?.kind === 'record' && typeof item.customerCode === 'string' && typeof item.collectionCode === 'string';
}

/** Whether a key is one of a data record (the stream twin reads no old image for other keys). */
export function isRecordKey(key: Key): boolean {
  return key.pk.startsWith('REC#') && key.sk.startsWith('R#');
}
