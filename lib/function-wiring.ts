import type { HandlerName } from '../functions/routes';

/**
 * What each Lambda function of the stateless stack needs, as data: the stack creates and grants
 * every function from this table, the cold-start benchmark bundles every entry of it, and the
 * Lambda tests (`test/lambda/`) give each handler exactly the environment the stack gives it.
 * Each function's entry is `functions/handlers/<name>.ts`, exporting `handler`.
 */

/** The handlers that are not HTTP routes: the authorizer and the targets of streams, rules, state machines and schedules. */
export const EVENT_FUNCTIONS = [
  'authorizer',
  'stream-publisher',
  'event-log',
  'trigger-dispatcher',
  'job-worker',
  'import-worker',
  'job-schedule',
  'job-reaper',
] as const;
export type EventFunctionName = (typeof EVENT_FUNCTIONS)[number];

/** Every deployable handler: the route table's plus the event functions. */
export type FunctionName = HandlerName | EventFunctionName;

/** How much of the table or the files bucket a function may touch: data only, never management. */
export type DataAccess = 'read' | 'readWrite';

export interface FunctionNeeds {
  /** The single table (`TABLE_NAME`). */
  readonly table?: DataAccess;
  /** The files bucket of the data graph's buckets (`FILES_BUCKET`). */
  readonly filesBucket?: DataAccess;
  /** Puts events on the data graph bus (`EVENT_BUS_NAME`). */
  readonly eventBus?: true;
  /** Starts job executions (`JOB_STATE_MACHINES`, states:StartExecution). */
  readonly startsJobs?: true;
  /** Creates and deletes job definition schedules (`JOB_SCHEDULE_*`). */
  readonly schedulesJobs?: true;
  /** Calls web services on the internet (no VPC, no IAM: noted for the reader and the README). */
  readonly outboundHttp?: true;
}

export interface FunctionSpec {
  readonly description: string;
  readonly needs: FunctionNeeds;
  /** @default 512 */
  readonly memorySize?: number;
  /** @default 29 (just under the HTTP API's 30 s) */
  readonly timeoutSeconds?: number;
  /** Packages shipped as real files beside the bundle instead of being inlined. */
  readonly nodeModules?: readonly string[];
}

/** The import transformer sandbox loads these from disk (functions/core/jobs/import/sandbox/README.md). */
export const SANDBOX_NODE_MODULES = ['quickjs-emscripten-core', '@jitl/quickjs-singlefile-cjs-release-sync', 'lodash'] as const;


/**
 * Per function, what it touches, read from the handler and the use cases it calls. Table
 * writes are `readWrite` (DynamoDB has no useful write-only grant: conditional writes and
 * UpdateItem read too).
 */
export const FUNCTIONS: Readonly<Record<FunctionName, FunctionSpec>> = {
  // HTTP handlers (functions/routes.ts)
  health: { description: 'GET /health', needs: {} },
  'sample-data': { description: 'The public sample data web service (dataset bundled)', needs: {} },
  'engine-query': { description: 'Engine queries: reads the configuration, calls web services', needs: { table: 'read', outboundHttp: true } },
  'engine-config': { description: 'Engine configuration: connections, components, templates', needs: { table: 'readWrite' } },
  'graph-collections': { description: 'Data graph collections, schemas, navigation', needs: { table: 'readWrite' } },
  // Record events come from the table's stream, not from this function.
  'graph-records': { description: 'Data graph records', needs: { table: 'readWrite' } },
  'graph-buckets': { description: 'Data graph buckets and files', needs: { table: 'readWrite', filesBucket: 'readWrite' } },
  'graph-events': { description: 'The recent data graph events (event log)', needs: { table: 'read' } },
  'graph-jobs': {
    description: 'Job definitions, starting jobs, job state',
    needs: { table: 'readWrite', startsJobs: true, schedulesJobs: true },
  },
  triggers: { description: 'Triggers', needs: { table: 'readWrite' } },

  // Event functions
  authorizer: { description: 'Lambda authorizer', needs: { table: 'read' }, timeoutSeconds: 10 },
  'stream-publisher': { description: 'Table stream -> data graph events on the bus', needs: { eventBus: true }, timeoutSeconds: 60 },
  'event-log': { description: 'Records data graph events for GET /_api/v1/events', needs: { table: 'readWrite' }, timeoutSeconds: 30 },
  'trigger-dispatcher': {
    description: 'Starts the jobs of the triggers an event fires',
    needs: { table: 'readWrite', startsJobs: true },
    timeoutSeconds: 60,
  },
  'job-worker': {
    description: 'Job state changes, download pages, callWebservice calls (state machine tasks)',
    needs: { table: 'readWrite', filesBucket: 'readWrite', outboundHttp: true },
    // Under the 300 s TimeoutSeconds of the longest task using it, so Lambda's own timeout wins.
    timeoutSeconds: 280,
  },
  'import-worker': {
    description: 'Import listing and chunks, with the QuickJS transformer sandbox (state machine tasks)',
    needs: { table: 'readWrite', filesBucket: 'readWrite' },
    // Above 1,769 MB a function has more than one vCPU: the sandbox runs in a worker thread
    // beside the parsing and the batch writes of the main thread.
    memorySize: 2048,
    timeoutSeconds: 900,
    nodeModules: SANDBOX_NODE_MODULES,
  },
  'job-schedule': {
    description: 'Runs a job definition on its schedule (EventBridge Scheduler target)',
    needs: { table: 'readWrite', startsJobs: true },
    timeoutSeconds: 30,
  },
  'job-reaper': { description: 'Marks FAILED the jobs whose execution failed, timed out or was aborted', needs: { table: 'readWrite' }, timeoutSeconds: 30 },
};

/** Environment variable names, one per need (read by functions/adapters/aws/deps-from-env.ts). */
export const ENV = {
  table: 'TABLE_NAME',
  filesBucket: 'FILES_BUCKET',
  eventBus: 'EVENT_BUS_NAME',
  jobs: 'JOB_STATE_MACHINES',
  jobScheduleGroup: 'JOB_SCHEDULE_GROUP',
  jobScheduleTarget: 'JOB_SCHEDULE_TARGET_ARN',
  jobScheduleRole: 'JOB_SCHEDULE_ROLE_ARN',
} as const;

/** The variables each adapter needs. */
export const ADAPTER_ENV: Readonly<Record<'table' | 'filesBucket' | 'jobs' | 'jobSchedules' | 'eventBus', readonly string[]>> = {
  table: [ENV.table],
  filesBucket: [ENV.filesBucket],
  eventBus: [ENV.eventBus],
  jobs: [ENV.jobs],
  jobSchedules: [ENV.jobScheduleGroup, ENV.jobScheduleTarget, ENV.jobScheduleRole],
};

/** The names of the variables (besides NODE_OPTIONS and AUTH_SCOPE) the stack gives a function. */
export function environmentNames(needs: FunctionNeeds): string[] {
  const names: string[] = [];
  if (needs.table) names.push(...ADAPTER_ENV.table);
  if (needs.filesBucket) names.push(...ADAPTER_ENV.filesBucket);
  if (needs.eventBus) names.push(...ADAPTER_ENV.eventBus);
  if (needs.startsJobs) names.push(...ADAPTER_ENV.jobs);
  if (needs.schedulesJobs) names.push(...ADAPTER_ENV.jobSchedules);
  return names.sort();
}
