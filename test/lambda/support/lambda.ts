import { readFileSync } from 'node:fs';
import { vi } from 'vitest';
import { ADAPTER_ENV, FUNCTIONS, environmentNames, type FunctionName } from '../../../lib/function-wiring';
import type { JobType } from '../../../functions/ports/job-runner';

/**
 * Runs a Lambda handler the way the deployed function runs it: the module's exported
 * `handler`, freshly imported (so `depsFromEnv` builds its adapters again), with exactly the
 * environment variables the stack gives that function (lib/function-wiring.ts), pointed at
 * local twins: dynalite for DynamoDB and s3rver for S3 through the SDK's
 * `AWS_ENDPOINT_URL_<SERVICE>` variables; EventBridge, Step Functions and Scheduler are mocked
 * with aws-sdk-client-mock by the tests.
 */

/** Where the twins are, and the values the stack would put in the variables. */
export interface Twins {
  dynamoEndpoint: string;
  tableName: string;
  s3Endpoint?: string;
  filesBucket?: string;
}

/** The job state machines' ARNs the tests expect StartExecution to receive. */
export const STATE_MACHINE_ARNS: Record<JobType, string> = {
  downloadDataFromWebservice: 'arn:aws:states:eu-west-1:123456789012:stateMachine:DownloadDataFromWebservice',
  importDataFiles: 'arn:aws:states:eu-west-1:123456789012:stateMachine:ImportDataFiles',
  callWebservice: 'arn:aws:states:eu-west-1:123456789012:stateMachine:CallWebservice',
};

export const JOB_SCHEDULES = {
  group: 'ExperienceGraph-Stateless-Jobs-JobScheduleGroup-0A1B2C3D',
  target: 'arn:aws:lambda:eu-west-1:123456789012:function:ExperienceGraph-Stateless-JobScheduleFunction',
  role: 'arn:aws:iam::123456789012:role/ExperienceGraph-Stateless-SchedulerRole',
};

export const EVENT_BUS_NAME = 'ExperienceGraphStatefulEventBus0A1B2C3D';

/** Every variable any function may get: cleared before each handler is loaded. */
const ALL_VARIABLES = [...new Set(Object.values(ADAPTER_ENV).flat())];

/** What the SDK needs to talk to the twins (and nothing real): region, dummy credentials, endpoints. */
function sdkEnvironment(twins: Twins): Record<string, string> {
  return {
    AWS_REGION: 'eu-west-1',
    // s3rver knows only this key pair; dynalite accepts any.
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_ENDPOINT_URL_DYNAMODB: twins.dynamoEndpoint,
    ...(twins.s3Endpoint
      ? {
          AWS_ENDPOINT_URL_S3: twins.s3Endpoint,
          // s3rver does not understand the SDK's default flexible checksums on streamed uploads.
          AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
          AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
        }
      : {}),
  };
}

/**
 * The variables the stack gives the function, with twin values. Built from the same table as
 * the stack (lib/function-wiring.ts), and checked against it: a variable the stack does not
 * give cannot be set here, so a handler that needs more than the stack gives fails its test.
 */
export function functionEnvironment(name: FunctionName, twins: Twins, extra: Record<string, string> = {}): Record<string, string> {
  const needs = FUNCTIONS[name].needs;
  const values: Record<string, string> = {};
  if (needs.table) values.TABLE_NAME = twins.tableName;
  if (needs.filesBucket) {
    if (!twins.filesBucket) throw new Error(`${name} needs the files bucket: start s3rver`);
    values.FILES_BUCKET = twins.filesBucket;
  }
  if (needs.eventBus) values.EVENT_BUS_NAME = EVENT_BUS_NAME;
  if (needs.startsJobs) values.JOB_STATE_MACHINES = JSON.stringify(STATE_MACHINE_ARNS);
  if (needs.schedulesJobs) {
    values.JOB_SCHEDULE_GROUP = JOB_SCHEDULES.group;
    values.JOB_SCHEDULE_TARGET_ARN = JOB_SCHEDULES.target;
    values.JOB_SCHEDULE_ROLE_ARN = JOB_SCHEDULES.role;
  }
  const expected = environmentNames(needs);
  if (JSON.stringify(Object.keys(values).sort()) !== JSON.stringify(expected)) {
    throw new Error(`test environment of ${name} (${Object.keys(values).sort()}) differs from the stack's (${expected})`);
  }
  return { ...sdkEnvironment(twins), ...values, ...extra };
}

const saved = new Map<string, string | undefined>();

function setEnvironment(variables: Record<string, string>): void {
  for (const name of [...ALL_VARIABLES, 'AUTH_SCOPE', ...Object.keys(variables)]) {
    if (!saved.has(name)) saved.set(name, process.env[name]);
    delete process.env[name];
  }
  Object.assign(process.env, variables);
}

/** Puts back the variables the tests changed (call in afterAll). */
export function restoreEnvironment(): void {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  saved.clear();
}

type Module = { handler: (event: any, context: any, callback: any) => unknown };

/** Static imports, so the bundler-like resolution of vitest sees each entry. */
const ENTRIES: Record<FunctionName, () => Promise<Module>> = {
  health: () => import('../../../functions/handlers/health'),
  'sample-data': () => import('../../../functions/handlers/sample-data'),
  'engine-query': () => import('../../../functions/handlers/engine-query'),
  'engine-config': () => import('../../../functions/handlers/engine-config'),
  'graph-collections': () => import('../../../functions/handlers/graph-collections'),
  'graph-records': () => import('../../../functions/handlers/graph-records'),
  'graph-buckets': () => import('../../../functions/handlers/graph-buckets'),
  'graph-events': () => import('../../../functions/handlers/graph-events'),
  'graph-jobs': () => import('../../../functions/handlers/graph-jobs'),
  triggers: () => import('../../../functions/handlers/triggers'),
  authorizer: () => import('../../../functions/handlers/authorizer'),
  'stream-publisher': () => import('../../../functions/handlers/stream-publisher'),
  'event-log': () => import('../../../functions/handlers/event-log'),
  'trigger-dispatcher': () => import('../../../functions/handlers/trigger-dispatcher'),
  'job-worker': () => import('../../../functions/handlers/job-worker'),
  'import-worker': () => import('../../../functions/handlers/import-worker'),
  'job-schedule': () => import('../../../functions/handlers/job-schedule'),
  'job-reaper': () => import('../../../functions/handlers/job-reaper'),
};

/** A cold start: a fresh module instance of the function's entry, with its environment. */
export async function coldStart(name: FunctionName, twins: Twins, extra?: Record<string, string>): Promise<(event: unknown) => Promise<any>> {
  vi.resetModules();
  setEnvironment(functionEnvironment(name, twins, extra));
  const { handler } = await ENTRIES[name]();
  // Lambda passes a context and a callback; async handlers ignore the callback.
  return async (event) => handler(event, { functionName: name, awsRequestId: 'test-request' }, () => undefined);
}

/** An event of `events/`, parsed (a fresh copy each time). */
export function sampleEvent<T = any>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../../../events/${name}.json`, import.meta.url), 'utf8')) as T;
}

/** An HTTP API event of `events/` with another JSON body (the body's length header follows). */
export function withJsonBody<T extends { body?: string; headers?: Record<string, string> }>(event: T, body: unknown): T {
  const text = JSON.stringify(body);
  return { ...event, body: text, headers: { ...event.headers, 'content-length': String(Buffer.byteLength(text)) } };
}

/** Parses a handler's JSON answer. */
export function jsonOf(result: { statusCode: number; body?: string }): any {
  return result.body ? JSON.parse(result.body) : undefined;
}
