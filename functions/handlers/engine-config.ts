import * as z from 'zod';
import { engineConfigSchema, KINDS, type Kind } from '../core/engine/config/model';
import { engineServices } from '../core/engine/services';
import type { Deps } from '../deps';
import type { ApiEvent, ApiHandler } from '../http/api-event';
import { NotFoundError } from '../http/errors';
import { customerOf, json, parseBody, pathParam, withErrors } from '../http/respond';
import { lambdaHandler } from './lambda-entry';

const importBody = z.object({ engineConfig: engineConfigSchema });

/** `/experience/connections/...` -> connection, and so on. */
const KIND_OF_SEGMENT: Record<string, Kind> = { connections: 'connection', components: 'component', templates: 'template' };

/**
 * The console forms as a REST API: PUT creates or replaces (200 with the stored object), GET
 * reads or lists, DELETE answers 204 (409 while in use); plus COMPAT.md's whole-configuration
 * export (`GET /api/raw-engine-config`) and import (`PUT /engine-config`).
 */
export function create(deps: Deps): ApiHandler {
  const { config } = engineServices(deps);
  return withErrors(async (event) => {
    const customerCode = customerOf(event);
    if (event.routeKey === 'GET /api/raw-engine-config') return json(200, { engineConfig: await config.export(customerCode) });
    if (event.routeKey === 'PUT /engine-config') {
      return json(200, { engineConfig: await config.import(customerCode, parseBody(event, importBody).engineConfig) });
    }
    const [method, path] = event.routeKey.split(' ');
    const kind = KIND_OF_SEGMENT[path.split('/')[2]];
    if (!kind) throw new NotFoundError(`No route ${event.routeKey}`);
    const isItem = path.endsWith('}');
    if (method === 'GET' && !isItem) return json(200, { [KINDS[kind].plural]: await config.list(customerCode, kind) });
    const code = pathParam(event, KINDS[kind].codeField);
    if (method === 'GET') return json(200, await config.get(customerCode, kind, code));
    if (method === 'PUT') return json(200, await config.put(customerCode, kind, code, parseObject(event, kind)));
    if (method === 'DELETE') {
      await config.delete(customerCode, kind, code);
      return json(204);
    }
    throw new NotFoundError(`No route ${event.routeKey}`);
  });
}

function parseObject(event: ApiEvent, kind: Kind) {
  return parseBody(event, KINDS[kind].schema as z.ZodType) as never;
}

export const handler = lambdaHandler(create);
