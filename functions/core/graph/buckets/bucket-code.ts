import { BadRequestError } from '../../../http/errors';

/**
 * The buckets of INTERFACE.md "Bucket" that every customer has without creating them: the
 * download job writes to `incoming`, the import job moves files to the other three.
 */
export const DEFAULT_BUCKET_CODES = ['incoming', 'processed', 'invalidated', 'skipped'] as const;
export type DefaultBucketCode = (typeof DEFAULT_BUCKET_CODES)[number];

/** A bucket code: a letter or digit, then up to 63 letters, digits, `_` or `-`. It is one segment of a blob key. */
export const BUCKET_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** True for the four buckets that exist for every customer. */
export function isDefaultBucket(bucketCode: string): bucketCode is DefaultBucketCode {
  return (DEFAULT_BUCKET_CODES as readonly string[]).includes(bucketCode);
}

/** The code itself, or a 400 `InvalidBucketCode` (checked before the code reaches a blob key). */
export function checkBucketCode(bucketCode: string): string {
  if (!BUCKET_CODE_PATTERN.test(bucketCode)) {
    throw new BadRequestError(
      `Invalid bucket code ${JSON.stringify(bucketCode)}: use 1 to 64 letters, digits, _ or -, starting with a letter or digit`,
      'InvalidBucketCode',
    );
  }
  return bucketCode;
}
