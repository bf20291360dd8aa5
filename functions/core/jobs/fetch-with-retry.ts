import { retryAfterMs, type HttpClient, type HttpRequest, type HttpResponse } from '../../ports/http-client';

export interface RetryPolicy {
  /** Tries in all, the first included (default 4). */
  attempts: number;
  /** First backoff; doubled each retry, with jitter (default 500 ms). */
  baseDelayMs: number;
  /** No wait is longer, whatever Retry-After asks (default 30 s). */
  maxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** A web service call of a job that did not succeed; `status` when the service answered. */
export class JobCallError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'JobCallError';
  }
}

/**
 * One call with bounded retries for what a retry can cure: 429, 5xx, network errors and
 * timeouts. A `Retry-After` (seconds or an HTTP date) is honoured, up to `maxDelayMs`. Any
 * other status, or the last failure, throws `JobCallError` naming the status.
 */
export async function fetchWithRetry(http: HttpClient, request: HttpRequest, policy: RetryPolicy = DEFAULT_RETRY): Promise<HttpResponse> {
  for (let attempt = 1; ; attempt++) {
    let waitMs = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2));
    try {
      const response = await http.request(request);
      if (response.status >= 200 && response.status < 300) return response;
      const retryable = response.status === 429 || response.status >= 500;
      if (!retryable || attempt >= policy.attempts) {
        throw new JobCallError(`The web service answered HTTP ${response.status} to ${request.method} ${request.url}`, response.status);
      }
      const retryAfter = retryAfterMs(response.headers['retry-after']);
      if (retryAfter !== undefined) waitMs = Math.min(policy.maxDelayMs, retryAfter);
    } catch (err) {
      if (err instanceof JobCallError) throw err;
      if (attempt >= policy.attempts) throw new JobCallError(`${request.method} ${request.url} failed: ${(err as Error).message}`);
    }
    await policy.sleep(waitMs);
  }
}

