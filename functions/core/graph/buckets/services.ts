import type { Deps } from '../../../deps';
import { BucketRepository } from './bucket-repository';
import { BucketService } from './bucket-service';
import { FileService } from './file-service';

/** The bucket and file use cases over one set of dependencies. */
export interface BucketServices {
  buckets: BucketService;
  files: FileService;
}

const built = new WeakMap<Deps, BucketServices>();

/** Builds the bucket use cases once per `Deps` (one Lambda environment, or the local host). */
export function bucketServices(deps: Deps): BucketServices {
  let services = built.get(deps);
  if (!services) {
    const buckets = new BucketService(new BucketRepository(deps.store), deps.blobStore, deps.clock);
    services = { buckets, files: new FileService(buckets, deps.blobStore) };
    built.set(deps, services);
  }
  return services;
}
