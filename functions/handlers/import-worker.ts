import { jobServices } from '../core/jobs/services';
import type { TaskPayload } from '../core/jobs/tasks';

const IMPORT_WORKER_TASKS = new Set(['import.list', 'import.chunk']);

/**
 * The Lambda behind `${ImportWorkerFunctionArn}`: listing an import's files and importing one
 * chunk of one file. It carries the transformer sandbox (QuickJS), so it is its own function.
 */
export const handler = async (payload: TaskPayload): Promise<unknown> => {
  if (!IMPORT_WORKER_TASKS.has(payload.task)) throw new Error(`The import worker does not run task ${payload.task}`);
  const { depsFromEnv } = await import('../adapters/aws/deps-from-env');
  return jobServices(depsFromEnv()).tasks.run(payload);
};
