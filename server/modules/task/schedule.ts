// When a task runs next: a cron expression (croner, in the server's time zone) or every N ms,
// within startDate..endDate. Pure functions of the task and an instant, so tests move a clock.
import { Cron } from 'croner';
import { formatTime } from '../../core/clock.ts';

export const TASK_TYPE = { cron: 0, every: 1 } as const;
export const TASK_KIND = { system: 0, user: 1 } as const;
export const TASK_STATUS = { stopped: 0, running: 1 } as const;
export const MIN_EVERY_MS = 1000;

export interface Schedule {
  taskType: number;
  cron: string | null;
  every: number | null;
  startDate: string | null;
  endDate: string | null;
}

/** "YYYY-MM-DD HH:mm:ss" (UTC) -> epoch ms. */
export function parseTime(text: string): number {
  return Date.parse(text.replace(' ', 'T') + 'Z');
}

/** The reason a cron expression is rejected, or undefined when croner accepts it. */
export function cronError(pattern: string): string | undefined {
  try {
    new Cron(pattern, { paused: true });
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message.replace(/^CronPattern:\s*/, '') : String(err);
  }
}

/** The next run strictly after `fromMs`, as stored text, or null when none is left. */
export function nextRunTime(s: Schedule, fromMs: number): string | null {
  const start = s.startDate ? parseTime(s.startDate) : undefined;
  const end = s.endDate ? parseTime(s.endDate) : undefined;
  let next: number | undefined;
  if (s.taskType === TASK_TYPE.every) {
    if (!s.every || s.every < MIN_EVERY_MS) return null;
    next = start !== undefined && start > fromMs ? start : fromMs + s.every;
  } else {
    if (!s.cron) return null;
    const after = start !== undefined && start > fromMs ? start - 1000 : fromMs;
    next = new Cron(s.cron, { paused: true }).nextRun(new Date(after))?.getTime();
  }
  if (next === undefined || Number.isNaN(next) || (end !== undefined && next > end)) return null;
  return formatTime(next);
}
