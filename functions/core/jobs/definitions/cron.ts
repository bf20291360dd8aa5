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
