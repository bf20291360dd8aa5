/**
 * CPU profiles of one phase of a bench child (rather than of its whole life, as `--cpu-prof`
 * gives): the parent writes `profile-start <name>` / `profile-stop <name>` lines on the child's
 * stdin; the child runs V8's sampling profiler through `node:inspector` in between and writes
 * `<dir>/<name>.cpuprofile` (the format of `--cpu-prof`, read by `profile-summary.ts`).
 *
 * Only the child's main thread is sampled (its event loop: router, handlers, the store adapter,
 * the SDK and dynalite, which runs in the same process); the import sandbox's worker threads are
 * not. Their CPU shows in `Child.threadCpuMs().others`.
 */
import { mkdirSync, writeFileSync, renameSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Child } from './child';

/** Sampling interval (µs); `--cpu-prof`'s default is 1000. */
const SAMPLING_INTERVAL_US = 500;

/** In a child: obeys the profile commands read from stdin. Prints `{"profile": name, "path": ...}` when written. */
export function serveProfileCommands(): void {
  let session: Session | undefined;
  let running: string | undefined;
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const [command, name, dir] = line.trim().split(/\s+/);
    void (async () => {
      if (command === 'profile-start' && name && !running) {
        session ??= new Session();
        try {
          session.connect();
        } catch {
          // already connected
        }
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
        await session.post('Profiler.start');
        running = name;
        process.stdout.write(JSON.stringify({ profileStarted: name }) + '\n');
      } else if (command === 'profile-stop' && name && running === name && session) {
        const { profile } = await session.post('Profiler.stop');
        running = undefined;
        const folder = resolve(dir ?? 'bench/results/profiles');
        mkdirSync(folder, { recursive: true });
        const path = join(folder, `${name}.cpuprofile`);
        writeFileSync(path + '.tmp', JSON.stringify(profile));
        renameSync(path + '.tmp', path);
        process.stdout.write(JSON.stringify({ profile: name, path }) + '\n');
      }
    })().catch((err) => process.stderr.write(`profile command ${JSON.stringify(line)} failed: ${String(err)}\n`));
  });
}

/** In the parent: starts profiling the child; resolves once the profiler runs. */
export async function startProfile(child: Child<unknown>, name: string): Promise<void> {
  const started = child.nextLine<{ profileStarted?: string }>((l) => l.profileStarted === name, 30_000);
  child.process.stdin!.write(`profile-start ${name}\n`);
  await started;
}

/** In the parent: stops profiling the child; resolves with the path of the written profile. */
export async function stopProfile(child: Child<unknown>, name: string, dir: string): Promise<string> {
  const written = child.nextLine<{ profile?: string; path?: string }>((l) => l.profile === name, 60_000);
  child.process.stdin!.write(`profile-stop ${name} ${dir}\n`);
  return (await written).path!;
}
