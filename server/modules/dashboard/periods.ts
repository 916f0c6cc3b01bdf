// Periods of the home dashboard (spec "Home dashboard": day, week, month, year, all) and their
// time buckets. Times are the stored "YYYY-MM-DD HH:mm:ss" UTC strings, so a bucket is a prefix.
import { formatTime } from '../../core/clock.ts';

export const PERIODS = ['day', 'week', 'month', 'year', 'all'] as const;
export type Period = (typeof PERIODS)[number];

export type Unit = 'hour' | 'day' | 'month';

/** Length of the time-string prefix that names a bucket of the unit. */
export const KEY_LENGTH: Record<Unit, number> = { hour: 13, day: 10, month: 7 };

export interface Range {
  period: Period;
  /** First instant counted ("YYYY-MM-DD HH:mm:ss"), or null for all time. */
  start: string | null;
  unit: Unit;
}

const DAY = 86_400_000;

function startOfDay(ms: number): number {
  return Math.floor(ms / DAY) * DAY;
}

function monthStart(ms: number, monthsBack: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - monthsBack, 1);
}

export function isPeriod(value: unknown): value is Period {
  return typeof value === 'string' && (PERIODS as readonly string[]).includes(value);
}

/** The range of a period ending now: today by hours, 7 or 30 days by days, 12 months or all by months. */
export function rangeOf(period: Period, now: number): Range {
  switch (period) {
    case 'day':
      return { period, start: formatTime(startOfDay(now)), unit: 'hour' };
    case 'week':
      return { period, start: formatTime(startOfDay(now) - 6 * DAY), unit: 'day' };
    case 'month':
      return { period, start: formatTime(startOfDay(now) - 29 * DAY), unit: 'day' };
    case 'year':
      return { period, start: formatTime(monthStart(now, 11)), unit: 'month' };
    case 'all':
      return { period, start: null, unit: 'month' };
  }
}

/** Most months an "all" series spans (older data is summed into the first bucket's totals only). */
export const MAX_MONTHS = 120;

/**
 * The bucket keys from `start` (or `earliest` for all time) to now, in order: 24 hours, 7 or 30
 * days, 12 months, or the months since the earliest record.
 */
export function bucketKeys(range: Range, now: number, earliest: string | null): string[] {
  const keys: string[] = [];
  if (range.unit === 'hour') {
    const day = startOfDay(now);
    for (let h = 0; h < 24; h++) keys.push(formatTime(day + h * 3_600_000).slice(0, KEY_LENGTH.hour));
  } else if (range.unit === 'day') {
    const from = Date.parse(`${range.start!.replace(' ', 'T')}Z`);
    for (let t = from; t <= now; t += DAY) keys.push(formatTime(t).slice(0, KEY_LENGTH.day));
  } else {
    const first = range.start ?? earliest ?? formatTime(now);
    const d = new Date(now);
    const [y, m] = first.slice(0, 7).split('-').map(Number) as [number, number];
    let months = (d.getUTCFullYear() - y) * 12 + (d.getUTCMonth() + 1 - m);
    months = Math.min(Math.max(months, 0), MAX_MONTHS - 1);
    for (let i = months; i >= 0; i--) keys.push(formatTime(monthStart(now, i)).slice(0, KEY_LENGTH.month));
  }
  return keys;
}
