/**
 * INTERFACE.md "Events": the envelope of every data graph event.
 */
export type GraphEventType = 'DataRecordCreated' | 'DataRecordUpdated' | 'DataRecordRemoved';

export interface GraphEvent {
  /** UUID; the same change always carries the same id (redeliveries are recognisable). */
  id: string;
  type: GraphEventType;
  /** Empty in INTERFACE.md's examples. */
  source: string;
  /** ISO 8601 UTC. */
  time: string;
  data: {
    customerCode: string;
    dataCollectionCode: string;
    old?: Record<string, unknown>;
    new?: Record<string, unknown>;
  };
}

/** The EventBus port: EventBridge in AWS, an in-process bus locally. */
export interface EventBus {
  publish(events: GraphEvent[]): Promise<void>;
}
