/**
 * The stub web service (test/support/stub-upstream.ts) in a process of its own, for benchmarks.
 *   /dag/<code>   answers after `--dag-latency-ms` (default 20) with dagAnswer(code, url)
 *   /tp/<code>    answers at once with tpAnswer(code)
 *   /hook/<name>  (a trigger's webhook) answers 204 at once; its arrival time is kept by the
 *                 `id` of its JSON body, for /__bench/hook-wait
 *   /__bench/hook-wait/<id>   answers `{id, at}` (epoch ms of the hook's arrival) once the
 *                 hook with that body id has arrived (at once if it already has; 504 after 30 s)
 *   /__bench/now  answers `{now}`, this process's epoch ms (to check the clocks agree)
 *   /__bench/stats[?reset=1][&record=1|0]   counters (and recorded calls) as JSON; control
 *                 calls are not counted. While recording, each call's URL, arrival time and
 *                 answer time are kept (epoch ms: performance.timeOrigin + performance.now(),
 *                 comparable with the same clock in the bench process).
 * Prints `{"url": ...}` on stdout when ready; stops when stdin closes or on SIGTERM.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { startStubUpstream } from '../../test/support/stub-upstream';
import { exitWhenParentLeaves } from './child';
import { dagAnswer, tpAnswer, type StubStats } from './upstream';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const dagLatencyMs = arg('dag-latency-ms', 20);
const origin = performance.timeOrigin;

const stub = await startStubUpstream({ latencyMs: 0 });
let stats: StubStats = { dag: 0, tp: 0, hook: 0, calls: [] };
let recording = false;
const lastSegment = (path: string) => path.slice(path.lastIndexOf('/') + 1);

stub.on('/dag/', async (req) => {
  stub.requests.length = 0; // the stub records every request; we only count, so keep memory flat
  stats.dag++;
  const body = dagAnswer(lastSegment(req.path), req.url);
  // The latency is applied here rather than by the stub's delayMs (the same setTimeout), so the
  // moment the answer goes out can be recorded: the stub writes it synchronously after this.
  if (dagLatencyMs > 0) await sleep(dagLatencyMs);
  if (recording) stats.calls.push({ url: req.url, at: origin + req.at, sentAt: origin + performance.now() });
  return { body };
});
stub.on('/tp/', (req) => {
  stub.requests.length = 0;
  stats.tp++;
  if (recording) stats.calls.push({ url: req.url, at: origin + req.at, sentAt: origin + performance.now() });
  return { body: tpAnswer(lastSegment(req.path)) };
});
stub.on('/__bench/stats', (req) => {
  stub.requests.length = 0;
  const snapshot = stats;
  if (req.query.get('reset') === '1') stats = { dag: 0, tp: 0, hook: 0, calls: [] };
  if (req.query.has('record')) recording = req.query.get('record') === '1';
  return { body: snapshot };
});

// Webhooks: arrival time by the body's id, and the control calls waiting for them.
const hookArrivals = new Map<string, number>();
const hookWaiters = new Map<string, (at: number) => void>();
stub.on('/hook/', (req) => {
  stub.requests.length = 0;
  stats.hook = (stats.hook ?? 0) + 1;
  const at = origin + req.at;
  let id: string | undefined;
  try {
    id = String((JSON.parse(req.body) as { id?: unknown }).id);
  } catch {
    id = undefined;
  }
  if (id !== undefined) {
    const waiter = hookWaiters.get(id);
    if (waiter) {
      hookWaiters.delete(id);
      waiter(at);
    } else hookArrivals.set(id, at);
  }
  if (recording) stats.calls.push({ url: req.url, at, sentAt: origin + performance.now() });
  return { status: 204, text: '' };
});
stub.on('/__bench/hook-wait/', async (req) => {
  stub.requests.length = 0;
  const id = decodeURIComponent(lastSegment(req.path));
  const already = hookArrivals.get(id);
  if (already !== undefined) {
    hookArrivals.delete(id);
    return { body: { id, at: already } };
  }
  const at = await new Promise<number | undefined>((resolve) => {
    const timer = setTimeout(() => {
      hookWaiters.delete(id);
      resolve(undefined);
    }, 30_000);
    hookWaiters.set(id, (t) => {
      clearTimeout(timer);
      resolve(t);
    });
  });
  return at === undefined ? { status: 504, body: { id, message: 'the hook did not arrive within 30 s' } } : { body: { id, at } };
});
stub.on('/__bench/now', () => {
  stub.requests.length = 0;
  return { body: { now: origin + performance.now() } };
});

exitWhenParentLeaves(() => stub.stop());
process.stdout.write(JSON.stringify({ url: stub.url, pid: process.pid, dagLatencyMs }) + '\n');
