import { collectionSchema, navigationBody, schemaBody } from '../core/graph/collections/model';
import { graphServices } from '../core/graph/services';
import type { Deps } from '../deps';
import type { ApiHandler } from '../http/api-event';
import { NotFoundError } from '../http/errors';
import { customerOf, json, parseBody, pathParam, withErrors } from '../http/respond';
import { GRAPH_PREFIX } from '../routes';
import { lambdaHandler } from './lambda-entry';

/** INTERFACE.md "Data graph API": collections, schemas and the navigation configuration. */
export function create(deps: Deps): ApiHandler {
  const { collections } = graphServices(deps);
  return withErrors(async (event) => {
    const customerCode = customerOf(event);
    const code = () => pathParam(event, 'collectionCode');
    switch (event.routeKey.replace(GRAPH_PREFIX, '')) {
      case 'POST /collections':
        return json(201, await collections.create(customerCode, parseBody(event, collectionSchema)));
      case 'GET /collections':
        return json(200, { data: await collections.list(customerCode) });
      case 'GET /collections/{collectionCode}':
        return json(200, await collections.get(customerCode, code()));
      case 'DELETE /collections/{collectionCode}':
        await collections.delete(customerCode, code());
        return json(204);
      case 'POST /collections/{collectionCode}/schema':
        return json(200, await collections.setSchema(customerCode, code(), parseBody(event, schemaBody).fields));
      case 'GET /collections/{collectionCode}/schema':
        return json(200, await collections.getSchema(customerCode, code()));
      case 'PUT /applications/data-graph/pages/source/_configureLeftNav':
        return json(200, {
          navigationConfiguration: await collections.setNavigation(customerCode, parseBody(event, navigationBody).navigationConfiguration),
        });
      case 'GET /applications/data-graph/pages/source/_configureLeftNav':
        return json(200, { navigationConfiguration: await collections.getNavigation(customerCode) });
      default:
        throw new NotFoundError(`No route ${event.routeKey}`);
    }
  });
}

export const handler = lambdaHandler(create);
