import { ConflictError, NotFoundError } from '../../../http/errors';
import type { BlobStore } from '../../../ports/blob-store';
import type { Clock } from '../../../ports/clock';
import { bucketPrefix } from './blob-key';
import type { Bucket, BucketEntry } from './bucket';
import { checkBucketCode, DEFAULT_BUCKET_CODES, isDefaultBucket } from './bucket-code';
import type { BucketRecord, BucketRepository } from './bucket-repository';

/**
 * The bucket use cases. The four default buckets exist for every customer without a record;
 * other buckets exist once created. PUT is create-or-rename: it never touches the files.
 */
export class BucketService {
  constructor(
    private readonly repository: BucketRepository,
    private readonly blobStore: BlobStore,
    private readonly clock: Clock,
  ) {}

  /**
   * `PUT /buckets/{code}`: creates the bucket (`created: true`, 201) or sets the name of one
   * that exists (200), default buckets included.
   */
  async createBucket(customerCode: string, bucketCode: string, entry: BucketEntry): Promise<{ bucket: Bucket; created: boolean }> {
    checkBucketCode(bucketCode);
    const name = entry.dataBucketEntry.name;
    const existing = await this.repository.get(customerCode, bucketCode);
    if (!existing) {
      const record: BucketRecord = { bucketCode, name, createdAt: new Date(this.clock.now()).toISOString() };
      if (await this.repository.create(customerCode, record)) return { bucket: toBucket(record), created: !isDefaultBucket(bucketCode) };
      // Created by a concurrent request meanwhile: rename it like any existing bucket.
      return this.createBucket(customerCode, bucketCode, entry);
    }
    const record = { ...existing, name };
    await this.repository.replace(customerCode, record);
    return { bucket: toBucket(record), created: false };
  }

  /** `GET /buckets`: the default buckets first, in their fixed order, then the others by code. */
  async listBuckets(customerCode: string): Promise<Bucket[]> {
    const records = new Map((await this.repository.list(customerCode)).map((r) => [r.bucketCode, r]));
    const defaults = DEFAULT_BUCKET_CODES.map((code) => toBucket(records.get(code) ?? defaultRecord(code)));
    const others = [...records.values()].filter((r) => !isDefaultBucket(r.bucketCode)).map(toBucket);
    return [...defaults, ...others];
  }

  /** `GET /buckets/{code}`; 404 for a bucket that does not exist. */
  async getBucket(customerCode: string, bucketCode: string): Promise<Bucket> {
    checkBucketCode(bucketCode);
    const record = await this.repository.get(customerCode, bucketCode);
    if (record) return toBucket(record);
    if (isDefaultBucket(bucketCode)) return toBucket(defaultRecord(bucketCode));
    throw notFound(bucketCode);
  }

  /**
   * `DELETE /buckets/{code}`: 404 when it does not exist; 409 for a default bucket (they always
   * exist) and for a bucket that still holds files, so that no file is ever lost by deleting a
   * bucket.
   */
  async deleteBucket(customerCode: string, bucketCode: string): Promise<void> {
    await this.getBucket(customerCode, bucketCode);
    if (isDefaultBucket(bucketCode)) {
      throw new ConflictError(`Bucket ${bucketCode} is a default bucket and cannot be deleted`);
    }
    const files = await this.blobStore.list(bucketPrefix(customerCode, bucketCode), { limit: 1 });
    if (files.items.length > 0) {
      throw new ConflictError(`Bucket ${bucketCode} still holds files: delete them first (DELETE /buckets/${bucketCode}/files?pattern=*)`);
    }
    if (!(await this.repository.delete(customerCode, bucketCode))) throw notFound(bucketCode);
  }
}

function defaultRecord(bucketCode: string): Omit<BucketRecord, 'createdAt'> & { createdAt?: string } {
  return { bucketCode, name: bucketCode };
}

function toBucket(record: Omit<BucketRecord, 'createdAt'> & { createdAt?: string }): Bucket {
  const bucket: Bucket = { bucketCode: record.bucketCode, name: record.name, isDefault: isDefaultBucket(record.bucketCode) };
  if (record.createdAt !== undefined) bucket.createdAt = record.createdAt;
  return bucket;
}

function notFound(bucketCode: string): NotFoundError {
  return new NotFoundError(`Bucket ${bucketCode} does not exist`);
}
