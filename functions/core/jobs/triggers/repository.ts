import type { Store } from '../../../ports/store';
import type { Trigger } from './model';

/** Triggers of a customer: one partition, listed with one Query. */
export class TriggerRepository {
  constructor(private readonly store: Store) {}

  async create(customerCode: string, trigger: Trigger): Promise<boolean> {
    try {
      await this.store.put({ ...key(customerCode, trigger.triggerCode), trigger }, { ifNotExists: true });
      return true;
    } catch (err) {
      if ((err as { isConditionFailed?: boolean }).isConditionFailed) return false;
      throw err;
    }
  }

  async get(customerCode: string, code: string): Promise<Trigger | undefined> {
    return (await this.store.get(key(customerCode, code)))?.trigger as Trigger | undefined;
  }

  async list(customerCode: string): Promise<Trigger[]> {
    const out: Trigger[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.store.query(`TRIGGERS#${customerCode}`, { cursor });
      out.push(...page.items.map((i) => i.trigger as Trigger));
      cursor = page.cursor;
    } while (cursor);
    return out;
  }

  async delete(customerCode: string, code: string): Promise<boolean> {
    return (await this.store.delete(key(customerCode, code))) !== undefined;
  }

  /** Keeps the last error of a trigger, visible in `GET /triggers/{code}`. */
  async recordError(customerCode: string, code: string, lastError: NonNullable<Trigger['lastError']>): Promise<void> {
    const current = await this.get(customerCode, code);
    if (current) await this.store.put({ ...key(customerCode, code), trigger: { ...current, lastError } }, { ifExists: true }).catch(() => undefined);
  }

  /**
   * Claims (event, trigger): true for the first claim only. Delivery is at least once; this
   * makes the trigger's job start effectively once per event.
   */
  async claim(customerCode: string, code: string, eventId: string, expiresAt: number): Promise<boolean> {
    try {
      await this.store.put({ pk: `TRIGGER-RUN#${customerCode}#${code}`, sk: eventId, ttl: expiresAt }, { ifNotExists: true });
      return true;
    } catch (err) {
      if ((err as { isConditionFailed?: boolean }).isConditionFailed) return false;
      throw err;
    }
  }

  async release(customerCode: string, code: string, eventId: string): Promise<void> {
    await this.store.delete({ pk: `TRIGGER-RUN#${customerCode}#${code}`, sk: eventId });
  }
}

const key = (customerCode: string, code: string) => ({ pk: `TRIGGERS#${customerCode}`, sk: `TRIGGER#${code}` });
