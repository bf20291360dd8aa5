import type { Clock } from '../../ports/clock';
import type { HttpClient } from '../../ports/http-client';
import type { BlobStore } from '../../ports/blob-store';
import type { BucketService } from '../graph/buckets/bucket-service';
import type { FileService } from '../graph/buckets/file-service';
import type { RecordService } from '../graph/records/service';
import { callWebservice } from './call-webservice/call';
import { downloadPage, type DownloadProgress } from './download/page';
import type { RetryPolicy } from './fetch-with-retry';
import type { FileProgress } from './import/chunk';
import { importChunk } from './import/chunk';
import { listImportFiles } from './import/list';
import { TransformerSandbox } from './import/sandbox';
import type { JobStore } from './job-store';
import { downloadParams, importParams, type Job } from './model';

export interface JobTaskDeps {
  jobs: JobStore;
  http: HttpClient;
  files: FileService;
  buckets: BucketService;
  blobStore: BlobStore;
  records: RecordService;
  clock: Clock;
  retry?: RetryPolicy;
  /** Records an import chunk handles before handing back (default 25,000). */
  chunkRecords?: number;
  /** Per-batch transformer deadline (default 1 s). */
  transformerDeadlineMs?: number;
}

/** The Payload a state machine's Task sends (see `statemachines/*.asl.json`). */
export interface TaskPayload {
  task: string;
  jobId: string;
  customerCode: string;
  [field: string]: unknown;
}

/**
 * The work behind every Task state of the job state machines. One function per task name; the
 * Lambda handlers (and the local Step Functions runner) call `run` with the Task's Payload.
 */
export class JobTasks {
  constructor(private readonly deps: JobTaskDeps) {}

  run(payload: TaskPayload): Promise<unknown> {
    const task = TASKS[payload.task];
    if (!task) throw new Error(`Unknown job task ${payload.task}`);
    return task(this.deps, payload);
  }
}

type Task = (deps: JobTaskDeps, payload: TaskPayload) => Promise<unknown>;

/** Download pages fetched by one task at most, and the time after which it hands back. */
const PAGES_PER_TASK = 50;
const TASK_BUDGET_MS = 60_000;

const TASKS: Record<string, Task> = {
  'job.start': async (deps, { customerCode, jobId }) => {
    await deps.jobs.update(customerCode, jobId, (job) => ({ ...job, status: 'RUNNING', startedAt: new Date(deps.clock.now()).toISOString() }));
    return {};
  },

  'job.finish': async (deps, payload) => {
    const finishedAt = new Date(deps.clock.now()).toISOString();
    await deps.jobs.update(payload.customerCode, payload.jobId, (job): Job => {
      if (payload.status === 'FAILED') return { ...job, status: 'FAILED', finishedAt, error: errorMessage(payload.error) };
      const result = payload.files ? importResult(payload.files as FileProgress[], (payload.skipped as string[]) ?? []) : (payload.result as Record<string, unknown>);
      return { ...job, status: 'SUCCEEDED', finishedAt, ...(result ? { result } : {}) };
    });
    return {};
  },

  'download.page': async (deps, payload) => {
    const params = downloadParams.parse(payload.params);
    const ctx = { customerCode: payload.customerCode, targetBucketCode: params.targetBucketCode ?? 'incoming', http: deps.http, files: deps.files, now: deps.clock.now, retry: deps.retry };
    // Several pages a task keep a long download far below Step Functions' 25,000 history events.
    const started = deps.clock.now();
    let page = await downloadPage(ctx, params, payload.progress as Partial<DownloadProgress>);
    for (let n = 1; page.hasMore && n < PAGES_PER_TASK && deps.clock.now() - started < TASK_BUDGET_MS; n++) {
      page = await downloadPage(ctx, params, page.progress);
    }
    return page;
  },

  'callWebservice.call': (deps, payload) => callWebservice({ http: deps.http, retry: deps.retry }, payload.params, payload.event),

  'import.list': async (deps, payload) => {
    const params = sourced(payload.params);
    return listImportFiles({ customerCode: payload.customerCode, files: deps.files, buckets: deps.buckets, blobStore: deps.blobStore }, params);
  },

  'import.chunk': async (deps, payload) => {
    const params = sourced(payload.params);
    const expressions = params.transformers.map((t) => t.config.expression);
    const sandbox = expressions.length > 0 ? new TransformerSandbox({ deadlineMs: deps.transformerDeadlineMs }) : undefined;
    try {
      const prepared = sandbox ? await sandbox.prepare(expressions) : undefined;
      return await importChunk(
        {
          customerCode: payload.customerCode,
          files: deps.files,
          buckets: deps.buckets,
          blobStore: deps.blobStore,
          records: deps.records,
          sandbox: prepared,
          chunkRecords: deps.chunkRecords ?? 25_000,
        },
        params,
        String(payload.filename),
        (payload.progress ?? {}) as Partial<FileProgress>,
      );
    } finally {
      await sandbox?.close();
    }
  },
};

function sourced(raw: unknown) {
  const params = importParams.parse(raw);
  if (!params.sourceBucketCode) throw new Error('params.sourceBucketCode: the import has no source bucket');
  return params as typeof params & { sourceBucketCode: string };
}

/** The job's `result` for an import: files per outcome and records per fate. */
function importResult(files: FileProgress[], skipped: string[]): Record<string, number> {
  const count = (outcome: FileProgress['outcome']) => files.filter((f) => f.outcome === outcome).length;
  return {
    filesProcessed: count('processed'),
    filesInvalid: count('invalid'),
    filesSkipped: skipped.length + count('missing'),
    recordsCreated: sum(files, 'created'),
    recordsUpdated: sum(files, 'updated'),
    recordsInvalid: sum(files, 'invalid'),
  };
}

const sum = (files: FileProgress[], field: 'created' | 'updated' | 'invalid') => files.reduce((n, f) => n + (f[field] ?? 0), 0);

/** The message of a Step Functions error (`{Error, Cause}`, Cause being Lambda's JSON or text). */
function errorMessage(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error ?? 'The job failed');
  const { Error: name, Cause: cause } = error as { Error?: string; Cause?: string };
  if (typeof cause === 'string') {
    try {
      const parsed = JSON.parse(cause) as { errorMessage?: string };
      if (parsed.errorMessage) return parsed.errorMessage;
    } catch {
      return cause;
    }
  }
  return name ?? 'The job failed';
}
