import type { Readable } from 'node:stream';

/**
 * The BlobStore port: files of the data graph's buckets. S3 in AWS, a folder under
 * `DATA_DIR` locally. Keys are `/`-separated; the domain builds them
 * (`<customer>/<bucket>/<filename>`), the adapters only store bytes.
 */
export interface BlobInfo {
  key: string;
  size: number;
  /** Epoch milliseconds. */
  lastModified: number;
}

export interface BlobPage {
  items: BlobInfo[];
  /** Present when more keys may follow. */
  cursor?: string;
}

export interface BlobStore {
  /** Writes (or replaces) a blob from bytes or a stream; a partial write is never visible. */
  put(key: string, body: Buffer | Readable): Promise<BlobInfo>;
  /** The blob's bytes as a stream, or undefined when absent. */
  get(key: string): Promise<Readable | undefined>;
  head(key: string): Promise<BlobInfo | undefined>;
  /** Keys beginning with `prefix`, in key order. */
  list(prefix: string, options?: { cursor?: string; limit?: number }): Promise<BlobPage>;
  /** Removes; false when it was absent. */
  delete(key: string): Promise<boolean>;
  /** Moves a blob to another key (copy then delete where the service has no rename). */
  move(fromKey: string, toKey: string): Promise<void>;
}
