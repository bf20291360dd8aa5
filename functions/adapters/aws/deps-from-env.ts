import type { Deps } from '../../deps';
import { randomIds, systemClock } from '../../ports/clock';
import type { JobType } from '../../ports/job-runner';
import { FetchHttpClient } from '../http/fetch-http-client';
import { DynamoDbStore } from './dynamodb-store';
import { EventLog } from '../../core/graph/events/event-log';
import { EventBridgeBus } from './eventbridge-bus';
import { EventBridgeJobScheduler } from './eventbridge-job-scheduler';
import { S3BlobStore } from './s3-blob-store';
import { StepFunctionsRunner } from './step-functions-runner';

let deps: Deps | undefined;

/**
 * The Lambda host's dependencies, built once per execution environment and reused by every
 * warm invocation. Each adapter is made the first time it is used, from the environment
 * variable the CDK stack sets together with the permission it needs: a function that never
 * touches S3 has neither FILES_BUCKET nor S3 rights, and builds no S3 client.
 */
export function depsFromEnv(): Deps {
  if (deps) return deps;
  let store: DynamoDbStore | undefined;
  let blobStore: S3BlobStore | undefined;
  let eventBus: EventBridgeBus | undefined;
  let jobRunner: StepFunctionsRunner | undefined;
  let httpClient: FetchHttpClient | undefined;
  let jobScheduler: EventBridgeJobScheduler | undefined;
  let eventLog: EventLog | undefined;
  deps = {
    get store() {
      return (store ??= new DynamoDbStore({ tableName: requiredEnv('TABLE_NAME', 'the name of the DynamoDB table') }));
    },
    get blobStore() {
      return (blobStore ??= new S3BlobStore({ bucketName: requiredEnv('FILES_BUCKET', 'the name of the S3 bucket of the data graph files') }));
    },
    get eventBus() {
      return (eventBus ??= new EventBridgeBus({ busName: requiredEnv('EVENT_BUS_NAME', 'the name of the EventBridge bus of the data graph events') }));
    },
    get jobRunner() {
      return (jobRunner ??= new StepFunctionsRunner({ stateMachineArns: stateMachineArns() }));
    },
    get eventLog() {
      return (eventLog ??= new EventLog(deps!.store));
    },
    get jobScheduler() {
      return (jobScheduler ??= new EventBridgeJobScheduler({
        groupName: requiredEnv('JOB_SCHEDULE_GROUP', 'the EventBridge Scheduler group of job schedules'),
        targetArn: requiredEnv('JOB_SCHEDULE_TARGET_ARN', 'the ARN of the job-schedule function'),
        roleArn: requiredEnv('JOB_SCHEDULE_ROLE_ARN', 'the role EventBridge Scheduler assumes to invoke it'),
      }));
    },
    get httpClient() {
      return (httpClient ??= new FetchHttpClient());
    },
    clock: systemClock,
    ids: randomIds,
  };
  return deps;
}

/** A setting the stack must give; its absence fails loudly, naming it. */
function requiredEnv(name: string, what: string): string {
  const value = process.env[name]?.trim();
  if (!value) {
    throw new Error(`${name} is not set: the Lambda function needs ${what} in its environment (the CDK stack sets it; locally, use the local host instead of depsFromEnv)`);
  }
  return value;
}

/** `JOB_STATE_MACHINES`: a JSON object of job type -> state machine ARN. */
function stateMachineArns(): Record<JobType, string> {
  const raw = requiredEnv('JOB_STATE_MACHINES', 'the ARNs of the job state machines');
  try {
    return JSON.parse(raw) as Record<JobType, string>;
  } catch {
    throw new Error('JOB_STATE_MACHINES must be a JSON object of job type -> state machine ARN');
  }
}
