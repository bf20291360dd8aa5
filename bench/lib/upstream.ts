/**
 * The answers of the bench's stub web service, shared by the stub process (which serves them)
 * and the suites (which check them). Tokens are derived from the full request URL, so a
 * dependent call's query string proves which answers it was built from.
 */

/** FNV-1a 32-bit, base 36: short, URL-safe, deterministic. */
export function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/** The body the stub answers to a call of the DAG (`/dag/<code>?...`). */
export function dagAnswer(code: string, url: string): { code: string; token: string }[] {
  return [{ code, token: `${code}-${fnv(url)}` }];
}

/** The body the stub answers to a throughput call (`/tp/<code>?...`). */
export function tpAnswer(code: string): { code: string; ok: boolean }[] {
  return [{ code, ok: true }];
}

/** One call the stub received while recording, with epoch times (ms, sub-ms precision). */
export interface RecordedCall {
  url: string;
  /** When the request had arrived whole (performance.timeOrigin + performance.now()). */
  at: number;
  /** When the answer was handed to the socket, after the latency. */
  sentAt: number;
}

export interface StubStats {
  /** Calls per path prefix since the last reset (control calls excluded). */
  dag: number;
  tp: number;
  /** Webhook calls (`/hook/...`). */
  hook?: number;
  /** Calls received while recording was on, in arrival order. */
  calls: RecordedCall[];
}
