import os from 'node:os';
import type { Child } from './child';
import { machineCpu } from './machine';

/** CPU used so far by each bench child (main thread and other threads), by the bench process, and by the whole machine. */
export interface CpuSnapshot {
  at: number;
  children: Record<string, { total: number; main: number; others: number }>;
  bench: number;
  machine: { busy: number; total: number };
}

/** Cores used between two snapshots (1 = one core fully busy). */
export interface CpuShare {
  /** Per child: its whole process, its main thread (event loop), its other threads. */
  children: Record<string, { total: number; main: number; others: number }>;
  /** The bench process (load generator, the raw baselines and, when one runs there, its dynalite). */
  bench: number;
  machineBusyCores: number;
  /** Everything else on the machine (other users' work): high values mean disturbed figures. */
  otherProcesses: number;
}

export function cpuMeter(children: Record<string, Child<unknown>>) {
  const snapshot = (): CpuSnapshot => {
    const usage = process.cpuUsage();
    return {
      at: performance.now(),
      children: Object.fromEntries(
        Object.entries(children).map(([name, child]) => {
          const threads = child.threadCpuMs();
          return [name, { total: child.cpuMs(), main: threads.main, others: threads.others }];
        }),
      ),
      bench: (usage.user + usage.system) / 1000,
      machine: machineCpu(),
    };
  };
  const share = (a: CpuSnapshot, b: CpuSnapshot): CpuShare => {
    const elapsed = b.at - a.at;
    const perChild = Object.fromEntries(
      Object.keys(b.children).map((name) => {
        const x = a.children[name];
        const y = b.children[name];
        return [name, { total: (y.total - x.total) / elapsed, main: (y.main - x.main) / elapsed, others: (y.others - x.others) / elapsed }];
      }),
    );
    const bench = (b.bench - a.bench) / elapsed;
    const machineBusyCores = ((b.machine.busy - a.machine.busy) / (b.machine.total - a.machine.total)) * os.cpus().length;
    const ours = bench + Object.values(perChild).reduce((sum, c) => sum + c.total, 0);
    return { children: perChild, bench, machineBusyCores, otherProcesses: Math.max(0, machineBusyCores - ours) };
  };
  /** Runs `work` and answers its result with the CPU share over it. */
  const during = async <T>(work: () => Promise<T>): Promise<{ result: T; cpu: CpuShare; elapsedMs: number }> => {
    const a = snapshot();
    const result = await work();
    const b = snapshot();
    return { result, cpu: share(a, b), elapsedMs: b.at - a.at };
  };
  return { snapshot, share, during };
}

/** One line of a report: the cores each process used. */
export function cpuLine(share: CpuShare): string {
  const kids = Object.entries(share.children)
    .map(([name, c]) => `${name} ${c.total.toFixed(2)} (main thread ${c.main.toFixed(2)}, other threads ${c.others.toFixed(2)})`)
    .join(', ');
  return `cores used: ${kids}, bench process ${share.bench.toFixed(2)}, other processes on the machine ${share.otherProcesses.toFixed(2)}`;
}
