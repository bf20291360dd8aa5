import type { Readable } from 'node:stream';
import { BadRequestError, NotFoundError, PayloadTooLargeError } from '../../../http/errors';
import type { BlobInfo, BlobStore } from '../../../ports/blob-store';
import { blobKey, bucketPrefix, filenameOfKey } from './blob-key';
import type { BucketFile } from './bucket';
import { checkBucketCode } from './bucket-code';
import type { BucketService } from './bucket-service';
import { checkFilename } from './filename';
import { compileFilenamePattern, literalPrefixOf } from './pattern';

/** Files listed when no limit is given, and the most one call may ask for. */
export const DEFAULT_FILE_LIMIT = 100;
export const MAX_FILE_LIMIT = 1000;
/** Deletes in flight at once while deleting by pattern. */
const DELETE_CONCURRENCY = 8;

/** One file to write: its name and its bytes (or a stream of them). */
export interface FileToWrite {
  filename: string;
  body: Buffer | Readable;
}

/** A downloaded file: its listing entry and its bytes. */
export interface FileContent extends BucketFile {
  bytes: Buffer;
}

/**
 * The file use cases of a bucket. Every call checks the bucket code and the filename before
 * they become a blob key, and that the bucket exists, so an unknown bucket answers 404 and
 * never receives a file.
 */
export class FileService {
  constructor(
    private readonly buckets: BucketService,
    private readonly blobStore: BlobStore,
  ) {}

  /** `GET /buckets/{code}/files?pattern=&limit=`: files in filename order. */
  async listFiles(customerCode: string, bucketCode: string, options: { pattern?: string; limit?: number } = {}): Promise<BucketFile[]> {
    const limit = checkLimit(options.limit ?? DEFAULT_FILE_LIMIT);
    const files: BucketFile[] = [];
    // Without a pattern every key is a match: ask for no more than needed.
    const pageSize = options.pattern === undefined ? limit : MAX_FILE_LIMIT;
    await this.scan(customerCode, bucketCode, options.pattern, pageSize, async (page) => {
      files.push(...page.slice(0, limit - files.length).map(toFile));
      return files.length < limit;
    });
    return files;
  }

  /** `PUT /buckets/{code}/files/{filename}`: writes (or replaces) one file. */
  async putFile(customerCode: string, bucketCode: string, file: FileToWrite): Promise<BucketFile> {
    checkBucketCode(bucketCode);
    checkFilename(file.filename);
    await this.buckets.getBucket(customerCode, bucketCode);
    return toFile({ ...(await this.blobStore.put(blobKey(customerCode, bucketCode, file.filename), file.body)), filename: file.filename });
  }

  /**
   * `POST /buckets/{code}/upload`: writes several files. Every filename is checked before the
   * first is written, so a bad one writes nothing; the same filename twice keeps the last.
   */
  async uploadFiles(customerCode: string, bucketCode: string, files: FileToWrite[]): Promise<BucketFile[]> {
    checkBucketCode(bucketCode);
    if (files.length === 0) throw new BadRequestError('The upload holds no file: send multipart/form-data with file[] parts', 'NoFiles');
    for (const file of files) checkFilename(file.filename);
    await this.buckets.getBucket(customerCode, bucketCode);
    const last = new Map(files.map((file) => [file.filename, file]));
    const written: BucketFile[] = [];
    for (const file of last.values()) {
      const info = await this.blobStore.put(blobKey(customerCode, bucketCode, file.filename), file.body);
      written.push(toFile({ ...info, filename: file.filename }));
    }
    return written;
  }

  /** Download: the file's bytes; 404 when absent, 413 above `maxBytes`. */
  async readFile(customerCode: string, bucketCode: string, filename: string, maxBytes: number): Promise<FileContent> {
    checkBucketCode(bucketCode);
    checkFilename(filename);
    await this.buckets.getBucket(customerCode, bucketCode);
    const key = blobKey(customerCode, bucketCode, filename);
    const info = await this.blobStore.head(key);
    if (!info) throw fileNotFound(bucketCode, filename);
    if (info.size > maxBytes) throw tooLarge(filename, info.size, maxBytes);
    const stream = await this.blobStore.get(key);
    if (!stream) throw fileNotFound(bucketCode, filename);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      // Replaced by a larger file since the head: stop reading.
      if (size > maxBytes) {
        stream.destroy();
        throw tooLarge(filename, size, maxBytes);
      }
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    return { filename, size, lastModified: new Date(info.lastModified).toISOString(), bytes: Buffer.concat(chunks, size) };
  }

  /** `DELETE /buckets/{code}/files/{filename}`: 404 when the file is absent. */
  async deleteFile(customerCode: string, bucketCode: string, filename: string): Promise<void> {
    checkBucketCode(bucketCode);
    checkFilename(filename);
    await this.buckets.getBucket(customerCode, bucketCode);
    if (!(await this.blobStore.delete(blobKey(customerCode, bucketCode, filename)))) throw fileNotFound(bucketCode, filename);
  }

  /** `DELETE /buckets/{code}/files?pattern=`: deletes every matching file; answers how many. */
  async deleteFiles(customerCode: string, bucketCode: string, pattern: string | undefined): Promise<number> {
    if (pattern === undefined) {
      throw new BadRequestError('Deleting files needs a pattern: pattern=* deletes every file of the bucket', 'PatternRequired');
    }
    let deleted = 0;
    await this.scan(customerCode, bucketCode, pattern, MAX_FILE_LIMIT, async (page) => {
      for (let i = 0; i < page.length; i += DELETE_CONCURRENCY) {
        const results = await Promise.all(page.slice(i, i + DELETE_CONCURRENCY).map((file) => this.blobStore.delete(file.key)));
        deleted += results.filter(Boolean).length;
      }
      return true;
    });
    return deleted;
  }

  /**
   * Pages through the bucket's files that match the pattern, in filename order, starting the
   * listing at the pattern's literal prefix; `visit` answers false to stop.
   */
  private async scan(
    customerCode: string,
    bucketCode: string,
    pattern: string | undefined,
    pageSize: number,
    visit: (page: (BlobInfo & { filename: string })[]) => Promise<boolean>,
  ): Promise<void> {
    checkBucketCode(bucketCode);
    const matcher = pattern === undefined ? undefined : compileFilenamePattern(pattern);
    await this.buckets.getBucket(customerCode, bucketCode);
    const prefix = bucketPrefix(customerCode, bucketCode);
    const listPrefix = prefix + (pattern === undefined ? '' : literalPrefixOf(pattern));
    let cursor: string | undefined;
    do {
      const page = await this.blobStore.list(listPrefix, { cursor, limit: pageSize });
      const matches: (BlobInfo & { filename: string })[] = [];
      for (const item of page.items) {
        const filename = filenameOfKey(item.key, prefix);
        if (filename !== undefined && (!matcher || matcher.test(filename))) matches.push({ ...item, filename });
      }
      if (!(await visit(matches))) return;
      cursor = page.cursor;
    } while (cursor);
  }
}

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_FILE_LIMIT) {
    throw new BadRequestError(`limit must be a whole number from 1 to ${MAX_FILE_LIMIT}`, 'InvalidParameter');
  }
  return limit;
}

function toFile(info: BlobInfo & { filename: string }): BucketFile {
  return { filename: info.filename, size: info.size, lastModified: new Date(info.lastModified).toISOString() };
}

function fileNotFound(bucketCode: string, filename: string): NotFoundError {
  return new NotFoundError(`File ${filename} does not exist in bucket ${bucketCode}`);
}

function tooLarge(filename: string, size: number, maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(
    `File ${filename} is ${size} bytes; downloads through the API are limited to ${maxBytes} bytes ` +
      '(the largest body a Lambda response can carry)',
  );
}
