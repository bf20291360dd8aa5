/** A bucket as the API answers it (INTERFACE.md "Bucket"; COMPAT.md `dataBucketEntry`). */
export interface Bucket {
  bucketCode: string;
  name: string;
  /** True for `incoming`, `processed`, `invalidated` and `skipped`, which every customer has. */
  isDefault: boolean;
  /** ISO 8601; absent for a default bucket that was never named through PUT. */
  createdAt?: string;
}

/** The body of `PUT /buckets/{code}` (COMPAT.md "Buckets"). */
export interface BucketEntry {
  dataBucketEntry: { name: string };
}

/** A file of a bucket as listed and as answered after a write. */
export interface BucketFile {
  filename: string;
  size: number;
  /** ISO 8601. */
  lastModified: string;
}
