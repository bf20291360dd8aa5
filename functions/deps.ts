import type { BlobStore } from './ports/blob-store';
import type { Clock, Ids } from './ports/clock';
import type { EventBus } from './ports/event-bus';
import type { EventLogPort } from './ports/event-log';
import type { HttpClient } from './ports/http-client';
import type { JobRunner } from './ports/job-runner';
import type { JobScheduler } from './ports/job-scheduler';
import type { Store } from './ports/store';

/**
 * Everything a handler needs from the outside world, passed in (never imported), so that
 * the same handler runs in Lambda (AWS adapters) and in the local host (local adapters).
 */
export interface Deps {
  store: Store;
  /** Files of the data graph's buckets. */
  blobStore: BlobStore;
  /** Where record events go once the store's change stream has produced them. */
  eventBus: EventBus;
  /** The recent events of `GET /events`. */
  eventLog: EventLogPort;
  httpClient: HttpClient;
  /** Starts job executions: Step Functions in AWS, the same ASL run in-process locally. */
  jobRunner: JobRunner;
  /** Runs job definitions on their schedule: EventBridge Scheduler in AWS, a timer locally. */
  jobScheduler: JobScheduler;
  clock: Clock;
  ids: Ids;
}
