/**
 * Source of the worker thread, started with `new Worker(WORKER_SOURCE, { eval: true })`.
 *
 * It is a plain CommonJS string rather than a module file so that it runs unchanged under
 * tsx/vitest and inside an esbuild bundle (no worker entry file has to be emitted). It requires
 * only node built-ins and the absolute paths the host resolved (workerData), so resolution does
 * not depend on the worker's working directory.
 *
 * Protocol (one request in flight at a time; every request carries `seq`):
 *   -> {type:'prepare', seq, preparedId, expressions}  <- {type:'prepared'} | {type:'compileError', index, message}
 *   -> {type:'run', seq, preparedId, batch, deadlineMs} <- {type:'result', outcomes, recycle}
 *                                                       | {type:'failed', reason, partial, recycle}
 *   <- {type:'ready'} once at start, or {type:'fatal', message}
 * `batch` is a JSON array text of the records, elements separated by "\n,". `outcomes` and
 * `partial` are JSON texts of [values, errors] (values[i] null when errors[i] holds the reason);
 * `partial` (or null) covers the records that completed before a run was interrupted. `recycle: true` asks the host to replace
 * this worker (the QuickJS runtime may be unusable, or asynchronous jobs are left behind).
 */
export const WORKER_SOURCE = String.raw`'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const core = require(workerData.corePath);
const variantExports = require(workerData.variantPath);
const variant = variantExports.default || variantExports;

// Module-level cache: the WASM module is compiled and instantiated once per worker.
let wasmModulePromise = null;
function loadWasmModule() {
  if (wasmModulePromise === null) wasmModulePromise = core.newQuickJSWASMModuleFromVariant(variant);
  return wasmModulePromise;
}

let deadline = Infinity;
let interrupted = false;
let runtime = null;
let context = null;
let makeRunner = null;
const runners = new Map();

function describeHandle(handle) {
  try {
    const dumped = context.dump(handle);
    if (dumped && typeof dumped === 'object' && typeof dumped.message === 'string') {
      return (dumped.name ? dumped.name + ': ' : '') + dumped.message;
    }
    return String(dumped);
  } catch (error) {
    return 'unknown error';
  } finally {
    handle.dispose();
  }
}

function evalOrThrow(code, filename) {
  const result = context.evalCode(code, filename);
  if (result.error) throw new Error(filename + ': ' + describeHandle(result.error));
  return result.value;
}

async function init() {
  const wasm = await loadWasmModule();
  runtime = wasm.newRuntime();
  runtime.setMemoryLimit(workerData.memoryBytes);
  runtime.setMaxStackSize(workerData.stackBytes);
  if (workerData.interruptInside) {
    runtime.setInterruptHandler(() => {
      if (Date.now() > deadline) { interrupted = true; return true; }
      return false;
    });
  }
  context = runtime.newContext();
  evalOrThrow(fs.readFileSync(workerData.lodashPath, 'utf8') + '\n;undefined', 'lodash.min.js').dispose();
  makeRunner = evalOrThrow('(' + workerData.prelude + ')(globalThis, ' + JSON.stringify(workerData.limits) + ')', 'sandbox-prelude.js');
}

function prepare(message) {
  deadline = Date.now() + message.deadlineMs;
  interrupted = false;
  const fnHandles = [];
  try {
    for (let i = 0; i < message.expressions.length; i++) {
      const source = '(function () { \'use strict\'; return (data, _) => (\n' + message.expressions[i] + '\n); })()';
      const result = context.evalCode(source, 'transformers[' + i + ']');
      if (result.error) {
        const wasInterrupted = interrupted;
        const reason = describeHandle(result.error);
        return { type: 'compileError', index: i, message: wasInterrupted ? 'exceeded the deadline of ' + message.deadlineMs + ' ms while compiling' : reason };
      }
      if (context.typeof(result.value) !== 'function') {
        result.value.dispose();
        return { type: 'compileError', index: i, message: 'is not a single expression' };
      }
      fnHandles.push(result.value);
    }
    const made = context.callFunction(makeRunner, context.undefined, fnHandles);
    if (made.error) return { type: 'compileError', index: -1, message: describeHandle(made.error) };
    const run = context.getProp(made.value, 0);
    const partial = context.getProp(made.value, 1);
    made.value.dispose();
    runners.set(message.preparedId, { run, partial });
    return { type: 'prepared' };
  } finally {
    for (const handle of fnHandles) handle.dispose();
    deadline = Infinity;
  }
}

function drainPendingJobs(deadlineMs) {
  // Promise jobs a transformer left behind (a record's value is never a promise, so they serve
  // nothing). Run them under the deadline; if they do not settle, the runtime is recycled.
  if (!runtime.hasPendingJob()) return false;
  deadline = Date.now() + deadlineMs;
  interrupted = false;
  const result = runtime.executePendingJobs(10000);
  if (result.error) result.error.dispose();
  deadline = Infinity;
  return interrupted || runtime.hasPendingJob();
}

function run(message) {
  const runner = runners.get(message.preparedId);
  if (runner === undefined) return { type: 'failed', reason: 'transformers are not prepared in this worker', partial: null, recycle: true };
  const batch = context.newString(message.batch);
  deadline = Date.now() + message.deadlineMs;
  interrupted = false;
  let result;
  try {
    result = context.callFunction(runner.run, context.undefined, batch);
  } finally {
    batch.dispose();
  }
  if (!result.error) {
    const outcomes = context.getString(result.value);
    result.value.dispose();
    deadline = Infinity;
    const recycle = drainPendingJobs(message.deadlineMs);
    return { type: 'result', outcomes, recycle };
  }
  const wasInterrupted = interrupted;
  const reason = describeHandle(result.error);
  // Collect what completed before the failure (a fresh deadline for this small call).
  let partial = null;
  deadline = Date.now() + message.deadlineMs;
  interrupted = false;
  try {
    const done = context.callFunction(runner.partial, context.undefined);
    if (done.error) done.error.dispose();
    else { partial = context.getString(done.value); done.value.dispose(); }
  } catch (error) {
    partial = null;
  }
  deadline = Infinity;
  return { type: 'failed', reason: wasInterrupted ? 'deadline' : reason, partial, recycle: !wasInterrupted };
}

init().then(
  () => {
    parentPort.on('message', (message) => {
      let reply;
      try {
        reply = message.type === 'prepare' ? prepare(message) : run(message);
      } catch (error) {
        reply = { type: 'failed', reason: 'sandbox error: ' + (error && error.message ? error.message : String(error)), partial: null, recycle: true };
      }
      reply.seq = message.seq;
      parentPort.postMessage(reply);
    });
    parentPort.postMessage({ type: 'ready' });
  },
  (error) => {
    parentPort.postMessage({ type: 'fatal', message: error && error.message ? error.message : String(error) });
  },
);
`;
