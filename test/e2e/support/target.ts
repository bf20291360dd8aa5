import { inject } from 'vitest';

/** The system under test: a deployment (API_URL) or the local host the global setup started. */
export interface E2eTarget {
  /** Without a trailing slash. */
  apiUrl: string;
  customerCode: string;
  engineToken: string;
  apiKey: string;
  kind: 'deployment' | 'local host';
}

export interface Answer {
  status: number;
  body: any;
  text: string;
}

/** Unique per run, so the suite can run again and again against the same deployment. */
export const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36)}`;

export function target(): E2eTarget {
  return inject('e2eTarget');
}

/**
 * One HTTP call to the target. `auth` picks the credentials: the engine token, the data graph
 * API key, or none (public routes). Bodies that are not strings are sent as JSON.
 */
export async function call(
  method: string,
  path: string,
  options: { auth?: 'engine' | 'graph' | 'none'; body?: unknown; contentType?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const t = target();
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth ?? 'none';
  if (auth !== 'none') {
    headers.authorization = `Bearer ${auth === 'engine' ? t.engineToken : t.apiKey}`;
    headers['x-customer-code'] = t.customerCode;
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] = options.contentType ?? 'application/json';
  }
  const res = await fetch(`${t.apiUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text };
}

export const engine = (method: string, path: string, body?: unknown) => call(method, path, { auth: 'engine', body });
export const graph = (method: string, path: string, body?: unknown) => call(method, `/_api/v1${path}`, { auth: 'graph', body });

/**
 * Asks again until `done` holds: jobs and events are asynchronous (Step Functions, streams and
 * EventBridge in AWS; the in-process twins locally), so a result is waited for, never assumed.
 */
export async function eventually<T>(ask: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 150_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await ask();
  for (let delay = 250; !done(value); delay = Math.min(delay * 2, 5_000)) {
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${what} after ${timeoutMs} ms; last answer: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, delay));
    value = await ask();
  }
  return value;
}

/** Polls a job until it has ended (SUCCEEDED or FAILED). */
export function jobEnded(jobId: string): Promise<Answer> {
  return eventually(() => graph('GET', `/jobs/${jobId}`), (a) => a.status === 200 && (a.body.status === 'SUCCEEDED' || a.body.status === 'FAILED'), `job ${jobId} to end`);
}
