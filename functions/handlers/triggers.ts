import { triggerBody } from '../core/jobs/triggers/model';
import { jobServices } from '../core/jobs/services';
import type { Deps } from '../deps';
import type { ApiHandler } from '../http/api-event';
import { NotFoundError } from '../http/errors';
import { customerOf, json, parseBody, pathParam, withErrors } from '../http/respond';
import { lambdaHandler } from './lambda-entry';

/** INTERFACE.md "Trigger creation": `POST {base_url}/triggers` with `{trigger}`, and reading and removing them. */
export function create(deps: Deps): ApiHandler {
  const { triggers } = jobServices(deps);
  return withErrors(async (event) => {
    const customerCode = customerOf(event);
    switch (event.routeKey) {
      case 'POST /triggers':
        return json(201, await triggers.create(customerCode, parseBody(event, triggerBody).trigger));
      case 'GET /triggers':
        return json(200, { data: await triggers.list(customerCode) });
      case 'GET /triggers/{triggerCode}':
        return json(200, await triggers.get(customerCode, pathParam(event, 'triggerCode')));
      case 'DELETE /triggers/{triggerCode}':
        await triggers.delete(customerCode, pathParam(event, 'triggerCode'));
        return json(204);
      default:
        throw new NotFoundError(`No route ${event.routeKey}`);
    }
  });
}

export const handler = lambdaHandler(create);
