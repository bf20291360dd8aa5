import { BadRequestError, ConflictError, NotFoundError } from '../../../http/errors';
import type { Clock } from '../../../ports/clock';
import { compileExpression } from '../../expression';
import { checkParams } from '../params';
import type { Trigger, TriggerDefinition } from './model';
import type { TriggerRepository } from './repository';

/** Trigger creation, reading and removal (INTERFACE.md "Trigger creation"). */
export class TriggerService {
  private readonly listeners: ((customerCode: string) => void)[] = [];

  constructor(
    private readonly repository: TriggerRepository,
    private readonly clock: Clock,
  ) {}

  /** Called after every change, so dispatchers drop what they cached. */
  onChange(listener: (customerCode: string) => void): void {
    this.listeners.push(listener);
  }

  async create(customerCode: string, definition: TriggerDefinition): Promise<Trigger> {
    if (definition.criteria !== undefined) {
      try {
        compileExpression(definition.criteria);
      } catch (err) {
        throw new BadRequestError(`trigger.criteria: ${(err as Error).message}`, 'InvalidCriteria');
      }
    }
    try {
      checkParams(definition.job.jobType, definition.job.params);
    } catch (err) {
      throw new BadRequestError(`trigger.job.${(err as Error).message}`, 'InvalidParams');
    }
    const trigger: Trigger = { ...definition, createdAt: new Date(this.clock.now()).toISOString() };
    if (!(await this.repository.create(customerCode, trigger))) throw new ConflictError(`Trigger ${definition.triggerCode} already exists`);
    this.listeners.forEach((l) => l(customerCode));
    return trigger;
  }

  async get(customerCode: string, code: string): Promise<Trigger> {
    const trigger = await this.repository.get(customerCode, code);
    if (!trigger) throw new NotFoundError(`Trigger ${code} does not exist`);
    return trigger;
  }

  list(customerCode: string): Promise<Trigger[]> {
    return this.repository.list(customerCode);
  }

  async delete(customerCode: string, code: string): Promise<void> {
    if (!(await this.repository.delete(customerCode, code))) throw new NotFoundError(`Trigger ${code} does not exist`);
    this.listeners.forEach((l) => l(customerCode));
  }
}
