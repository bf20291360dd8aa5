import { lazy, oncePerDeps } from '../../../memo';
import { BucketRepository } from './bucket-repository';
import { BucketService } from './bucket-service';
import { FileService } from './file-service';

/** The bucket and file use cases over one set of dependencies. */
export interface BucketServices {
  buckets: BucketService;
  files: FileService;
}

/** Builds the bucket use cases once per `Deps` (one Lambda environment, or the local host). */
export const bucketServices = oncePerDeps((deps): BucketServices => {
  const blobStore = lazy(() => deps.blobStore);
  const buckets = new BucketService(new BucketRepository(deps.store), blobStore, deps.clock);
  return { buckets, files: new FileService(buckets, blobStore) };
});
