/** The HttpClient port: outbound calls to web services (components, download and callWebservice jobs). */
export interface HttpRequest {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: string;
  /** Whole-request deadline in milliseconds. */
  timeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface HttpClient {
  /** Resolves with any status; rejects with `HttpTimeoutError` or a network error. */
  request(request: HttpRequest): Promise<HttpResponse>;
}

/** The deadline passed before the web service answered. */
export class HttpTimeoutError extends Error {
  readonly isTimeout = true;
  constructor(readonly url: string, readonly timeoutMs: number) {
    super(`The web service did not answer within ${timeoutMs} ms (${url})`);
    this.name = 'HttpTimeoutError';
  }
}

/** A `Retry-After` header (seconds or an HTTP date) as milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
