import * as z from 'zod';
import type { JobType } from '../../ports/job-runner';

/**
 * INTERFACE.md "Job, job definition" and the download and import bodies of "Data graph API".
 * Every job type's params are checked when a job is defined or started; a 400 names the bad
 * param. Expressions are checked to parse at that time too.
 */
export const JOB_TYPES = ['downloadDataFromWebservice', 'importDataFiles', 'callWebservice'] as const satisfies readonly JobType[];

const bucketCode = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'must be a bucket code');

const request = z.object({
  url: z.string().min(1),
  method: z.string().default('GET'),
  queryParameters: z.record(z.string(), z.unknown()).default({}),
  headers: z.record(z.string(), z.unknown()).optional(),
});

export const downloadParams = z.object({
  targetBucketCode: bucketCode.optional(),
  targetFilename: z.string().min(1).max(200),
  isPaged: z.boolean().default(false),
  isJson: z.boolean().default(true),
  hasMore: z.string().optional(),
  initialRequest: request,
  nextPageRequest: request.optional(),
  responsePrep: z.string().optional(),
  /** Stops a `hasMore` that never turns false (default 10,000 pages). */
  maxPages: z.number().int().min(1).max(100_000).default(10_000),
});

export const importParams = z.object({
  /** The bucket of the path (`/buckets/{bucket}/files/_import`); required for other ways of starting. */
  sourceBucketCode: bucketCode.optional(),
  skippedBucketCode: bucketCode.default('skipped'),
  processedBucketCode: bucketCode.default('processed'),
  invalidBucketCode: bucketCode.default('invalidated'),
  filenamePattern: z.string().min(1).max(1024),
  skipInvalidRecords: z.boolean().default(false),
  recordIdentifierField: z.string().min(1).optional(),
  transformers: z
    .array(z.object({ type: z.literal('javascript'), config: z.object({ expression: z.string().min(1).max(100_000) }) }))
    .default([]),
  collectionCode: z.string().min(1),
  parseOptions: z.object({ format: z.enum(['JSONL', 'JSON', 'CSV']).default('JSONL') }).default({ format: 'JSONL' }),
  /** COMPAT.md: the product's "process last matched file only" option; the other matches go to the skipped bucket. */
  processLastMatchedFileOnly: z.boolean().default(false),
});

export const callWebserviceParams = z.object({
  url: z.string().min(1),
  method: z.string().default('POST'),
  headers: z.record(z.string(), z.unknown()).optional(),
  body: z.unknown().optional(),
  searchParams: z.record(z.string(), z.unknown()).optional(),
});

export const PARAMS_SCHEMAS = {
  downloadDataFromWebservice: downloadParams,
  importDataFiles: importParams,
  callWebservice: callWebserviceParams,
} as const;

export type DownloadParams = z.infer<typeof downloadParams>;
export type ImportParams = z.infer<typeof importParams>;
export type CallWebserviceParams = z.infer<typeof callWebserviceParams>;

export type JobStatus = 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED';

/** The job record of `GET /jobs/{jobId}`. */
export interface Job {
  jobId: string;
  jobType: JobType;
  jobDefinitionCode?: string;
  triggerCode?: string;
  eventId?: string;
  status: JobStatus;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  params: unknown;
  result?: Record<string, unknown>;
  error?: string;
}

/** Where a job came from. */
export interface JobOrigin {
  jobDefinitionCode?: string;
  triggerCode?: string;
  eventId?: string;
  /** The event that started it (a trigger's job); `event` in callWebservice expressions. */
  event?: unknown;
}

export const jobDefinitionSchema = z.object({
  jobDefinitionCode: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/, 'must be 1-128 letters, digits, _ . : -'),
  name: z.string().max(256).optional(),
  description: z.string().max(4096).optional(),
  jobType: z.enum(JOB_TYPES),
  params: z.record(z.string(), z.unknown()),
  /** A five-field cron expression (minute hour day-of-month month day-of-week), UTC. */
  schedule: z.string().max(128).optional(),
});

export type JobDefinition = z.infer<typeof jobDefinitionSchema> & { createdAt: string };
