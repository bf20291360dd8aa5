import { CronExpressionParser } from 'cron-parser';
import { BadRequestError } from '../../../http/errors';

/** Checks a five-field cron expression (UTC); a 400 says what is wrong. */
export function checkSchedule(schedule: string): string {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5) throw new BadRequestError('schedule: a cron expression has five fields: minute hour day-of-month month day-of-week', 'InvalidSchedule');
  try {
    CronExpressionParser.parse(schedule, { tz: 'UTC' });
  } catch (err) {
    throw new BadRequestError(`schedule: ${(err as Error).message}`, 'InvalidSchedule');
  }
  return fields.join(' ');
}

/** The first time the schedule fires after `after` (epoch ms). */
export function nextRun(schedule: string, after: number): number {
  return CronExpressionParser.parse(schedule, { tz: 'UTC', currentDate: new Date(after) }).next().getTime();
}

/**
 * The same schedule in EventBridge Scheduler's form, `cron(min hour dom month dow year)`,
 * where one of day-of-month and day-of-week must be `?` and days of the week count from 1.
 */
export function toEventBridgeCron(schedule: string): string {
  const [minute, hour, dom, month, dow] = schedule.trim().split(/\s+/);
  const weekday = dow === '*' ? '?' : dow.replace(/\d/g, (d) => String((Number(d) % 7) + 1));
  const day = weekday === '?' ? dom : dom === '*' ? '?' : dom;
  return `cron(${minute} ${hour} ${day} ${month} ${weekday} *)`;
}
