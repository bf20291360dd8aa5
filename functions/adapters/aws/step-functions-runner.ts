import type { SFNClient } from '@aws-sdk/client-sfn';
import type { JobExecutionInput, JobRunner, JobType } from '../../ports/job-runner';
import { lazySdk } from './lazy-sdk';

const sdk = lazySdk(() => import('@aws-sdk/client-sfn'));

export interface StepFunctionsRunnerOptions {
  /** The state machine of each job type (from the CDK stack's outputs / the function's environment). */
  stateMachineArns: Record<JobType, string>;
  client?: SFNClient;
}

/**
 * The JobRunner port over Step Functions: one StartExecution per job, named after the job.
 * Execution names are unique per state machine for 90 days, so starting the same job twice
 * (a redelivered event, a retried request) runs it once: StartExecution answers the second
 * start with the running execution (same input) or ExecutionAlreadyExists, both success here.
 */
export class StepFunctionsRunner implements JobRunner {
  private readonly stateMachineArns: Record<JobType, string>;
  private client: SFNClient | undefined;

  constructor(options: StepFunctionsRunnerOptions) {
    this.stateMachineArns = options.stateMachineArns;
    this.client = options.client;
  }

  async start(input: JobExecutionInput): Promise<void> {
    const stateMachineArn = this.stateMachineArns[input.jobType];
    if (!stateMachineArn) throw new Error(`No state machine for job type ${String(input.jobType)}`);
    try {
      const { SFNClient: Client, StartExecutionCommand } = await sdk();
      this.client ??= new Client({});
      await this.client.send(new StartExecutionCommand({ stateMachineArn, name: input.jobId, input: JSON.stringify(input) }));
    } catch (err) {
      if ((err as { name?: unknown } | null)?.name === 'ExecutionAlreadyExists') return;
      throw err;
    }
  }
}
