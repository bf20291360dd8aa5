import type { S3Client } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { BlobInfo, BlobPage, BlobStore } from '../../ports/blob-store';
import { lazySdk } from './lazy-sdk';

const s3Sdk = lazySdk(() => import('@aws-sdk/client-s3'));
const storageSdk = lazySdk(() => import('@aws-sdk/lib-storage'));

/** S3's maximum page of ListObjectsV2, and its default. */
const MAX_PAGE = 1000;

/**
 * The BlobStore port over one S3 bucket. Streams are uploaded with `lib-storage`'s `Upload`
 * (multipart above 5 MB, so memory stays bounded whatever the size); listing pages are
 * ListObjectsV2 pages and the cursor is S3's continuation token; move is CopyObject then
 * DeleteObject (a single CopyObject is limited to 5 GB).
 */
export class S3BlobStore implements BlobStore {
  readonly bucketName: string;
  private client: S3Client | undefined;

  constructor(options: { bucketName: string; client?: S3Client }) {
    this.bucketName = options.bucketName;
    this.client = options.client;
  }

  /** The SDK's commands and this store's client, both made on first use. */
  private async s3() {
    const sdk = await s3Sdk();
    this.client ??= new sdk.S3Client({});
    return { ...sdk, client: this.client };
  }

  async put(key: string, body: Buffer | Readable): Promise<BlobInfo> {
    if (Buffer.isBuffer(body)) {
      const s3 = await this.s3();
      await s3.client.send(new s3.PutObjectCommand({ Bucket: this.bucketName, Key: key, Body: body, ContentLength: body.length }));
    } else {
      const { Upload } = await storageSdk();
      await new Upload({ client: (await this.s3()).client, params: { Bucket: this.bucketName, Key: key, Body: body } }).done();
    }
    // PutObject does not answer the size and date that a listing will show; ask for them.
    const info = await this.head(key);
    if (!info) throw new Error(`S3 object ${key} is missing right after it was written`);
    return info;
  }

  async get(key: string): Promise<Readable | undefined> {
    try {
      const s3 = await this.s3();
      const answer = await s3.client.send(new s3.GetObjectCommand({ Bucket: this.bucketName, Key: key }));
      const body = answer.Body;
      if (body instanceof Readable) return body;
      if (!body) return Readable.from([]);
      // Not Node's runtime (a web stream): adapt it.
      return Readable.fromWeb(body.transformToWebStream() as WebReadableStream);
    } catch (err) {
      if (isAbsent(err)) return undefined;
      throw err;
    }
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    try {
      const s3 = await this.s3();
      const answer = await s3.client.send(new s3.HeadObjectCommand({ Bucket: this.bucketName, Key: key }));
      return { key, size: answer.ContentLength ?? 0, lastModified: answer.LastModified?.getTime() ?? 0 };
    } catch (err) {
      if (isAbsent(err)) return undefined;
      throw err;
    }
  }

  async list(prefix: string, options: { cursor?: string; limit?: number } = {}): Promise<BlobPage> {
    const limit = Math.min(Math.max(Math.floor(options.limit ?? MAX_PAGE), 1), MAX_PAGE);
    const s3 = await this.s3();
    const answer = await s3.client.send(new s3.ListObjectsV2Command({ Bucket: this.bucketName, Prefix: prefix, MaxKeys: limit, ContinuationToken: options.cursor }),
    );
    const items = (answer.Contents ?? []).map((o) => ({
      key: o.Key ?? '',
      size: o.Size ?? 0,
      lastModified: o.LastModified?.getTime() ?? 0,
    }));
    return answer.IsTruncated && answer.NextContinuationToken ? { items, cursor: answer.NextContinuationToken } : { items };
  }

  async delete(key: string): Promise<boolean> {
    // DeleteObject succeeds whether or not the key existed; the port wants to know.
    if (!(await this.head(key))) return false;
    const s3 = await this.s3();
    await s3.client.send(new s3.DeleteObjectCommand({ Bucket: this.bucketName, Key: key }));
    return true;
  }

  async move(fromKey: string, toKey: string): Promise<void> {
    if (fromKey === toKey) {
      if (!(await this.head(fromKey))) throw new Error(`Cannot move ${fromKey}: no such blob`);
      return;
    }
    try {
      const s3 = await this.s3();
      await s3.client.send(new s3.CopyObjectCommand({ Bucket: this.bucketName, Key: toKey, CopySource: `${encodeURIComponent(this.bucketName)}/${encodeKey(fromKey)}` }),
      );
    } catch (err) {
      if (isAbsent(err)) throw new Error(`Cannot move ${fromKey}: no such blob`);
      throw err;
    }
    const s3 = await this.s3();
    await s3.client.send(new s3.DeleteObjectCommand({ Bucket: this.bucketName, Key: fromKey }));
  }
}

/** CopySource is URL-encoded; `/` stays a separator. */
function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

/** A missing key (not a missing bucket, which is a configuration error and must surface). */
function isAbsent(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  if (name === 'NoSuchKey' || name === 'NotFound') return true;
  if (name === 'NoSuchBucket') return false;
  return (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 404;
}
