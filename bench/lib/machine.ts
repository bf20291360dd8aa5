import os from 'node:os';
import { readFileSync } from 'node:fs';

/** The machine a run happened on, for the result file. */
export function machineInfo() {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpuCount: cpus.length,
    availableParallelism: os.availableParallelism?.() ?? cpus.length,
    totalMemoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    nodeVersion: process.version,
    v8Version: process.versions.v8,
    hostname: os.hostname(),
    loadAverage1m: os.loadavg()[0],
  };
}

/** Busy and total CPU time of the whole machine so far (jiffies, all cores), from /proc/stat. */
export function machineCpu(): { busy: number; total: number } {
  try {
    const first = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const fields = first.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = fields[3] + (fields[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return { busy: NaN, total: NaN };
  }
}
