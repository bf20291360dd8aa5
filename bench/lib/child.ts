import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/lib/ is two levels below it). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Child<T> {
  /** What the child printed as its first stdout line (JSON). */
  info: T;
  pid: number;
  process: ChildProcess;
  /** CPU time (user + system, ms) the child has used so far, from /proc (Linux). */
  cpuMs(): number;
  /**
   * CPU time (ms) so far of the child's main thread (the event loop: JavaScript, and dynalite
   * when it runs in that process) and of all its other threads together, ended ones included
   * (worker_threads such as the import sandbox, libuv's pool, V8's GC helpers), from /proc (Linux).
   */
  threadCpuMs(): { main: number; others: number };
  /**
   * Resolves with the next JSON line the child prints on stdout (after its ready line) for
   * which `match` is true (every line is still passed on to stderr).
   */
  nextLine<L = Record<string, unknown>>(match: (line: L) => boolean, timeoutMs?: number): Promise<L>;
  /** Asks the child to stop (closes its stdin, then SIGTERM), waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Runs a TypeScript file under tsx in its own Node.js process (its own event loop and so, on a
 * 2-core machine, its own core most of the time). The child prints one JSON line when ready;
 * anything it prints afterwards is passed on to stderr with a prefix. `nodeArgs` go before the
 * script (e.g. `--cpu-prof`).
 */
export async function startChild<T>(name: string, script: string, options: { args?: string[]; nodeArgs?: string[]; env?: NodeJS.ProcessEnv; readyTimeoutMs?: number } = {}): Promise<Child<T>> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', script, ...(options.args ?? [])], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  const prefix = (line: string) => process.stderr.write(`[${name}] ${line}\n`);
  createInterface({ input: child.stderr! }).on('line', prefix);
  const lines = createInterface({ input: child.stdout! });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const waiters = new Set<(line: string) => void>();
  const info = await new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not report ready within ${options.readyTimeoutMs ?? 60_000} ms`)), options.readyTimeoutMs ?? 60_000);
    let first = true;
    lines.on('line', (line) => {
      if (!first) {
        for (const waiter of waiters) waiter(line);
        return prefix(line);
      }
      first = false;
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line) as T);
      } catch {
        reject(new Error(`${name} printed ${JSON.stringify(line)} instead of its ready line`));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with code ${code} before it was ready (see its stderr above)`));
    });
  });

  const pid = child.pid!;
  const ticks = 100; // USER_HZ on Linux
  const statCpuMs = (stat: string) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks;
  };
  return {
    info,
    pid,
    process: child,
    cpuMs() {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks;
      } catch {
        return NaN;
      }
    },
    threadCpuMs() {
      // The process's total counts threads that have ended too (the sandbox's workers close
      // after each import chunk), so the other threads are the total less the main thread.
      try {
        const total = statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
        const main = statCpuMs(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
        return { main, others: total - main };
      } catch {
        return { main: NaN, others: NaN };
      }
    },
    nextLine<L>(match: (line: L) => boolean, timeoutMs = 120_000) {
      return new Promise<L>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`${name} did not print the expected line within ${timeoutMs} ms`));
        }, timeoutMs);
        const waiter = (line: string) => {
          let parsed: L;
          try {
            parsed = JSON.parse(line) as L;
          } catch {
            return;
          }
          if (!match(parsed)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(parsed);
        };
        waiters.add(waiter);
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGTERM'), 5_000);
      const hard = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
      clearTimeout(hard);
    },
  };
}

/** In a child: calls `stop` and exits when the parent closes stdin or sends SIGTERM/SIGINT. */
export function exitWhenParentLeaves(stop: () => Promise<void>): void {
  let stopping = false;
  const leave = () => {
    if (stopping) return;
    stopping = true;
    stop()
      .catch((err) => process.stderr.write(`stop failed: ${String(err)}\n`))
      // process.exit (not a signal) so that --cpu-prof writes its profile.
      .finally(() => process.exit(0));
  };
  process.stdin.on('end', leave);
  process.stdin.on('error', leave);
  process.stdin.resume();
  process.on('SIGTERM', leave);
  process.on('SIGINT', leave);
}
