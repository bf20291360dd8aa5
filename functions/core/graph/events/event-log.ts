import type { GraphEvent, GraphEventType } from '../../../ports/event-bus';
import type { EventLogPort } from '../../../ports/event-log';
import type { Item, Key, Store } from '../../../ports/store';
import { canonicalEvent } from './event-types';

/** Events kept per customer (the newest). */
export const EVENT_LOG_KEEP = 1000;
/** How long an event is kept at most; the table's TTL attribute removes it after that. */
export const EVENT_LOG_RETENTION_SECONDS = 7 * 24 * 60 * 60;
/** The attribute holding the expiry (epoch seconds): the table's DynamoDB TTL attribute. */
export const EVENT_LOG_TTL_ATTRIBUTE = 'ttl';
/** Every how many recorded events of a customer the log is trimmed to `keep`. */
export const EVENT_LOG_TRIM_EVERY = 500;
export const EVENT_LIST_DEFAULT_LIMIT = 100;
export const EVENT_LIST_MAX_LIMIT = 1000;

export interface EventLogOptions {
  /** Events kept per customer (default `EVENT_LOG_KEEP`). */
  keep?: number;
  /** Epoch ms (default `Date.now`). */
  now?: () => number;
  /** Trim every n-th recorded event of a customer (default `EVENT_LOG_TRIM_EVERY`). */
  trimEvery?: number;
}

export interface ListEventsOptions {
  collectionCode?: string;
  type?: GraphEventType;
  /** 1 to `EVENT_LIST_MAX_LIMIT`, default `EVENT_LIST_DEFAULT_LIMIT`. */
  limit?: number;
}

const partition = (customerCode: string) => `EVENTS#${customerCode}`;
/** The per-customer count of recorded events, in its own partition so that it never shows in a listing. */
const counterKey = (customerCode: string): Key => ({ pk: `EVENTS-COUNT#${customerCode}`, sk: 'COUNT' });
const QUERY_PAGE = 250;

/**
 * The recent events of each customer, newest first: what `GET /_api/v1/events` answers, for
 * seeing what the data graph raised (and so what triggers will see). One partition per
 * customer (`EVENTS#<customer>`), sort key `<time>#<id>`, so newest first is one descending
 * Query. Each item expires through DynamoDB TTL after `EVENT_LOG_RETENTION_SECONDS` (dynalite
 * has no TTL, so a listing also skips expired items itself), and the log is trimmed to the
 * newest `keep` events every `trimEvery` recorded events. The items have `kind: 'event'`, so
 * the stream handler ignores their writes (no event about an event).
 */
export class EventLog implements EventLogPort {
  private readonly keep: number;
  private readonly now: () => number;
  private readonly trimEvery: number;

  constructor(
    private readonly store: Store,
    options: EventLogOptions = {},
  ) {
    this.keep = positiveInteger('keep', options.keep ?? EVENT_LOG_KEEP);
    this.trimEvery = positiveInteger('trimEvery', options.trimEvery ?? EVENT_LOG_TRIM_EVERY);
    this.now = options.now ?? Date.now;
  }

  /**
   * Records an event. Idempotent: an event already recorded (the same id and time, as a
   * redelivery carries) is not recorded again.
   */
  async record(event: GraphEvent): Promise<void> {
    const item = this.itemOf(event);
    try {
      await this.store.put(item, { ifNotExists: true });
    } catch (err) {
      if ((err as { isConditionFailed?: boolean } | null)?.isConditionFailed) return;
      throw err;
    }
    await this.counted(event.data.customerCode, 1);
  }

  /**
   * Records many events with batch writes (the local bus hands them over together). A
   * redelivered event rewrites its own item, so the log still holds it once.
   */
  async recordMany(events: GraphEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.store.batchWrite(events.map((event) => this.itemOf(event)), []);
    const perCustomer = new Map<string, number>();
    for (const event of events) perCustomer.set(event.data.customerCode, (perCustomer.get(event.data.customerCode) ?? 0) + 1);
    for (const [customerCode, count] of perCustomer) await this.counted(customerCode, count);
  }

  private itemOf(event: GraphEvent): Item & Key {
    const { customerCode, dataCollectionCode } = event.data;
    return {
      pk: partition(customerCode),
      sk: `${event.time}#${event.id}`,
      kind: 'event',
      customerCode,
      collectionCode: dataCollectionCode,
      type: event.type,
      event,
      [EVENT_LOG_TTL_ATTRIBUTE]: Math.floor(this.now() / 1000) + EVENT_LOG_RETENTION_SECONDS,
    };
  }

  /** Counts recorded events and trims each time the count crosses a multiple of `trimEvery`. */
  private async counted(customerCode: string, count: number): Promise<void> {
    const recorded = await this.store.increment(counterKey(customerCode), 'recorded', count);
    if (Math.floor(recorded / this.trimEvery) !== Math.floor((recorded - count) / this.trimEvery)) await this.trim(customerCode);
  }

  /** The customer's newest events first, optionally of one collection and one type. */
  async list(customerCode: string, options: ListEventsOptions = {}): Promise<GraphEvent[]> {
    const limit = options.limit ?? EVENT_LIST_DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > EVENT_LIST_MAX_LIMIT) {
      throw new RangeError(`limit must be an integer from 1 to ${EVENT_LIST_MAX_LIMIT}, got ${limit}`);
    }
    const filtered = options.collectionCode !== undefined || options.type !== undefined;
    const nowSeconds = Math.floor(this.now() / 1000);
    const events: GraphEvent[] = [];
    let seen = 0;
    let cursor: string | undefined;
    do {
      const page = await this.store.query(partition(customerCode), {
        descending: true,
        cursor,
        limit: filtered ? QUERY_PAGE : Math.min(QUERY_PAGE, limit - events.length),
      });
      for (const item of page.items) {
        // Only the newest `keep` count, whether or not the last trim has run yet.
        if (seen++ >= this.keep) return events;
        const expires = item[EVENT_LOG_TTL_ATTRIBUTE];
        if (typeof expires === 'number' && expires <= nowSeconds) continue;
        if (options.collectionCode !== undefined && item.collectionCode !== options.collectionCode) continue;
        if (options.type !== undefined && item.type !== options.type) continue;
        events.push(canonicalEvent(item.event as GraphEvent));
        if (events.length === limit) return events;
      }
      cursor = page.cursor;
    } while (cursor);
    return events;
  }

  /** Deletes the customer's events beyond the newest `keep`. */
  async trim(customerCode: string): Promise<void> {
    const beyond: Key[] = [];
    let seen = 0;
    let cursor: string | undefined;
    do {
      const page = await this.store.query(partition(customerCode), { descending: true, cursor, limit: QUERY_PAGE });
      for (const item of page.items) {
        if (seen++ >= this.keep) beyond.push({ pk: String(item.pk), sk: String(item.sk) });
      }
      cursor = page.cursor;
    } while (cursor);
    if (beyond.length > 0) await this.store.batchWrite([], beyond);
  }
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}
