import * as z from 'zod';
import type { ApiEvent, ApiHandler, ApiResult } from './api-event';
import { BadRequestError, HttpError, PayloadTooLargeError } from './errors';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** API Gateway refuses payloads above 6 MB; the local host applies the same limit. */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;

/** A JSON answer. `undefined` body gives an empty answer (204). */
export function json(statusCode: number, body?: unknown): ApiResult {
  if (body === undefined) return { statusCode, headers: {}, body: '' };
  return { statusCode, headers: JSON_HEADERS, body: JSON.stringify(body) };
}

/** Maps any thrown value to `{error: {code, message}}`; unknown errors leak nothing. */
export function errorResult(err: unknown, log: (msg: string, err: unknown) => void = defaultLog): ApiResult {
  if (err instanceof HttpError) return json(err.statusCode, { error: { code: err.code, message: err.message } });
  log('unhandled error', err);
  return json(500, { error: { code: 'InternalError', message: 'Internal error' } });
}

function defaultLog(msg: string, err: unknown): void {
  const detail = err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : { value: String(err) };
  console.error(JSON.stringify({ level: 'ERROR', message: msg, error: detail }));
}

/** Wraps a handler so that every failure becomes a clean JSON error. */
export function withErrors(fn: ApiHandler): ApiHandler {
  return async (event) => {
    try {
      return await fn(event);
    } catch (err) {
      return errorResult(err);
    }
  };
}

/** The raw body as text (API Gateway base64-encodes binary bodies). */
export function bodyText(event: ApiEvent): string {
  if (!event.body) return '';
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new PayloadTooLargeError('The request body exceeds 6 MB');
  return text;
}

/** Parses the JSON body and checks it against a schema; a 400 names the first bad field. */
export function parseBody<T extends z.ZodType>(event: ApiEvent, schema: T): z.infer<T> {
  const text = bodyText(event);
  let raw: unknown;
  try {
    raw = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new BadRequestError('The request body is not valid JSON', 'InvalidJson');
  }
  return parseWith(schema, raw, 'body');
}

/** Checks a value against a schema; a 400 lists every problem with its path. */
export function parseWith<T extends z.ZodType>(schema: T, raw: unknown, what: string): z.infer<T> {
  const result = schema.safeParse(raw);
  if (!result.success) throw new BadRequestError(describeIssues(result.error, what), 'ValidationError');
  return result.data;
}

/** Human-readable list of zod issues: `body.config.baseUrl: expected string`. */
export function describeIssues(error: z.ZodError, what: string): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => `${[what, ...issue.path.map(String)].join('.')}: ${issue.message}`)
    .join('; ');
}

/** A path parameter, decoded by API Gateway already; 400 when absent. */
export function pathParam(event: ApiEvent, name: string): string {
  const value = event.pathParameters?.[name];
  if (value === undefined || value === '') throw new BadRequestError(`Missing path parameter ${name}`);
  return value;
}

/** The customer the authorizer resolved for this request. */
export function customerOf(event: ApiEvent): string {
  const customerCode = event.requestContext.authorizer?.lambda?.customerCode;
  if (!customerCode) throw new HttpError(401, 'Unauthorized', 'Missing or invalid credentials');
  return customerCode;
}
