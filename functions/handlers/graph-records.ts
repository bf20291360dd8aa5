import * as z from 'zod';
import { graphServices } from '../core/graph/services';
import type { Deps } from '../deps';
import type { ApiHandler } from '../http/api-event';
import { NotFoundError } from '../http/errors';
import { customerOf, json, parseBody, pathParam, withErrors } from '../http/respond';
import { GRAPH_PREFIX } from '../routes';
import { lambdaHandler } from './lambda-entry';

const writeBody = z.object({
  dataRecords: z.array(z.unknown()).min(1),
  ifExists: z.enum(['update', 'ignore', 'fail']).optional(),
});

const sort = z.array(z.object({ field: z.string().min(1), order: z.enum(['asc', 'desc']).optional() })).optional();
const queryBody = z
  .object({ filter: z.unknown().optional(), sort, limit: z.number().int().optional(), offset: z.number().int().optional() })
  .default({});
const scrollBody = z
  .object({ filter: z.unknown().optional(), limit: z.number().int().optional(), scrollId: z.string().min(1).optional() })
  .default({});
const patchBody = z.record(z.string(), z.unknown());

/** INTERFACE.md "Data record" and the records paths of "Data graph API". */
export function create(deps: Deps): ApiHandler {
  const { records } = graphServices(deps);
  return withErrors(async (event) => {
    const customerCode = customerOf(event);
    const code = pathParam(event, 'collectionCode');
    const id = () => pathParam(event, 'dataRecordIdentifier');
    switch (event.routeKey.replace(GRAPH_PREFIX, '')) {
      case 'POST /collections/{collectionCode}/records': {
        const body = parseBody(event, writeBody);
        return json(200, { data: await records.write(customerCode, code, body.dataRecords, body.ifExists) });
      }
      case 'GET /collections/{collectionCode}/records/{dataRecordIdentifier}':
        return json(200, await records.get(customerCode, code, id()));
      case 'PATCH /collections/{collectionCode}/records/{dataRecordIdentifier}':
        return json(200, await records.patch(customerCode, code, id(), parseBody(event, patchBody)));
      case 'DELETE /collections/{collectionCode}/records/{dataRecordIdentifier}':
        await records.remove(customerCode, code, id());
        return json(204);
      case 'POST /collections/{collectionCode}/records/_query':
        return json(200, await records.query(customerCode, code, parseBody(event, queryBody)));
      case 'POST /collections/{collectionCode}/records/_scroll':
        return json(200, await records.scroll(customerCode, code, parseBody(event, scrollBody)));
      default:
        throw new NotFoundError(`No route ${event.routeKey}`);
    }
  });
}

export const handler = lambdaHandler(create);
