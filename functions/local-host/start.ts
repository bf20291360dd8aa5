import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { DynamoDbStore } from '../adapters/aws/dynamodb-store';
import { UndiciHttpClient } from '../adapters/http/undici-http-client';
import { FilesystemBlobStore } from '../adapters/local/filesystem-blob-store';
import { InProcessEventBus } from '../adapters/local/in-process-event-bus';
import { startLocalDynamo } from '../adapters/local/local-dynamo';
import { LocalStreamStore } from '../adapters/local/local-stream-store';
import { MemoryEventLog } from '../adapters/local/memory-event-log';
import { publishStreamRecords } from '../core/graph/events/publish';
import { LocalStepFunctionsRunner } from '../adapters/local/local-step-functions';
import { jobServices } from '../core/jobs/services';
import type { JobTaskDeps } from '../core/jobs/tasks';
import { stateMachinePaths } from '../state-machines';
import { storeReadScheduler } from '../ports/job-scheduler';
import { startLocalScheduler } from './scheduler';
import { Authorizer } from '../core/tenancy/authorize';
import { saveCustomer, type CustomerCredentials } from '../core/tenancy/credentials';
import type { Deps } from '../deps';
import { randomIds, systemClock } from '../ports/clock';
import { createLocalServer } from './server';

export interface LocalHostOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Data folder (DynamoDB under `<dataDir>/dynamodb`); in memory when absent. */
  dataDir?: string;
  /** Customers whose credentials are registered at start (the bootstrap tenant). */
  customers: CustomerCredentials[];
  tableName?: string;
  /** Job timings (tests shorten retries and chunks). */
  jobTuning?: Partial<Pick<JobTaskDeps, 'retry' | 'chunkRecords' | 'transformerDeadlineMs'>>;
}

export interface LocalHost {
  url: string;
  port: number;
  deps: Deps;
  /** The local Step Functions: `idle()` waits for every running job. */
  jobRunner: LocalStepFunctionsRunner;
  /** The local twin of the EventBridge bus: subscribe to receive every data graph event. */
  eventBus: InProcessEventBus;
  stop(): Promise<void>;
}

/**
 * The embedded local host: dynalite for DynamoDB (the same adapter as in AWS), undici for
 * outbound calls, and one HTTP server serving every route of the route table.
 */
export async function startLocalHost(options: LocalHostOptions): Promise<LocalHost> {
  const tableName = options.tableName ?? 'experience-graph';
  const dynamo = await startLocalDynamo({ tableName, path: options.dataDir ? join(options.dataDir, 'dynamodb') : undefined });
  const httpClient = new UndiciHttpClient();
  // The event wiring of AWS, in process: record writes -> stream records -> stream handler -> bus -> event log.
  const dynamoStore = new DynamoDbStore({ tableName, client: dynamo.client });
  const eventBus = new InProcessEventBus();
  const eventLog = new MemoryEventLog();
  eventBus.subscribeMany((events) => eventLog.recordMany(events));
  // Bucket files under `<dataDir>/files`; without a data folder (tests), a temp folder removed on stop.
  const filesRoot = options.dataDir ? join(options.dataDir, 'files') : await mkdtemp(join(tmpdir(), 'experience-graph-files-'));
  const deps: Deps = {
    store: new LocalStreamStore(dynamoStore, (records) => publishStreamRecords(records, eventBus)),
    eventBus,
    eventLog,
    blobStore: new FilesystemBlobStore({ root: filesRoot }),
    httpClient,
    clock: systemClock,
    ids: randomIds,
    // Set just below: the runner's task handlers are built from these same dependencies.
    jobRunner: undefined as unknown as LocalStepFunctionsRunner,
    jobScheduler: storeReadScheduler,
  };
  // Jobs: the shipped ASL files run in process; their tasks are the functions Lambda runs.
  const jobs = () => jobServices(deps, options.jobTuning);
  const jobRunner = new LocalStepFunctionsRunner({
    definitions: stateMachinePaths(),
    functions: {
      JobWorkerFunctionArn: (payload) => jobs().tasks.run(payload),
      ImportWorkerFunctionArn: (payload) => jobs().tasks.run(payload),
    },
    fastRetries: options.jobTuning?.retry !== undefined,
  });
  deps.jobRunner = jobRunner;
  // Triggers: the dispatcher behind the EventBridge rule, here on the in-process bus.
  eventBus.subscribe(async (event) => {
    await jobs().dispatcher.dispatch(event);
  });
  const scheduler = startLocalScheduler(jobs(), () => deps.clock.now());
  for (const customer of options.customers) {
    await saveCustomer(deps.store, customer);
    // Executions run in this process: any job left unfinished by a previous run ended with it.
    await jobs().jobs.failUnfinished(customer.customerCode, 'The local host stopped while this job ran; start it again (an import resumes with the files it had not finished)');
  }

  const server = createLocalServer(deps, new Authorizer(deps.store, () => deps.clock.now()));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let stopping: Promise<void> | undefined;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    deps,
    eventBus,
    jobRunner,
    stop: () =>
      (stopping ??= (async () => {
        scheduler.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await jobRunner.stop();
        await httpClient.close();
        await dynamo.stop();
        if (!options.dataDir) await rm(filesRoot, { recursive: true, force: true });
      })()),
  };
}
