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
