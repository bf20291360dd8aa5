import type { GraphEvent } from '../../ports/event-bus';
import type { EventLogPort, ListEventsOptions } from '../../ports/event-log';

/**
 * The local host's event log: the newest `keep` events of each customer, in memory. It forgets
 * at a restart (records and files do not: they are in the store and the data folder); it keeps
 * the write path of the local host to the record writes themselves.
 */
export class MemoryEventLog implements EventLogPort {
  private readonly byCustomer = new Map<string, { events: GraphEvent[]; ids: Set<string> }>();

  constructor(private readonly keep = 1_000) {}

  async recordMany(events: GraphEvent[]): Promise<void> {
    for (const event of events) {
      let log = this.byCustomer.get(event.data.customerCode);
      if (!log) this.byCustomer.set(event.data.customerCode, (log = { events: [], ids: new Set() }));
      // A redelivered event is kept once.
      if (log.ids.has(event.id)) continue;
      log.events.push(event);
      log.ids.add(event.id);
      if (log.events.length > this.keep * 1.25) {
        for (const dropped of log.events.splice(0, log.events.length - this.keep)) log.ids.delete(dropped.id);
      }
    }
  }

  async list(customerCode: string, options: ListEventsOptions = {}): Promise<GraphEvent[]> {
    const log = (this.byCustomer.get(customerCode)?.events ?? []).slice(-this.keep);
    const limit = options.limit ?? 100;
    const out: GraphEvent[] = [];
    for (let i = log.length - 1; i >= 0 && out.length < limit; i--) {
      const event = log[i];
      if (options.collectionCode !== undefined && event.data.dataCollectionCode !== options.collectionCode) continue;
      if (options.type !== undefined && event.type !== options.type) continue;
      out.push(event);
    }
    return out;
  }
}
