import type { HttpClient } from '../../../ports/http-client';
import { compileValue } from '../../expression';
import { fetchWithRetry, type RetryPolicy } from '../fetch-with-retry';
import { callWebserviceParams } from '../model';
import { SAFE_LODASH } from '../safe-lodash';

/**
 * A callWebservice job (INTERFACE.md "Trigger": params url, method, headers, body,
 * searchParams). Any string in backticks, at any depth, is an expression over `event` (the
 * event that started the job, when a trigger did). Retries are those of `fetchWithRetry`.
 */
export async function callWebservice(
  ctx: { http: HttpClient; retry?: RetryPolicy },
  rawParams: unknown,
  event: unknown,
): Promise<{ status: number }> {
  const evaluated = compileValue(rawParams).evaluate({ variables: { event: event ?? null }, functions: { _: SAFE_LODASH } });
  const params = callWebserviceParams.parse(evaluated);
  const url = new URL(String(params.url));
  for (const [name, value] of Object.entries(params.searchParams ?? {})) {
    if (value != null) url.searchParams.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(params.headers ?? {})) if (value != null) headers[name.toLowerCase()] = String(value);
  let body: string | undefined;
  if (params.body !== undefined && params.body !== null) {
    body = typeof params.body === 'string' ? params.body : JSON.stringify(params.body);
    if (typeof params.body !== 'string') headers['content-type'] ??= 'application/json';
  }
  const answer = await fetchWithRetry(ctx.http, { url: url.toString(), method: params.method.toUpperCase(), headers, body }, ctx.retry);
  return { status: answer.status };
}
