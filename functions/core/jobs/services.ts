import type { Deps } from '../../deps';
import { lazy } from '../../memo';
import { bucketServices } from '../graph/buckets/services';
import { graphServices } from '../graph/services';
import { JobDefinitionRepository } from './definitions/repository';
import { JobStore } from './job-store';
import { JobService } from './service';
import { JobTasks, type JobTaskDeps } from './tasks';
import { TriggerDispatcher } from './triggers/dispatcher';
import { TriggerRepository } from './triggers/repository';
import { TriggerService } from './triggers/service';

export interface JobServices {
  jobs: JobService;
  tasks: JobTasks;
  triggers: TriggerService;
  dispatcher: TriggerDispatcher;
  definitions: JobDefinitionRepository;
}

const built = new WeakMap<Deps, JobServices>();

/** Jobs, their tasks and triggers over one set of dependencies. */
export function jobServices(deps: Deps, tuning: Partial<Pick<JobTaskDeps, 'retry' | 'chunkRecords' | 'transformerDeadlineMs'>> = {}): JobServices {
  let services = built.get(deps);
  if (!services) {
    const store = new JobStore(deps.store);
    const definitions = new JobDefinitionRepository(deps.store);
    const jobs = new JobService(store, definitions, lazy(() => deps.jobRunner), deps.clock, lazy(() => deps.jobScheduler));
    const { buckets, files } = bucketServices(deps);
    const tasks = new JobTasks({
      jobs: store,
      http: lazy(() => deps.httpClient),
      files,
      buckets,
      blobStore: lazy(() => deps.blobStore),
      records: graphServices(deps).records,
      clock: deps.clock,
      ...tuning,
    });
    const triggerRepository = new TriggerRepository(deps.store);
    const triggers = new TriggerService(triggerRepository, deps.clock);
    const dispatcher = new TriggerDispatcher(triggerRepository, jobs, deps.clock);
    triggers.onChange((customerCode) => dispatcher.forget(customerCode));
    services = { jobs, tasks, triggers, dispatcher, definitions };
    built.set(deps, services);
  }
  return services;
}
