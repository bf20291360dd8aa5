import { BadRequestError, ConflictError, NotFoundError } from '../../http/errors';
import type { Clock } from '../../ports/clock';
import type { JobRunner, JobType } from '../../ports/job-runner';
import type { JobScheduler } from '../../ports/job-scheduler';
import { checkSchedule } from './definitions/cron';
import type { JobDefinitionRepository } from './definitions/repository';
import { newJobId } from './job-id';
import type { JobStore } from './job-store';
import type { Job, JobDefinition, JobOrigin, JobStatus } from './model';
import { jobDefinitionSchema } from './model';
import { checkParams } from './params';
import type * as z from 'zod';

export const DEFAULT_JOB_LIST_LIMIT = 50;
export const MAX_JOB_LIST_LIMIT = 500;

/**
 * INTERFACE.md "Job, job definition": starting jobs (by type, by definition, from a trigger or
 * a schedule), reading their state, and job definitions. A job is recorded QUEUED before its
 * run starts, so it is visible at once; the run moves it to RUNNING and then SUCCEEDED or FAILED.
 */
export class JobService {
  constructor(
    private readonly jobs: JobStore,
    private readonly definitions: JobDefinitionRepository,
    private readonly runner: JobRunner,
    private readonly clock: Clock,
    private readonly scheduler: JobScheduler,
  ) {}

  async start(customerCode: string, jobType: JobType, params: unknown, origin: JobOrigin = {}): Promise<Job> {
    const checked = checkParams(jobType, params);
    const now = this.clock.now();
    const job: Job = {
      jobId: newJobId(now),
      jobType,
      ...(origin.jobDefinitionCode ? { jobDefinitionCode: origin.jobDefinitionCode } : {}),
      ...(origin.triggerCode ? { triggerCode: origin.triggerCode } : {}),
      ...(origin.eventId ? { eventId: origin.eventId } : {}),
      status: 'QUEUED',
      createdAt: new Date(now).toISOString(),
      params: checked,
    };
    await this.jobs.create(customerCode, job);
    try {
      await this.runner.start({ jobId: job.jobId, customerCode, jobType, params: checked, progress: {}, event: origin.event ?? null });
    } catch (err) {
      await this.jobs.update(customerCode, job.jobId, (j) => ({
        ...j,
        status: 'FAILED',
        finishedAt: new Date(this.clock.now()).toISOString(),
        error: `The job could not be started: ${(err as Error).message}`,
      }));
      throw err;
    }
    return job;
  }

  async get(customerCode: string, jobId: string): Promise<Job> {
    const job = await this.jobs.get(customerCode, jobId);
    if (!job) throw new NotFoundError(`Job ${jobId} does not exist`);
    return job;
  }

  list(customerCode: string, options: { status?: JobStatus; limit?: number }): Promise<Job[]> {
    const limit = options.limit ?? DEFAULT_JOB_LIST_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_JOB_LIST_LIMIT) throw new BadRequestError(`limit: must be an integer from 1 to ${MAX_JOB_LIST_LIMIT}`);
    return this.jobs.list(customerCode, { status: options.status, limit });
  }

  async define(customerCode: string, body: z.infer<typeof jobDefinitionSchema>): Promise<JobDefinition> {
    checkParams(body.jobType, body.params);
    const definition: JobDefinition = {
      ...body,
      ...(body.schedule !== undefined ? { schedule: checkSchedule(body.schedule) } : {}),
      createdAt: new Date(this.clock.now()).toISOString(),
    };
    if (!(await this.definitions.create(customerCode, definition))) throw new ConflictError(`Job definition ${body.jobDefinitionCode} already exists`);
    if (definition.schedule) await this.scheduler.upsert(customerCode, definition.jobDefinitionCode, definition.schedule);
    return definition;
  }

  async getDefinition(customerCode: string, code: string): Promise<JobDefinition> {
    const definition = await this.definitions.get(customerCode, code);
    if (!definition) throw new NotFoundError(`Job definition ${code} does not exist`);
    return definition;
  }

  listDefinitions(customerCode: string): Promise<JobDefinition[]> {
    return this.definitions.list(customerCode);
  }

  async deleteDefinition(customerCode: string, code: string): Promise<void> {
    if (!(await this.definitions.delete(customerCode, code))) throw new NotFoundError(`Job definition ${code} does not exist`);
    await this.scheduler.remove(customerCode, code);
  }

  /**
   * Marks the customer's unfinished jobs FAILED: for a host whose executions do not outlive it
   * (the local host after a restart; in AWS the job reaper does this from Step Functions' own
   * status events). Answers how many jobs it ended.
   */
  async failUnfinished(customerCode: string, reason: string): Promise<number> {
    let ended = 0;
    for (const status of ['RUNNING', 'QUEUED'] as const) {
      for (const job of await this.jobs.list(customerCode, { status, limit: MAX_JOB_LIST_LIMIT })) {
        await this.jobs.update(customerCode, job.jobId, (j) => ({ ...j, status: 'FAILED', finishedAt: new Date(this.clock.now()).toISOString(), error: reason }));
        ended++;
      }
    }
    return ended;
  }

  /** Runs a definition; `overrides` replace params of the same name. */
  async execute(customerCode: string, code: string, overrides: Record<string, unknown> = {}): Promise<Job> {
    const definition = await this.getDefinition(customerCode, code);
    return this.start(customerCode, definition.jobType, { ...definition.params, ...overrides }, { jobDefinitionCode: code });
  }
}
