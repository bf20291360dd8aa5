import type { GraphEvent, GraphEventType } from './event-bus';

export interface ListEventsOptions {
  collectionCode?: string;
  type?: GraphEventType;
  /** 1 to 1,000. */
  limit?: number;
}

/**
 * The EventLog port: the recent events of `GET /events`, for people debugging. In AWS a
 * table-backed log fed by an EventBridge target (`core/graph/events/event-log.ts`); locally a
 * bounded in-memory log fed by the bus, so the write path of the local host stores nothing twice.
 */
export interface EventLogPort {
  recordMany(events: GraphEvent[]): Promise<void>;
  /** The customer's newest events first. */
  list(customerCode: string, options?: ListEventsOptions): Promise<GraphEvent[]>;
}
