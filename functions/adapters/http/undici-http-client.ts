import { Agent, request } from 'undici';
import { HttpTimeoutError, type HttpClient, type HttpRequest, type HttpResponse } from '../../ports/http-client';

/** Default whole-request deadline when the caller gives none. */
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The HttpClient port over undici: one keep-alive agent per client (so calls to the same
 * upstream reuse connections across queries), and a whole-request deadline that aborts
 * the call and reports `HttpTimeoutError`.
 */
export class UndiciHttpClient implements HttpClient {
  private readonly agent: Agent;

  constructor(options: { connections?: number; keepAliveTimeoutMs?: number } = {}) {
    this.agent = new Agent({
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
      connections: options.connections ?? 128,
      pipelining: 1,
    });
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const res = await request(req.url, {
        method: req.method.toUpperCase() as 'GET',
        headers: req.headers,
        body: req.body,
        dispatcher: this.agent,
        signal: controller.signal,
      });
      const body = await res.body.text();
      return { status: res.statusCode, headers: flattenHeaders(res.headers), body };
    } catch (err) {
      if (controller.signal.aborted) throw new HttpTimeoutError(req.url, timeoutMs);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes pooled connections (tests and the local host's shutdown). */
  async close(): Promise<void> {
    await this.agent.close();
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
