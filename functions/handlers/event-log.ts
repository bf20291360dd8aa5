import type { EventBridgeEvent, EventBridgeHandler } from 'aws-lambda';
import { EventLog } from '../core/graph/events/event-log';
import { graphEventSchema } from '../core/graph/events/event-types';
import { describeIssues } from '../http/respond';
import type { GraphEvent, GraphEventType } from '../ports/event-bus';
import type { Store } from '../ports/store';

/** What the bus rule delivers to this target: the event envelope is the `detail`. */
export type GraphEventBridgeEvent = EventBridgeEvent<GraphEventType, GraphEvent>;

/**
 * The event log's EventBridge target: records each data graph event for `GET
 * /_api/v1/events`. Recording is idempotent, so EventBridge's retries are harmless. A detail
 * that is not a data graph event is logged and dropped (retrying it could not help).
 */
export function create(store: Store): (event: GraphEventBridgeEvent) => Promise<void> {
  const log = new EventLog(store);
  return async (event) => {
    const parsed = graphEventSchema.safeParse(event.detail);
    if (!parsed.success) {
      console.error(
        JSON.stringify({ level: 'ERROR', message: 'not a data graph event; dropped', id: event.id, problems: describeIssues(parsed.error, 'detail') }),
      );
      return;
    }
    await log.record(parsed.data);
  };
}

let ready: Promise<(event: GraphEventBridgeEvent) => Promise<void>> | undefined;

/** The Lambda entry: the store is built from the environment on the first invocation. */
export const handler: EventBridgeHandler<GraphEventType, GraphEvent, void> = async (event) => {
  ready ??= import('../adapters/aws/deps-from-env').then(({ depsFromEnv }) => create(depsFromEnv().store));
  return (await ready)(event);
};
