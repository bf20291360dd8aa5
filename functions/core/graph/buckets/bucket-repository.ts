import { ConditionFailedError, type Store } from '../../../ports/store';

/** A bucket as stored: only buckets created (or renamed) through `PUT /buckets/{code}` have one. */
export interface BucketRecord {
  bucketCode: string;
  name: string;
  /** ISO 8601, when the bucket was first created. */
  createdAt: string;
}

const partition = (customerCode: string) => `GRAPH#${customerCode}`;
const SORT_PREFIX = 'BUCKET#';
const sortKey = (bucketCode: string) => SORT_PREFIX + bucketCode;

/**
 * Bucket records in the store, in the customer's data graph partition (`GRAPH#<customer>`,
 * sort key `BUCKET#<code>`), so that listing a customer's buckets is one Query.
 */
export class BucketRepository {
  constructor(private readonly store: Store) {}

  async get(customerCode: string, bucketCode: string): Promise<BucketRecord | undefined> {
    const item = await this.store.get({ pk: partition(customerCode), sk: sortKey(bucketCode) });
    return item ? toRecord(item) : undefined;
  }

  async list(customerCode: string): Promise<BucketRecord[]> {
    const records: BucketRecord[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.store.query(partition(customerCode), { prefix: SORT_PREFIX, cursor });
      records.push(...page.items.map(toRecord));
      cursor = page.cursor;
    } while (cursor);
    return records;
  }

  /** Stores a new record; false when one exists already (a conditional write, safe against a race). */
  async create(customerCode: string, record: BucketRecord): Promise<boolean> {
    try {
      await this.store.put({ pk: partition(customerCode), sk: sortKey(record.bucketCode), ...record }, { ifNotExists: true });
      return true;
    } catch (err) {
      if (err instanceof ConditionFailedError) return false;
      throw err;
    }
  }

  /** Replaces a record. */
  async replace(customerCode: string, record: BucketRecord): Promise<void> {
    await this.store.put({ pk: partition(customerCode), sk: sortKey(record.bucketCode), ...record });
  }

  /** Removes a record; false when there was none. */
  async delete(customerCode: string, bucketCode: string): Promise<boolean> {
    return (await this.store.delete({ pk: partition(customerCode), sk: sortKey(bucketCode) })) !== undefined;
  }
}

function toRecord(item: Record<string, unknown>): BucketRecord {
  return { bucketCode: String(item.bucketCode), name: String(item.name), createdAt: String(item.createdAt) };
}
