import * as z from 'zod';
import type { GraphEvent, GraphEventType } from '../../../ports/event-bus';

/** INTERFACE.md "Events": the event types of the data graph, as data. */
export const GRAPH_EVENT_TYPES = ['DataRecordCreated', 'DataRecordUpdated', 'DataRecordRemoved'] as const satisfies readonly GraphEventType[];

/** Whether a value (a query parameter, say) names one of the event types. */
export function isGraphEventType(value: unknown): value is GraphEventType {
  return typeof value === 'string' && (GRAPH_EVENT_TYPES as readonly string[]).includes(value);
}

const recordSchema = z.record(z.string(), z.unknown());

/** The envelope of INTERFACE.md "Events", for checking events that arrive from outside (an EventBridge target). */
export const graphEventSchema = z.object({
  id: z.uuid(),
  type: z.enum(GRAPH_EVENT_TYPES),
  source: z.string(),
  time: z.iso.datetime(),
  data: z.object({
    customerCode: z.string().min(1),
    dataCollectionCode: z.string().min(1),
    old: recordSchema.optional(),
    new: recordSchema.optional(),
  }),
}) satisfies z.ZodType<GraphEvent>;

/** The envelope with its keys in the interface's order (a store may return map keys in any order). */
export function canonicalEvent(event: GraphEvent): GraphEvent {
  const data: GraphEvent['data'] = { customerCode: event.data.customerCode, dataCollectionCode: event.data.dataCollectionCode };
  if (event.data.old !== undefined) data.old = event.data.old;
  if (event.data.new !== undefined) data.new = event.data.new;
  return { id: event.id, type: event.type, source: event.source, time: event.time, data };
}
