import type { ExpressionScope } from '../../expression';
import { HttpTimeoutError, retryAfterMs, type HttpClient, type HttpResponse } from '../../../ports/http-client';
import type { CompiledComponent } from '../config/compile';
import { buildQueryString } from './query-string';
import type { CircuitBreakers } from './upstream/circuit-breaker';
import type { ResponseCache } from './upstream/response-cache';

/** A component's web service call that did not give a usable answer; the message becomes its FAILED error. */
export class WebserviceCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebserviceCallError';
  }
}

/** What protects upstreams and reuses answers across the queries of one host instance. */
export interface Upstream {
  http: HttpClient;
  customerCode: string;
  breakers: CircuitBreakers;
  cache: ResponseCache;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

export interface WebserviceAnswer {
  response: unknown;
  /** Set when the response came from the cache (COMPAT.md `cacheInfo.cachedTS`). */
  cachedTS?: number;
}

/** Statuses worth another try when a connection configures retries. */
const RETRYABLE = [429, 502, 503, 504];

/**
 * The generic web-service call of INTERFACE.md "Component": the connection's base URL, base
 * path and the component's path; headers, query parameters and body evaluated from their
 * configured kinds; a JSON answer parsed, any other kept as text. Around it: the response
 * cache, the connection's circuit breaker, and retries that honour Retry-After, all within the
 * connection's one deadline.
 */
export async function callWebservice(component: CompiledComponent, scope: ExpressionScope, upstream: Upstream): Promise<WebserviceAnswer> {
  const path = component.paths.map((p) => stringOf(p.evaluate(scope))).join('');
  const query = buildQueryString(
    component.queryParams.map((p) => [p.name, p.value.evaluate(scope)]),
    component.queryParamsOptions,
  );
  let url = joinUrl(component.baseUrl, path);
  if (query) url += (url.includes('?') ? '&' : '?') + query;

  const headers: Record<string, string> = {};
  for (const header of component.headers) {
    const value = header.value.evaluate(scope);
    if (value != null) headers[header.name.toLowerCase()] = stringOf(value);
  }
  let body: string | undefined;
  if (component.body && component.method !== 'GET' && component.method !== 'HEAD') {
    const value = component.body.evaluate(scope);
    if (value !== undefined) {
      body = typeof value === 'string' ? value : JSON.stringify(value);
      headers['content-type'] ??= 'application/json';
    }
  }
  headers['accept'] ??= 'application/json';

  const cacheKey =
    component.cacheTtlSeconds && component.method === 'GET'
      ? JSON.stringify([upstream.customerCode, component.componentCode, url, headers])
      : undefined;
  const hit = cacheKey ? upstream.cache.get(cacheKey) : undefined;
  if (hit) return { response: hit.response, cachedTS: hit.cachedAt };

  const answer = await guardedRequest(component, upstream, { url, method: component.method, headers, body });
  const response = parseAnswer(answer.body);
  if (cacheKey) upstream.cache.set(cacheKey, response, component.cacheTtlSeconds!);
  return { response };
}

async function guardedRequest(
  component: CompiledComponent,
  upstream: Upstream,
  request: { url: string; method: string; headers: Record<string, string>; body?: string },
): Promise<HttpResponse> {
  const breakerKey = `${component.connectionCode}|${upstream.customerCode}`;
  const breaker = component.circuitBreaker;
  const refusal = breaker ? upstream.breakers.refusal(breakerKey, breaker) : undefined;
  if (refusal) throw new WebserviceCallError(refusal);
  const failed = () => breaker && upstream.breakers.failure(breakerKey, breaker);
  const deadline = upstream.now() + component.timeoutMs;
  const attempts = component.retry?.attempts ?? 1;
  const retryable = component.retry?.statuses ?? RETRYABLE;

  for (let attempt = 1; ; attempt++) {
    const remaining = deadline - upstream.now();
    let answer: HttpResponse;
    try {
      answer = await upstream.http.request({ ...request, timeoutMs: Math.max(1, remaining) });
    } catch (err) {
      if (err instanceof HttpTimeoutError) {
        failed();
        throw new WebserviceCallError(`The web service did not answer within ${component.timeoutMs} ms (${request.url})`);
      }
      if (attempt < attempts && (await waited(upstream, backoff(attempt), deadline))) continue;
      failed();
      throw new WebserviceCallError(`The call to ${request.method} ${request.url} failed: ${(err as Error).message}`);
    }
    if (answer.status >= 200 && answer.status <= 299) {
      if (breaker) upstream.breakers.success(breakerKey);
      return answer;
    }
    if (attempt < attempts && retryable.includes(answer.status)) {
      const wait = retryAfterMs(answer.headers['retry-after']) ?? backoff(attempt);
      if (await waited(upstream, wait, deadline)) continue;
    }
    if (answer.status >= 500 || answer.status === 429) failed();
    else if (breaker) upstream.breakers.success(breakerKey);
    throw new WebserviceCallError(`The web service answered HTTP ${answer.status} to ${request.method} ${request.url}`);
  }
}

/** Sleeps when the wait ends before the deadline (leaving time for the call); false otherwise. */
async function waited(upstream: Upstream, ms: number, deadline: number): Promise<boolean> {
  if (upstream.now() + ms >= deadline) return false;
  await upstream.sleep(ms);
  return true;
}

const backoff = (attempt: number) => 100 * 2 ** (attempt - 1);


function parseAnswer(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function joinUrl(base: string, path: string): string {
  if (!path) return base;
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

function stringOf(value: unknown): string {
  if (value == null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
