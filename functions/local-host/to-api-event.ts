import type { IncomingHttpHeaders } from 'node:http';
import type { ApiEvent, AuthorizerContext } from '../http/api-event';

export interface RawRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  rawQueryString: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  sourceIp: string;
}

const TEXT_TYPES = /^(application\/(json|x-ndjson|jsonl|x-www-form-urlencoded|xml)|text\/)/i;

/**
 * The API Gateway HTTP API (payload 2.0) event for a request, as Lambda would receive it:
 * lower-case headers with repeated values joined by commas, query parameters likewise,
 * decoded path parameters, and a base64 body for anything that is not text.
 */
export function toApiEvent(
  request: RawRequest,
  routeKey: string,
  pathParameters: Record<string, string>,
  authorizer: AuthorizerContext | undefined,
  requestId: string,
  now: number,
): ApiEvent {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && name !== 'cookie') headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const queryStringParameters: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(request.rawQueryString)) {
    queryStringParameters[name] = name in queryStringParameters ? `${queryStringParameters[name]},${value}` : value;
  }
  const isText = request.body.length === 0 || TEXT_TYPES.test(headers['content-type'] ?? 'application/json');
  const cookies = request.headers.cookie?.split(';').map((c) => c.trim());
  return {
    version: '2.0',
    routeKey,
    rawPath: request.path,
    rawQueryString: request.rawQueryString,
    cookies,
    headers,
    queryStringParameters: Object.keys(queryStringParameters).length > 0 ? queryStringParameters : undefined,
    pathParameters: Object.keys(pathParameters).length > 0 ? pathParameters : undefined,
    body: request.body.length === 0 ? undefined : request.body.toString(isText ? 'utf8' : 'base64'),
    isBase64Encoded: !isText,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: request.method,
        path: request.path,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: new Date(now).toISOString(),
      timeEpoch: now,
      authorizer: authorizer ? { lambda: authorizer } : undefined,
    },
  } as ApiEvent;
}
