import type { BlobStore } from '../../../ports/blob-store';
import { blobKey } from '../../graph/buckets/blob-key';
import type { BucketService } from '../../graph/buckets/bucket-service';
import type { FileService } from '../../graph/buckets/file-service';

/** What the import needs of the buckets: list, read, move, and write an error file. */
export interface ImportFiles {
  customerCode: string;
  files: FileService;
  buckets: BucketService;
  blobStore: BlobStore;
}

/** Error files sit beside the file they describe and are never imported themselves. */
export const ERRORS_SUFFIX = '.errors.json';

export async function moveFile(ctx: ImportFiles, from: string, to: string, filename: string): Promise<void> {
  if (from === to) return;
  await ctx.buckets.getBucket(ctx.customerCode, to);
  await ctx.blobStore.move(blobKey(ctx.customerCode, from, filename), blobKey(ctx.customerCode, to, filename));
}

export function readFile(ctx: ImportFiles, bucketCode: string, filename: string) {
  return ctx.blobStore.get(blobKey(ctx.customerCode, bucketCode, filename));
}
