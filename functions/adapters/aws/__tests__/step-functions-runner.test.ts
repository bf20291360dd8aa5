import { ExecutionAlreadyExists, InvalidExecutionInput, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { JobExecutionInput, JobType } from '../../../ports/job-runner';
import { StepFunctionsRunner } from '../step-functions-runner';

const client = new SFNClient({ region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });
const sfn = mockClient(client);
beforeEach(() => sfn.reset());

const ARNS: Record<JobType, string> = {
  downloadDataFromWebservice: 'arn:aws:states:eu-west-1:123456789012:stateMachine:download',
  importDataFiles: 'arn:aws:states:eu-west-1:123456789012:stateMachine:import',
  callWebservice: 'arn:aws:states:eu-west-1:123456789012:stateMachine:call',
};
const runner = () => new StepFunctionsRunner({ stateMachineArns: ARNS, client });
const job: JobExecutionInput = {
  jobId: '0190a5b2-1c3d-7e4f-8a9b-0c1d2e3f4a5b',
  customerCode: 'acme',
  jobType: 'importDataFiles',
  params: { bucket: 'in', pattern: '*.csv' },
  progress: {},
  event: null,
};
const inputs = () => sfn.commandCalls(StartExecutionCommand).map((call) => call.args[0].input);
const alreadyExists = () => new ExecutionAlreadyExists({ message: 'Execution Already Exists', $metadata: {} });

describe('StepFunctionsRunner', () => {
  it("starts the job type's state machine, named after the job, with the whole input as JSON", async () => {
    sfn.on(StartExecutionCommand).resolves({ executionArn: 'arn:x', startDate: new Date() });
    await runner().start(job);
    expect(inputs()).toStrictEqual([{ stateMachineArn: ARNS.importDataFiles, name: job.jobId, input: JSON.stringify(job) }]);
    expect(JSON.parse(inputs()[0]!.input!)).toStrictEqual(job);
  });

  it('a second start of the same job (ExecutionAlreadyExists) is a success', async () => {
    sfn.on(StartExecutionCommand).resolvesOnce({ executionArn: 'arn:x', startDate: new Date() }).rejects(alreadyExists());
    await runner().start(job);
    await expect(runner().start(job)).resolves.toBeUndefined();
    expect(inputs()).toHaveLength(2);
  });

  it('ExecutionAlreadyExists recognised by name too (an error from another SDK copy)', async () => {
    sfn.on(StartExecutionCommand).rejects(Object.assign(new Error('exists'), { name: 'ExecutionAlreadyExists' }));
    await expect(runner().start(job)).resolves.toBeUndefined();
  });

  it('other errors are thrown', async () => {
    sfn.on(StartExecutionCommand).rejects(new InvalidExecutionInput({ message: 'too large', $metadata: {} }));
    await expect(runner().start(job)).rejects.toThrow('too large');
  });

  it('refuses a job type without a state machine, calling nothing', async () => {
    await expect(runner().start({ ...job, jobType: 'other' as JobType })).rejects.toThrow(/other/);
    expect(inputs()).toEqual([]);
  });
});
