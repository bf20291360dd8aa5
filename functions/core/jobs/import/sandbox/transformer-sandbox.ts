import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { SANDBOX_PRELUDE } from './prelude';
import { WORKER_SOURCE } from './worker-source';

/** The result of running one record through all transformers. */
export type TransformerOutcome = { ok: true; value: unknown } | { ok: false; error: string };

export interface SandboxOptions {
  /** Wall-clock budget of one batch (and of each record retried alone), in ms. Default 1000. */
  deadlineMs?: number;
  /** QuickJS heap limit. Default 32 MiB. */
  memoryBytes?: number;
  /** QuickJS max stack size. Default 256 KiB. */
  stackBytes?: number;
  /** Records per message to the worker (also capped at ~1 MiB of JSON). Default 500. */
  batchSize?: number;
}

export interface PreparedTransformers {
  /**
   * Runs every record through every transformer in order; one outcome per record, same order.
   * A record whose transformer throws, returns anything but a plain object, or exceeds the
   * deadline, memory or stack gets {ok:false, error}; the other records are unaffected.
   */
  run(records: unknown[]): Promise<TransformerOutcome[]>;
}

/** A transformer expression that does not compile. `index` is its position in the list. */
export class TransformerCompileError extends Error {
  readonly index: number;
  readonly reason: string;
  constructor(index: number, reason: string) {
    super(`transformers[${index}] is not a valid expression: ${reason}`);
    this.name = 'TransformerCompileError';
    this.index = index;
    this.reason = reason;
  }
}

/** Testing hook only: `interruptInside: false` disables the in-QuickJS deadline (host kill path). */
export interface SandboxInternalOptions {
  interruptInside?: boolean;
}

const KiB = 1024;
const MiB = 1024 * KiB;
const DEFAULTS = { deadlineMs: 1000, memoryBytes: 32 * MiB, stackBytes: 256 * KiB, batchSize: 500 };
const MAX_BATCH_CHARS = 1 * MiB;
const STARTUP_TIMEOUT_MS = 30_000;

export function deadlineMessage(deadlineMs: number): string {
  return `Transformer exceeded its deadline of ${deadlineMs} ms`;
}

interface PackagePaths {
  corePath: string;
  variantPath: string;
  lodashPath: string;
}

let packagePaths: PackagePaths | undefined;
/** Absolute paths of what the worker loads, resolved from this module (cached per process). */
function resolvePackagePaths(): PackagePaths {
  if (packagePaths === undefined) {
    const anchor = (import.meta as { url?: string }).url ?? (typeof __filename === 'string' ? __filename : undefined);
    if (anchor === undefined) throw new Error('TransformerSandbox cannot locate its packages (no import.meta.url)');
    const require = createRequire(anchor);
    packagePaths = {
      corePath: require.resolve('quickjs-emscripten-core'),
      variantPath: require.resolve('@jitl/quickjs-singlefile-cjs-release-sync'),
      lodashPath: require.resolve('lodash/lodash.min.js'),
    };
  }
  return packagePaths;
}

type WorkerReply =
  | { type: 'prepared' }
  | { type: 'compileError'; index: number; message: string }
  | { type: 'result'; outcomes: string; recycle: boolean }
  | { type: 'failed'; reason: string; partial: string | null; recycle: boolean };
/** A request that got no reply: the host killed the worker at the deadline, or it died. */
type LostReply = { type: 'timeout' } | { type: 'crashed'; message: string };

type WorkerRequest =
  | { type: 'prepare'; preparedId: number; expressions: string[]; deadlineMs: number }
  | { type: 'run'; preparedId: number; batch: string; deadlineMs: number };

/** One worker thread hosting one QuickJS runtime + context. One request in flight at a time. */
class SandboxWorker {
  readonly ready: Promise<void>;
  readonly prepared = new Set<number>();
  private readonly worker: Worker;
  private seq = 0;
  private pending: { seq: number; resolve: (reply: WorkerReply | LostReply) => void; timer: NodeJS.Timeout } | undefined;
  private dead = false;
  private onStartup: ((error?: Error) => void) | undefined;

  constructor(workerData: Record<string, unknown>) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData, resourceLimits: { stackSizeMb: 4 } });
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => this.onStartup?.(new Error('the sandbox worker did not start in time')), STARTUP_TIMEOUT_MS);
      this.onStartup = (error) => {
        clearTimeout(timer);
        this.onStartup = undefined;
        if (error === undefined) {
          this.worker.unref();
          resolve();
        } else {
          this.terminate();
          reject(error);
        }
      };
    });
    this.worker.on('message', (message: { type: string; seq?: number; message?: string }) => {
      if (message.type === 'ready') return this.onStartup?.();
      if (message.type === 'fatal') return this.onStartup?.(new Error(`the sandbox worker failed to start: ${message.message}`));
      const pending = this.pending;
      if (pending === undefined || message.seq !== pending.seq) return;
      this.settle(message as unknown as WorkerReply);
    });
    this.worker.on('error', (error) => this.lost(error instanceof Error ? error.message : String(error)));
    this.worker.on('exit', (code) => this.lost(`the sandbox worker exited (code ${code})`));
  }

  get alive(): boolean {
    return !this.dead;
  }

  /** Sends a request; resolves with the reply, or {type:'timeout'} after `timeoutMs` (the worker is then terminated). */
  request(message: WorkerRequest, timeoutMs: number): Promise<WorkerReply | LostReply> {
    if (this.dead) return Promise.resolve({ type: 'crashed', message: 'the sandbox worker is gone' });
    if (this.pending !== undefined) throw new Error('SandboxWorker: one request at a time');
    const seq = ++this.seq;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.settle({ type: 'timeout' });
        this.terminate();
      }, timeoutMs);
      this.pending = { seq, resolve, timer };
      this.worker.ref();
      this.worker.postMessage({ ...message, seq });
    });
  }

  terminate(): void {
    if (this.dead) return;
    this.dead = true;
    void this.worker.terminate();
  }

  private settle(reply: WorkerReply | LostReply): void {
    const pending = this.pending;
    if (pending === undefined) return;
    this.pending = undefined;
    clearTimeout(pending.timer);
    if (!this.dead) this.worker.unref();
    pending.resolve(reply);
  }

  private lost(message: string): void {
    this.dead = true;
    this.onStartup?.(new Error(message));
    this.settle({ type: 'crashed', message });
  }
}

type ExecResult =
  | { kind: 'done'; outcomes: TransformerOutcome[] }
  | { kind: 'failed'; reason: string; partial: TransformerOutcome[] | null };

/**
 * Runs import transformer expressions in a QuickJS (WebAssembly) sandbox inside a worker thread.
 * One worker per instance, reused for every batch; replaced after a hard timeout or a crash.
 */
export class TransformerSandbox {
  private readonly deadlineMs: number;
  private readonly memoryBytes: number;
  private readonly stackBytes: number;
  private readonly batchSize: number;
  private readonly interruptInside: boolean;
  private worker: SandboxWorker | null = null;
  private readonly expressionsById = new Map<number, string[]>();
  private nextPreparedId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(options: SandboxOptions & SandboxInternalOptions = {}) {
    this.deadlineMs = positive('deadlineMs', options.deadlineMs ?? DEFAULTS.deadlineMs);
    this.memoryBytes = positive('memoryBytes', options.memoryBytes ?? DEFAULTS.memoryBytes);
    this.stackBytes = positive('stackBytes', options.stackBytes ?? DEFAULTS.stackBytes);
    this.batchSize = Math.floor(positive('batchSize', options.batchSize ?? DEFAULTS.batchSize));
    this.interruptInside = options.interruptInside ?? true;
  }

  /** Compiles the transformer expressions once; a syntax error throws TransformerCompileError. */
  async prepare(expressions: string[]): Promise<PreparedTransformers> {
    this.assertOpen();
    if (!Array.isArray(expressions)) throw new TypeError('prepare(expressions): expressions must be an array of strings');
    const normalised = expressions.map((expression, index) => {
      if (typeof expression !== 'string') throw new TransformerCompileError(index, 'the expression must be a string');
      const text = expression.trim().replace(/;+\s*$/, '').trim();
      if (text === '') throw new TransformerCompileError(index, 'the expression is empty');
      return text;
    });
    const id = this.nextPreparedId++;
    this.expressionsById.set(id, normalised);
    if (normalised.length > 0) {
      try {
        await this.exclusive(async () => {
          this.assertOpen();
          await this.ensurePrepared(await this.ensureWorker(), id);
        });
      } catch (error) {
        this.expressionsById.delete(id);
        throw error;
      }
    }
    return new Prepared(
      { assertOpen: () => this.assertOpen(), runLines: (lines) => this.runLines(id, lines) },
      normalised.length,
      this.batchSize,
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    this.worker?.terminate();
    this.worker = null;
  }

  /** Runs pre-serialised records (JSON texts) as one batch, retrying around failures. */
  private async runLines(preparedId: number, lines: string[]): Promise<TransformerOutcome[]> {
    this.assertOpen();
    const outcomes: TransformerOutcome[] = [];
    let next = 0;
    while (next < lines.length) {
      const rest = next === 0 ? lines : lines.slice(next);
      const result = await this.exec(preparedId, rest);
      if (result.kind === 'done') {
        outcomes.push(...result.outcomes);
        break;
      }
      if (rest.length === 1) {
        outcomes.push({ ok: false, error: result.reason });
        break;
      }
      if (result.partial !== null) {
        // The records before the failure completed; the one that was running is retried alone
        // (with its own deadline) and the ones after it go on as a batch.
        outcomes.push(...result.partial);
        next += result.partial.length;
        if (next < lines.length) {
          const single = await this.exec(preparedId, [lines[next]]);
          outcomes.push(single.kind === 'done' ? single.outcomes[0] : { ok: false, error: single.reason });
          next += 1;
        }
      } else {
        // No progress report (the worker was killed): retry the records one at a time.
        for (; next < lines.length; next++) {
          const single = await this.exec(preparedId, [lines[next]]);
          outcomes.push(single.kind === 'done' ? single.outcomes[0] : { ok: false, error: single.reason });
        }
      }
    }
    return outcomes;
  }

  private exec(preparedId: number, lines: string[]): Promise<ExecResult> {
    return this.exclusive(async (): Promise<ExecResult> => {
      this.assertOpen();
      let worker: SandboxWorker;
      try {
        worker = await this.ensureWorker();
        await this.ensurePrepared(worker, preparedId);
      } catch (error) {
        return { kind: 'failed', reason: `the transformer sandbox is unavailable: ${messageOf(error)}`, partial: null };
      }
      const reply = await worker.request(
        { type: 'run', preparedId, batch: `[${lines.join('\n,')}]`, deadlineMs: this.deadlineMs },
        this.hostDeadline(),
      );
      switch (reply.type) {
        case 'result': {
          if (reply.recycle) this.discard(worker);
          const outcomes = decodeOutcomes(reply.outcomes);
          if (outcomes === null || outcomes.length !== lines.length) {
            this.discard(worker);
            return { kind: 'failed', reason: 'the transformer sandbox answered with the wrong number of outcomes', partial: null };
          }
          return { kind: 'done', outcomes };
        }
        case 'failed': {
          if (reply.recycle) this.discard(worker);
          const partial = reply.partial === null ? null : decodeOutcomes(reply.partial);
          const reason = reply.reason === 'deadline' ? deadlineMessage(this.deadlineMs) : this.explain(reply.reason);
          return { kind: 'failed', reason, partial: partial !== null && partial.length < lines.length ? partial : null };
        }
        case 'timeout':
          this.discard(worker);
          return { kind: 'failed', reason: deadlineMessage(this.deadlineMs), partial: null };
        case 'crashed':
          this.discard(worker);
          return { kind: 'failed', reason: this.explain(reply.message), partial: null };
        default:
          this.discard(worker);
          return { kind: 'failed', reason: 'unexpected reply from the transformer sandbox', partial: null };
      }
    });
  }

  private explain(reason: string): string {
    if (/out of memory/i.test(reason)) return `Transformer exceeded the memory limit of ${formatBytes(this.memoryBytes)} (${reason})`;
    if (/stack overflow/i.test(reason)) return `Transformer exceeded the maximum stack size of ${formatBytes(this.stackBytes)} (${reason})`;
    return `Transformer sandbox failed: ${reason}`;
  }

  private async ensureWorker(): Promise<SandboxWorker> {
    if (this.worker !== null && this.worker.alive) {
      await this.worker.ready;
      return this.worker;
    }
    const worker = new SandboxWorker({
      ...resolvePackagePaths(),
      prelude: SANDBOX_PRELUDE,
      limits: { stackKiB: Math.round(this.stackBytes / KiB), memoryMiB: Math.round((this.memoryBytes / MiB) * 10) / 10 },
      memoryBytes: this.memoryBytes,
      stackBytes: this.stackBytes,
      interruptInside: this.interruptInside,
    });
    this.worker = worker;
    try {
      await worker.ready;
    } catch (error) {
      if (this.worker === worker) this.worker = null;
      throw error;
    }
    return worker;
  }

  private async ensurePrepared(worker: SandboxWorker, preparedId: number): Promise<void> {
    if (worker.prepared.has(preparedId)) return;
    const expressions = this.expressionsById.get(preparedId);
    if (expressions === undefined) throw new Error(`unknown prepared transformers #${preparedId}`);
    const reply = await worker.request({ type: 'prepare', preparedId, expressions, deadlineMs: this.deadlineMs }, this.hostDeadline());
    if (reply.type === 'prepared') {
      worker.prepared.add(preparedId);
      return;
    }
    if (reply.type === 'compileError' && reply.index >= 0) throw new TransformerCompileError(reply.index, reply.message);
    this.discard(worker);
    if (reply.type === 'compileError') throw new Error(`the transformers could not be prepared: ${reply.message}`);
    if (reply.type === 'timeout') throw new Error(`the transformers could not be compiled within ${this.deadlineMs} ms`);
    if (reply.type === 'crashed') throw new Error(reply.message);
    throw new Error('unexpected reply from the transformer sandbox');
  }

  /** The host kills the worker this long after sending a request (the worker interrupts itself at deadlineMs). */
  private hostDeadline(): number {
    return this.deadlineMs + Math.max(500, this.deadlineMs);
  }

  private discard(worker: SandboxWorker): void {
    worker.terminate();
    if (this.worker === worker) this.worker = null;
  }

  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task, task);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('TransformerSandbox is closed');
  }
}

interface PreparedHost {
  assertOpen(): void;
  runLines(lines: string[]): Promise<TransformerOutcome[]>;
}

class Prepared implements PreparedTransformers {
  constructor(
    private readonly host: PreparedHost,
    private readonly count: number,
    private readonly batchSize: number,
  ) {}

  async run(records: unknown[]): Promise<TransformerOutcome[]> {
    this.host.assertOpen();
    if (!Array.isArray(records)) throw new TypeError('run(records): records must be an array');
    const outcomes = new Array<TransformerOutcome>(records.length);
    const indexes: number[] = [];
    const lines: string[] = [];
    for (let i = 0; i < records.length; i++) {
      let line: string | undefined;
      try {
        line = JSON.stringify(records[i]);
      } catch (error) {
        outcomes[i] = { ok: false, error: `the record is not JSON data: ${messageOf(error)}` };
        continue;
      }
      if (typeof line !== 'string') {
        outcomes[i] = { ok: false, error: 'the record is not JSON data' };
        continue;
      }
      if (this.count === 0) {
        const value: unknown = JSON.parse(line);
        outcomes[i] = isPlainObject(value) ? { ok: true, value } : { ok: false, error: 'the record is not a plain object' };
        continue;
      }
      indexes.push(i);
      lines.push(line);
    }
    let start = 0;
    while (start < lines.length) {
      let end = start;
      let chars = 0;
      while (end < lines.length && end - start < this.batchSize && (end === start || chars + lines[end].length <= MAX_BATCH_CHARS)) {
        chars += lines[end].length + 1;
        end++;
      }
      const batch = await this.host.runLines(lines.slice(start, end));
      for (let k = 0; k < batch.length; k++) outcomes[indexes[start + k]] = batch[k];
      start = end;
    }
    return outcomes;
  }
}

/** The worker's answer is the JSON text of [values, errors]: values[i] is null when errors[i] says why. */
function decodeOutcomes(text: string): TransformerOutcome[] | null {
  let decoded: unknown;
  try {
    decoded = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(decoded) || !Array.isArray(decoded[0]) || !isPlainObject(decoded[1])) return null;
  const values = decoded[0] as unknown[];
  const errors = decoded[1] as Record<string, unknown>;
  const outcomes = new Array<TransformerOutcome>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const error = errors[i];
    if (typeof error === 'string') outcomes[i] = { ok: false, error };
    else if (isPlainObject(value)) outcomes[i] = { ok: true, value };
    else outcomes[i] = { ok: false, error: 'the result of the transformers is not a JSON object' };
  }
  return outcomes;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positive(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`SandboxOptions.${name} must be a positive number`);
  }
  return value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function formatBytes(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= KiB && bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} bytes`;
}
