import os from 'node:os';

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
