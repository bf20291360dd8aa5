/**
 * Where a bucket's files live in the BlobStore: `<customer>/<bucket>/<filename>`. The customer
 * comes first, so no key of one customer is a prefix of another's, and a listing of one bucket
 * can never return another customer's (or another bucket's) files. Bucket codes and filenames
 * are checked before they get here (`checkBucketCode`, `checkFilename`).
 */
export function bucketPrefix(customerCode: string, bucketCode: string): string {
  if (!/^[^./\\][^/\\]*$/.test(customerCode)) throw new Error(`Customer code ${JSON.stringify(customerCode)} cannot be a blob key segment`);
  return `${customerCode}/${bucketCode}/`;
}

/** The blob key of one file of a bucket. */
export function blobKey(customerCode: string, bucketCode: string, filename: string): string {
  return bucketPrefix(customerCode, bucketCode) + filename;
}

/** The filename of a key listed under `prefix` (a `bucketPrefix`); undefined for anything deeper. */
export function filenameOfKey(key: string, prefix: string): string | undefined {
  if (!key.startsWith(prefix)) return undefined;
  const filename = key.slice(prefix.length);
  return filename === '' || filename.includes('/') ? undefined : filename;
}
