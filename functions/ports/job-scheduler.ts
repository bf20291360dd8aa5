/**
 * The JobScheduler port: runs job definitions on their cron `schedule`. EventBridge Scheduler
 * in AWS (one schedule per definition, targeting the job-schedule function); locally the host's
 * own timer reads the scheduled definitions from the store, so its adapter has nothing to do.
 */
export interface JobScheduler {
  /** Creates or replaces the schedule of a definition (five-field cron, UTC). */
  upsert(customerCode: string, jobDefinitionCode: string, schedule: string): Promise<void>;
  /** Removes it; a definition without a schedule is not an error. */
  remove(customerCode: string, jobDefinitionCode: string): Promise<void>;
}

/** For hosts whose scheduler reads the definitions itself (the local host). */
export const storeReadScheduler: JobScheduler = {
  upsert: async () => {},
  remove: async () => {},
};
