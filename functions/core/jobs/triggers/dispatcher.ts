import type { Clock } from '../../../ports/clock';
import type { GraphEvent } from '../../../ports/event-bus';
import { compileExpression, type CompiledExpression } from '../../expression';
import { SAFE_LODASH } from '../safe-lodash';
import type { JobService } from '../service';
import type { Trigger } from './model';
import type { TriggerRepository } from './repository';

/** How long the list of a customer's triggers is reused between events. */
const CACHE_MS = 1_000;
/** How long an (event, trigger) claim is kept: far beyond any redelivery window. */
const CLAIM_SECONDS = 7 * 24 * 3600;

/**
 * INTERFACE.md "Events" rule 2: a trigger runs its job when the event type equals its
 * `eventType` and its criteria are true over `event`. The same dispatcher runs behind the
 * EventBridge rule in AWS and on the in-process bus locally. A criteria error starts nothing and
 * is kept as the trigger's last error; each (event, trigger) starts at most one job.
 */
export class TriggerDispatcher {
  private readonly cache = new Map<string, { at: number; triggers: { trigger: Trigger; criteria?: CompiledExpression }[] }>();

  constructor(
    private readonly triggers: TriggerRepository,
    private readonly jobs: JobService,
    private readonly clock: Clock,
  ) {}

  forget(customerCode: string): void {
    this.cache.delete(customerCode);
  }

  /** Starts the jobs of the triggers the event fires; answers the job ids. */
  async dispatch(event: GraphEvent): Promise<string[]> {
    const customerCode = event.data.customerCode;
    const started: string[] = [];
    for (const { trigger, criteria } of await this.triggersOf(customerCode)) {
      if (trigger.eventType !== event.type) continue;
      let fires: boolean;
      try {
        fires = criteria ? Boolean(criteria.evaluate({ variables: { event }, functions: { _: SAFE_LODASH } })) : true;
      } catch (err) {
        await this.triggers.recordError(customerCode, trigger.triggerCode, {
          message: (err as Error).message,
          time: new Date(this.clock.now()).toISOString(),
          eventId: event.id,
        });
        continue;
      }
      if (!fires) continue;
      const expiresAt = Math.floor(this.clock.now() / 1000) + CLAIM_SECONDS;
      if (!(await this.triggers.claim(customerCode, trigger.triggerCode, event.id, expiresAt))) continue;
      try {
        const job = await this.jobs.start(customerCode, trigger.job.jobType, trigger.job.params, { triggerCode: trigger.triggerCode, eventId: event.id, event });
        started.push(job.jobId);
      } catch (err) {
        // Let a redelivery of the event try again.
        await this.triggers.release(customerCode, trigger.triggerCode, event.id);
        await this.triggers.recordError(customerCode, trigger.triggerCode, {
          message: `The job could not be started: ${(err as Error).message}`,
          time: new Date(this.clock.now()).toISOString(),
          eventId: event.id,
        });
      }
    }
    return started;
  }

  private async triggersOf(customerCode: string) {
    const now = this.clock.now();
    const hit = this.cache.get(customerCode);
    if (hit && now - hit.at < CACHE_MS) return hit.triggers;
    const triggers = (await this.triggers.list(customerCode)).map((trigger) => ({
      trigger,
      criteria: trigger.criteria ? compileExpression(trigger.criteria) : undefined,
    }));
    this.cache.set(customerCode, { at: now, triggers });
    return triggers;
  }
}
