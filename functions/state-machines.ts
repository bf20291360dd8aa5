import { fileURLToPath } from 'node:url';
import type { JobType } from './ports/job-runner';

/**
 * The job wiring shared by both hosts: the ASL file of each job type (CDK loads it with
 * `DefinitionBody.fromFile`; the local host runs it with aws-local-stepfunctions) and the
 * function behind each placeholder of those files.
 */
export const STATE_MACHINE_FILES: Record<JobType, string> = {
  downloadDataFromWebservice: 'statemachines/download-data-from-webservice.asl.json',
  importDataFiles: 'statemachines/import-data-files.asl.json',
  callWebservice: 'statemachines/call-webservice.asl.json',
};

/** Placeholder of the ASL files -> handler name (`functions/handlers/<name>.ts`). */
export const TASK_FUNCTIONS = {
  JobWorkerFunctionArn: 'job-worker',
  ImportWorkerFunctionArn: 'import-worker',
} as const;

/** Absolute paths of the ASL files, from the repository's root. */
export function stateMachinePaths(): Record<JobType, string> {
  const root = new URL('../', import.meta.url);
  return Object.fromEntries(
    Object.entries(STATE_MACHINE_FILES).map(([type, file]) => [type, fileURLToPath(new URL(file, root))]),
  ) as Record<JobType, string>;
}
