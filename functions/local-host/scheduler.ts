import { nextRun } from '../core/jobs/definitions/cron';
import type { JobServices } from '../core/jobs/services';

/**
 * The local twin of EventBridge Scheduler for job definitions with a `schedule`: every
 * `everyMs` it reads the scheduled definitions and runs those whose next time since the last
 * check has come.
 */
export function startLocalScheduler(services: JobServices, now: () => number, everyMs = 10_000): { stop(): void } {
  let lastCheck = now();
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    const checkUntil = now();
    try {
      for (const entry of await services.definitions.schedules()) {
        if (nextRun(entry.schedule, lastCheck) <= checkUntil) {
          await services.jobs.execute(entry.customerCode, entry.jobDefinitionCode).catch((err) =>
            console.error(JSON.stringify({ level: 'ERROR', message: 'scheduled job did not start', ...entry, error: String(err) })),
          );
        }
      }
      lastCheck = checkUntil;
    } catch (err) {
      console.error(JSON.stringify({ level: 'ERROR', message: 'local scheduler failed', error: String(err) }));
    } finally {
      running = false;
    }
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
