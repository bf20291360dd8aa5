/**
 * The JobRunner port: starts a job's state machine. Step Functions (StartExecution) in AWS;
 * aws-local-stepfunctions running the same ASL files (`statemachines/`) in the local host.
 */
export type JobType = 'downloadDataFromWebservice' | 'importDataFiles' | 'callWebservice';

/** What every state machine receives as input. */
export interface JobExecutionInput {
  jobId: string;
  customerCode: string;
  jobType: JobType;
  params: unknown;
  progress: Record<string, never>;
  event: unknown | null;
}

export interface JobRunner {
  /**
   * Starts the job's execution and resolves once it is started (not when it ends), like
   * StartExecution. Starting the same `jobId` twice is not an error and runs it once.
   */
  start(input: JobExecutionInput): Promise<void>;
}

/** A task's handler: receives the Payload of the lambda:invoke Parameters and returns the Lambda's result. */
export type TaskHandler = (payload: any) => Promise<unknown>;
