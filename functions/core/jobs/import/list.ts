import type { ImportParams } from '../model';
import { ERRORS_SUFFIX, moveFile, type ImportFiles } from './files';

/** Files one import job takes at most; the rest wait in the bucket for the next run. */
export const MAX_FILES_PER_IMPORT = 1_000;

/**
 * The files of the source bucket matching `filenamePattern`, in filename order (error files
 * excluded). With `processLastMatchedFileOnly`, every match but the last goes to the skipped
 * bucket (COMPAT.md).
 */
export async function listImportFiles(ctx: ImportFiles, params: ImportParams & { sourceBucketCode: string }): Promise<{ files: string[]; skipped: string[] }> {
  const listed = await ctx.files.listFiles(ctx.customerCode, params.sourceBucketCode, { pattern: params.filenamePattern, limit: MAX_FILES_PER_IMPORT });
  const files = listed.map((f) => f.filename).filter((name) => !name.endsWith(ERRORS_SUFFIX));
  if (!params.processLastMatchedFileOnly || files.length <= 1) return { files, skipped: [] };
  const skipped = files.slice(0, -1);
  for (const filename of skipped) await moveFile(ctx, params.sourceBucketCode, params.skippedBucketCode, filename);
  return { files: files.slice(-1), skipped };
}
