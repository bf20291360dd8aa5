import { jobServices } from '../core/jobs/services';
import type { TaskPayload } from '../core/jobs/tasks';

const JOB_WORKER_TASKS = new Set(['job.start', 'job.finish', 'download.page', 'callWebservice.call']);

/**
 * The Lambda behind `${JobWorkerFunctionArn}` in the state machines: job state changes, download
 * pages and callWebservice calls. A thrown error becomes the Task's error, caught by the ASL.
 */
export const handler = async (payload: TaskPayload): Promise<unknown> => {
  if (!JOB_WORKER_TASKS.has(payload.task)) throw new Error(`The job worker does not run task ${payload.task}`);
  const { depsFromEnv } = await import('../adapters/aws/deps-from-env');
  return jobServices(depsFromEnv()).tasks.run(payload);
};
