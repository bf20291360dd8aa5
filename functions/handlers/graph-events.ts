import * as z from 'zod';
import { EVENT_LIST_DEFAULT_LIMIT, EVENT_LIST_MAX_LIMIT } from '../core/graph/events/event-log';
import { GRAPH_EVENT_TYPES } from '../core/graph/events/event-types';
import type { Deps } from '../deps';
import type { ApiHandler } from '../http/api-event';
import { customerOf, json, parseWith, withErrors } from '../http/respond';
import { lambdaHandler } from './lambda-entry';

const listQuery = z.object({
  collectionCode: z.string().min(1).optional(),
  type: z.enum(GRAPH_EVENT_TYPES).optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, `must be an integer from 1 to ${EVENT_LIST_MAX_LIMIT}`)
    .transform(Number)
    .pipe(z.number().int().min(1).max(EVENT_LIST_MAX_LIMIT))
    .optional(),
});

/**
 * `GET /_api/v1/events?collectionCode=&type=&limit=`: the request customer's recent data graph
 * events (INTERFACE.md "Events"), newest first, as `{data: [...]}`; `limit` defaults to 100.
 */
export function create(deps: Deps): ApiHandler {
  return withErrors(async (event) => {
    const customerCode = customerOf(event);
    const query = parseWith(listQuery, event.queryStringParameters ?? {}, 'query');
    const events = await deps.eventLog.list(customerCode, {
      collectionCode: query.collectionCode,
      type: query.type,
      limit: query.limit ?? EVENT_LIST_DEFAULT_LIMIT,
    });
    return json(200, { data: events });
  });
}

export const handler = lambdaHandler(create);
