// The named built-in jobs a task may run. A task stores only the name and JSON data; nothing
// a user types is ever executed as code. Other modules add theirs with registerJob().
import type { AppContext } from '../../context.ts';
import { purgeRecycleBin, RECYCLE_KEEP_DAYS } from '../../core/recycle.ts';
import { purgeRequestLog } from '../base/sys-log.ts';

export type JobData = Record<string, unknown>;

export interface Job {
  /** What it does, in English (shown in eps and the task screen's hint). */
  description: string;
  /** Answers a short result for the run log (JSON-serialisable). Throw to fail the run. */
  run(ctx: AppContext, data: JobData): Promise<unknown>;
}

const positiveDays = (value: unknown, fallback: number | undefined): number | undefined => {
  if (value === undefined || value === null || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error('data.days must be a whole number of days, at least 1');
  return n;
};

const jobs = new Map<string, Job>([
  [
    'log.purge',
    {
      description: 'Delete request log entries older than the keep days (data.days overrides)',
      async run(ctx, data) {
        return { deleted: await purgeRequestLog(ctx, positiveDays(data.days, undefined)) };
      },
    },
  ],
  [
    'recycle.purge',
    {
      description: `Delete recycle bin entries older than data.days (default ${RECYCLE_KEEP_DAYS})`,
      async run(ctx, data) {
        return { deleted: await purgeRecycleBin(ctx, positiveDays(data.days, RECYCLE_KEEP_DAYS)) };
      },
    },
  ],
]);

export function registerJob(name: string, job: Job): void {
  if (jobs.has(name)) throw new Error(`job ${name} is already registered`);
  jobs.set(name, job);
}

export function getJob(name: string): Job | undefined {
  return jobs.get(name);
}

export function listJobs(): { name: string; description: string }[] {
  return [...jobs].map(([name, job]) => ({ name, description: job.description }));
}
