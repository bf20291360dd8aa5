import { putIfAbsent, queryAll, type Store } from '../../../ports/store';
import type { Trigger } from './model';

/** Triggers of a customer: one partition, listed with one Query. */
export class TriggerRepository {
  constructor(private readonly store: Store) {}

  create(customerCode: string, trigger: Trigger): Promise<boolean> {
    return putIfAbsent(this.store, { ...key(customerCode, trigger.triggerCode), trigger });
  }

  async get(customerCode: string, code: string): Promise<Trigger | undefined> {
    return (await this.store.get(key(customerCode, code)))?.trigger as Trigger | undefined;
  }

  async list(customerCode: string): Promise<Trigger[]> {
    return (await queryAll(this.store, `TRIGGERS#${customerCode}`)).map((i) => i.trigger as Trigger);
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
  claim(customerCode: string, code: string, eventId: string, expiresAt: number): Promise<boolean> {
    return putIfAbsent(this.store, { pk: `TRIGGER-RUN#${customerCode}#${code}`, sk: eventId, ttl: expiresAt });
  }

  async release(customerCode: string, code: string, eventId: string): Promise<void> {
    await this.store.delete({ pk: `TRIGGER-RUN#${customerCode}#${code}`, sk: eventId });
  }
}

const key = (customerCode: string, code: string) => ({ pk: `TRIGGERS#${customerCode}`, sk: `TRIGGER#${code}` });
