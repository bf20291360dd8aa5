import { jobServices } from '../core/jobs/services';

/** What an EventBridge Scheduler schedule of a job definition sends. */
export interface ScheduledRun {
  customerCode: string;
  jobDefinitionCode: string;
}

/** The target of job definition schedules (EventBridge Scheduler in AWS; the local host has its own timer). */
export const handler = async (run: ScheduledRun): Promise<{ jobId: string }> => {
  const { depsFromEnv } = await import('../adapters/aws/deps-from-env');
  const job = await jobServices(depsFromEnv()).jobs.execute(run.customerCode, run.jobDefinitionCode);
  return { jobId: job.jobId };
};
