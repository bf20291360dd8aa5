import { Pool } from 'undici';

/**
 * A closed-loop load generator: `concurrency` workers, each sending its next request the moment
 * its previous answer has been read, for `durationMs`. Every latency is kept (milliseconds), and
 * completions are counted per second for the spread of the rate. A request that throws counts
 * as an error (the first message is kept).
 */
export interface LoadResult {
  completed: number;
  errors: number;
  firstError?: string;
  elapsedMs: number;
  /** completed / elapsed. */
  perSecond: number;
  /** Completions in each whole second of the run (the last, partial, second left out). */
  windows: number[];
  latenciesMs: number[];
}

export async function closedLoop(options: { concurrency: number; durationMs: number; request: () => Promise<void> }): Promise<LoadResult> {
  const latencies: number[] = [];
  const windowCounts: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const deadline = start + options.durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        await options.request();
      } catch (err) {
        errors++;
        firstError ??= err instanceof Error ? err.message : String(err);
        continue;
      }
      const t1 = performance.now();
      latencies.push(t1 - t0);
      const w = Math.floor((t1 - start) / 1000);
      windowCounts[w] = (windowCounts[w] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const elapsedMs = performance.now() - start;
  const whole = Math.floor(options.durationMs / 1000);
  const windows = Array.from({ length: whole }, (_, i) => windowCounts[i] ?? 0);
  return { completed: latencies.length, errors, firstError, elapsedMs, perSecond: (latencies.length / elapsedMs) * 1000, windows, latenciesMs: latencies };
}

/** A keep-alive connection pool to one origin (the same client for every load target). */
export function pool(origin: string, connections: number): Pool {
  return new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
}

/** One request through a pool; the body is read whole. Throws on a non-2xx status. */
export async function send(
  target: Pool,
  path: string,
  init: { method?: 'GET' | 'POST' | 'PUT'; headers?: Record<string, string>; body?: string } = {},
): Promise<string> {
  const res = await target.request({ path, method: init.method ?? 'GET', headers: init.headers, body: init.body });
  const text = await res.body.text();
  if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`HTTP ${res.statusCode} from ${init.method ?? 'GET'} ${path}: ${text.slice(0, 500)}`);
  return text;
}

/**
 * A fixed amount of work: `count` requests (request(i), i = 0..count-1) with `concurrency` in
 * flight, each started the moment a slot frees. Every latency is kept; an error stops the run.
 */
export async function runCount(options: { count: number; concurrency: number; request: (i: number) => Promise<void> }): Promise<{ elapsedMs: number; latenciesMs: number[] }> {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (next < options.count) {
      const i = next++;
      const t0 = performance.now();
      await options.request(i);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, options.count) }, worker));
  return { elapsedMs: performance.now() - start, latenciesMs: latencies };
}
