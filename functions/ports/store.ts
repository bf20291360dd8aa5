/**
 * The Store port: a single-table item store with the operations DynamoDB offers without
 * transactions (dynalite has none). Every item has a string partition key `pk` and sort
 * key `sk`; the domain decides the key design, the adapter only moves items.
 */
export type Item = Record<string, unknown>;

export type Key = {
  pk: string;
  sk: string;
};

/** A condition on a single-item write; a failed one throws `ConditionFailedError`. */
export type WriteCondition =
  | { ifNotExists: true }
  | { ifExists: true }
  | { ifFieldEquals: { field: string; value: unknown } };

export interface QueryOptions {
  /** Only items whose `sk` begins with this. */
  prefix?: string;
  /** Page size; the adapter may return fewer. */
  limit?: number;
  /** Opaque cursor from a previous page. */
  cursor?: string;
  /** Start after this sort key (exclusive); an alternative to `cursor` for resumable reads. */
  startAfter?: string;
  /** Newest (highest `sk`) first. */
  descending?: boolean;
}

export interface QueryPage {
  items: Item[];
  /** Present when more items may follow. */
  cursor?: string;
}

export interface Store {
  get(key: Key): Promise<Item | undefined>;
  /** Writes the whole item; returns the item it replaced, if any. */
  put(item: Item & Key, condition?: WriteCondition): Promise<Item | undefined>;
  /** Removes the item; returns what was removed (undefined when absent). */
  delete(key: Key, condition?: WriteCondition): Promise<Item | undefined>;
  /** Items of one partition in `sk` order. */
  query(pk: string, options?: QueryOptions): Promise<QueryPage>;
  /** Atomically adds `by` (default 1) to a numeric field, creating the item; returns the new value. */
  increment(key: Key, field: string, by?: number): Promise<number>;
  /** Items by key (BatchGetItem in chunks of 100); absent keys are simply missing from the answer. */
  batchGet(keys: Key[]): Promise<Item[]>;
  /** Unconditional puts and deletes in batches of 25, retrying unprocessed items. */
  batchWrite(puts: (Item & Key)[], deletes: Key[]): Promise<void>;
}

/** A write whose condition did not hold. */
export class ConditionFailedError extends Error {
  readonly isConditionFailed = true;
  constructor(message = 'The write condition did not hold') {
    super(message);
    this.name = 'ConditionFailedError';
  }
}

/** Writes an item only if its key is free; false when it was taken. */
export async function putIfAbsent(store: Store, item: Item & Key): Promise<boolean> {
  try {
    await store.put(item, { ifNotExists: true });
    return true;
  } catch (err) {
    if ((err as { isConditionFailed?: boolean }).isConditionFailed) return false;
    throw err;
  }
}

/** Every item of a partition (optionally under a prefix), reading page after page. */
export async function queryAll(store: Store, pk: string, options: Omit<QueryOptions, 'cursor' | 'startAfter'> = {}): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.query(pk, { ...options, cursor });
    items.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return items;
}
