import type { Store } from '../../ports/store';
import type { Job, JobStatus } from './model';

const TERMINAL: ReadonlySet<JobStatus> = new Set(['SUCCEEDED', 'FAILED']);

/**
 * Job state lives in the store, not in a process: one item per job in the customer's jobs
 * partition, keyed by its time-ordered id, so `GET /jobs` is a descending Query.
 */
export class JobStore {
  constructor(private readonly store: Store) {}

  async create(customerCode: string, job: Job): Promise<void> {
    await this.store.put({ ...key(customerCode, job.jobId), job }, { ifNotExists: true });
  }

  async get(customerCode: string, jobId: string): Promise<Job | undefined> {
    return (await this.store.get(key(customerCode, jobId)))?.job as Job | undefined;
  }

  /** Applies a change unless the job already ended (a redelivered task never reopens a job). */
  async update(customerCode: string, jobId: string, change: (job: Job) => Job): Promise<Job | undefined> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const item = await this.store.get(key(customerCode, jobId));
      if (!item) return undefined;
      const job = item.job as Job;
      if (TERMINAL.has(job.status)) return job;
      const next = change(job);
      try {
        await this.store.put(
          { ...key(customerCode, jobId), job: next, revision: Number(item.revision ?? 0) + 1 },
          item.revision === undefined ? { ifFieldEquals: { field: 'revision', value: undefined } } : { ifFieldEquals: { field: 'revision', value: item.revision } },
        );
        return next;
      } catch (err) {
        if (!(err as { isConditionFailed?: boolean }).isConditionFailed) throw err;
      }
    }
    throw new Error(`Job ${jobId} is changing too often to update`);
  }

  /** Newest first, optionally only of one status. */
  async list(customerCode: string, options: { status?: JobStatus; limit: number }): Promise<Job[]> {
    const jobs: Job[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.store.query(`JOBS#${customerCode}`, { prefix: 'JOB#', descending: true, cursor, limit: 100 });
      for (const item of page.items) {
        const job = item.job as Job;
        if (!options.status || job.status === options.status) jobs.push(job);
        if (jobs.length === options.limit) return jobs;
      }
      cursor = page.cursor;
    } while (cursor);
    return jobs;
  }
}

const key = (customerCode: string, jobId: string) => ({ pk: `JOBS#${customerCode}`, sk: `JOB#${jobId}` });
