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
