import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Authorizer } from '../core/tenancy/authorize';
import type { Deps } from '../deps';
import type { ApiHandler, ApiResult, AuthorizerContext } from '../http/api-event';
import { MAX_BODY_BYTES } from '../http/respond';
import { HANDLER_FACTORIES } from '../handlers/registry';
import type { HandlerName } from '../routes';
import { Router } from './router';
import { toApiEvent } from './to-api-event';

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization,content-type,x-customer-code',
  'access-control-allow-methods': 'GET,PUT,POST,PATCH,DELETE,OPTIONS',
};

/**
 * The local host's HTTP front: what API Gateway does in AWS. It routes from the route table,
 * runs the same authorizer decision, builds the same payload 2.0 event and calls the same
 * handler functions that Lambda runs.
 */
export function createLocalServer(deps: Deps, authorizer: Authorizer): Server {
  const router = new Router();
  const handlers = new Map<HandlerName, ApiHandler>();
  const handlerFor = (name: HandlerName) => {
    let handler = handlers.get(name);
    if (!handler) {
      handler = HANDLER_FACTORIES[name](deps);
      handlers.set(name, handler);
    }
    return handler;
  };

  return createServer((req, res) => {
    serve(req, res).catch((err) => {
      console.error(JSON.stringify({ level: 'ERROR', message: 'local host failure', error: String(err) }));
      if (!res.headersSent) send(res, errorResult(500, 'InternalError', 'Internal error'));
      else res.destroy();
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    if (method === 'OPTIONS') return send(res, { statusCode: 204, headers: {}, body: '' });

    const match = router.match(method, url.pathname);
    if (!match.found) {
      const result = errorResult(match.status, match.status === 404 ? 'NotFound' : 'MethodNotAllowed', `No route ${method} ${url.pathname}`);
      if (match.allow) result.headers = { ...result.headers, allow: match.allow.join(', ') };
      return send(res, result);
    }

    const body = await readBody(req);
    if (!body) return send(res, errorResult(413, 'PayloadTooLarge', 'The request body exceeds 6 MB'));

    let context: AuthorizerContext | undefined;
    if (match.route.auth !== 'public') {
      const decision = await authorizer.authorize(
        { authorization: header(req, 'authorization'), customerCode: header(req, 'x-customer-code') },
        match.route.auth,
      );
      if (!decision.allowed) {
        return send(res, errorResult(decision.status, decision.status === 401 ? 'Unauthorized' : 'Forbidden', decision.message));
      }
      context = { customerCode: decision.customerCode, scope: decision.scope };
    }

    const now = deps.clock.now();
    const event = toApiEvent(
      { method, path: url.pathname, rawQueryString: url.search.slice(1), headers: req.headers, body, sourceIp: req.socket.remoteAddress ?? '' },
      match.routeKey,
      match.pathParameters,
      context,
      deps.ids.uuid(),
      now,
    );
    send(res, await handlerFor(match.route.handler)(event));
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The body, or undefined when it exceeds API Gateway's 6 MB limit. An oversize body is still
 * read to its end (and dropped), so the connection stays usable for the next request.
 */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  return size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks);
}

function errorResult(statusCode: number, code: string, message: string): ApiResult & { headers: Record<string, string> } {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ error: { code, message } }),
  };
}

function send(res: ServerResponse, result: ApiResult): void {
  const headers: Record<string, string> = { ...CORS_HEADERS };
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = String(value);
  const body = result.body === undefined ? Buffer.alloc(0) : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  headers['content-length'] = String(body.length);
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(body);
}
