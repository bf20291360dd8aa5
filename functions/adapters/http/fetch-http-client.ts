import { HttpTimeoutError, type HttpClient, type HttpRequest, type HttpResponse } from '../../ports/http-client';

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The HttpClient port over Node's built-in `fetch`, for Lambda. Node's fetch is undici inside
 * the runtime, with its own keep-alive pool, so a warm function reuses connections without
 * shipping undici in its bundle (half a megabyte of every cold start). The local host keeps
 * `UndiciHttpClient`, whose `request()` is leaner per call, for the engine's latency figures.
 */
export class FetchHttpClient implements HttpClient {
  async request(req: HttpRequest): Promise<HttpResponse> {
    const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const res = await fetch(req.url, {
        method: req.method.toUpperCase(),
        headers: req.headers,
        body: req.body,
        signal: controller.signal,
        redirect: 'manual',
      });
      const body = await res.text();
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      return { status: res.status, headers, body };
    } catch (err) {
      if (controller.signal.aborted) throw new HttpTimeoutError(req.url, timeoutMs);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }
}
