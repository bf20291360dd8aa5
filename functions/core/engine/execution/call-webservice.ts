import type { ExpressionScope } from '../../expression';
import type { HttpClient } from '../../../ports/http-client';
import type { CompiledComponent } from '../config/compile';
import { buildQueryString } from './query-string';

/** A component's web service call that did not give a usable answer; the message becomes its FAILED error. */
export class WebserviceCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebserviceCallError';
  }
}

/**
 * The generic web-service call of INTERFACE.md "Component": the connection's base URL, base
 * path and the component's path; headers, query parameters and body evaluated from their
 * configured kinds; a JSON answer parsed, any other kept as text.
 */
export async function callWebservice(component: CompiledComponent, scope: ExpressionScope, http: HttpClient): Promise<unknown> {
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

  const answer = await http.request({ url, method: component.method, headers, body, timeoutMs: component.timeoutMs });
  if (answer.status < 200 || answer.status > 299) {
    throw new WebserviceCallError(`The web service answered HTTP ${answer.status} to ${component.method} ${url}`);
  }
  return parseAnswer(answer.body);
}

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
