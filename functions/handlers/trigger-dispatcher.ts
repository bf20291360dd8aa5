import type { EventBridgeEvent } from 'aws-lambda';
import { jobServices } from '../core/jobs/services';
import type { GraphEvent } from '../ports/event-bus';

/**
 * The target of the EventBridge rule on the data graph's events: the same dispatcher the local
 * host subscribes to its in-process bus. A failure throws, so EventBridge retries the delivery;
 * the (event, trigger) claim keeps a retry from starting a job twice.
 */
export const handler = async (event: EventBridgeEvent<string, GraphEvent>): Promise<{ started: string[] }> => {
  const { depsFromEnv } = await import('../adapters/aws/deps-from-env');
  return { started: await jobServices(depsFromEnv()).dispatcher.dispatch(event.detail) };
};
