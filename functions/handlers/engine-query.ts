import * as z from 'zod';
import { engineServices } from '../core/engine/services';
import type { Deps } from '../deps';
import type { ApiHandler } from '../http/api-event';
import { NotFoundError } from '../http/errors';
import { customerOf, json, parseBody, withErrors } from '../http/respond';
import { lambdaHandler } from './lambda-entry';

const context = z.record(z.string(), z.unknown()).default({});

/** INTERFACE.md "POST {engine_url}/experience/components/_query". */
const componentQuery = z.object({
  componentCodes: z.array(z.string().min(1)).min(1),
  context,
  processSubComponents: z.boolean().optional(),
});

/** INTERFACE.md "POST {engine_url}/experience/template/_query". */
const templateQuery = z.object({
  templateCode: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  context,
  processSubComponents: z.boolean().optional(),
});

export function create(deps: Deps): ApiHandler {
  const { queries } = engineServices(deps);
  return withErrors(async (event) => {
    const customerCode = customerOf(event);
    switch (event.routeKey) {
      case 'POST /experience/components/_query':
        return json(200, await queries.queryComponents(customerCode, parseBody(event, componentQuery)));
      case 'POST /experience/template/_query':
        return json(200, await queries.queryTemplate(customerCode, parseBody(event, templateQuery)));
      default:
        throw new NotFoundError(`No route ${event.routeKey}`);
    }
  });
}

export const handler = lambdaHandler(create);
