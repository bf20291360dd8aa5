import type { Deps } from '../../deps';
import { CollectionRepository } from './collections/repository';
import { CollectionService } from './collections/service';
import { RecordStore } from './records/record-store';
import { RecordService } from './records/service';

export interface GraphServices {
  collections: CollectionService;
  records: RecordService;
}

const built = new WeakMap<Deps, GraphServices>();

/** The data graph's use cases over one set of dependencies (built once per host or Lambda environment). */
export function graphServices(deps: Deps): GraphServices {
  let services = built.get(deps);
  if (!services) {
    const repository = new CollectionRepository(deps.store);
    const records = new RecordService(repository, new RecordStore(deps.store), deps.clock);
    services = { collections: new CollectionService(repository, records, deps.clock), records };
    built.set(deps, services);
  }
  return services;
}
