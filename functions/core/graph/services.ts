import { oncePerDeps } from '../../memo';
import { CollectionRepository } from './collections/repository';
import { CollectionService } from './collections/service';
import { RecordStore } from './records/record-store';
import { RecordService } from './records/service';

export interface GraphServices {
  collections: CollectionService;
  records: RecordService;
}

/** The data graph's use cases over one set of dependencies (built once per host or Lambda environment). */
export const graphServices = oncePerDeps((deps): GraphServices => {
  const repository = new CollectionRepository(deps.store);
  const records = new RecordService(repository, new RecordStore(deps.store), deps.clock);
  return { collections: new CollectionService(repository, records, deps.clock), records };
});
