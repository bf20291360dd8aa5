import { putIfAbsent, queryAll, type Store } from '../../../ports/store';
import type { JobDefinition } from '../model';

/** Job definitions of a customer, in the data graph's partition; scheduled ones also in a global schedule index. */
export class JobDefinitionRepository {
  constructor(private readonly store: Store) {}

  async create(customerCode: string, definition: JobDefinition): Promise<boolean> {
    if (!(await putIfAbsent(this.store, { ...key(customerCode, definition.jobDefinitionCode), definition }))) return false;
    if (definition.schedule) {
      await this.store.put({ ...scheduleKey(customerCode, definition.jobDefinitionCode), customerCode, jobDefinitionCode: definition.jobDefinitionCode, schedule: definition.schedule });
    }
    return true;
  }

  async get(customerCode: string, code: string): Promise<JobDefinition | undefined> {
    return (await this.store.get(key(customerCode, code)))?.definition as JobDefinition | undefined;
  }

  async list(customerCode: string): Promise<JobDefinition[]> {
    return (await queryAll(this.store, `GRAPH#${customerCode}`, { prefix: 'JOBDEF#' })).map((i) => i.definition as JobDefinition);
  }

  async delete(customerCode: string, code: string): Promise<boolean> {
    const old = await this.store.delete(key(customerCode, code));
    await this.store.delete(scheduleKey(customerCode, code));
    return old !== undefined;
  }

  /** Every scheduled definition of every customer (the local scheduler's list). */
  async schedules(): Promise<{ customerCode: string; jobDefinitionCode: string; schedule: string }[]> {
    return (await queryAll(this.store, 'SCHEDULES')).map((i) => ({
      customerCode: String(i.customerCode),
      jobDefinitionCode: String(i.jobDefinitionCode),
      schedule: String(i.schedule),
    }));
  }
}

const key = (customerCode: string, code: string) => ({ pk: `GRAPH#${customerCode}`, sk: `JOBDEF#${code}` });
const scheduleKey = (customerCode: string, code: string) => ({ pk: 'SCHEDULES', sk: `${customerCode}#${code}` });
