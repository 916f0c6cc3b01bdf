// Runs due tasks. The database is the schedule: each running task holds its nextRunTime, and
// tick() runs those that are due by ctx.clock, claiming each with a conditional update so two
// processes never run the same slot. On the server one timer calls tick() when the next task
// falls due (at least once a minute, to see changes made elsewhere); tests call tick() directly.
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { Code } from '../../core/envelope.ts';
import { ApiError } from '../../core/errors.ts';
import { t } from '../../core/i18n.ts';
import type { Selectable } from 'kysely';
import type { TaskInfoTable } from '../../db/schema.ts';
import { getJob, type JobData } from './jobs.ts';
import { nextRunTime, parseTime, TASK_STATUS } from './schedule.ts';

export type Task = Selectable<TaskInfoTable>;
export type Trigger = 'schedule' | 'manual';

export interface TaskRun {
  id: number;
  taskId: number;
  status: number;
  trigger: Trigger;
  timeMs: number;
  detail: string | null;
  createTime: string;
}

const MAX_DETAIL = 4000;
const MAX_SLEEP_MS = 60_000;
const MIN_SLEEP_MS = 200;

function parseData(text: string | null): JobData {
  if (!text) return {};
  const value: unknown = JSON.parse(text);
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('task data is not a JSON object');
  return value as JobData;
}

/** Runs the task's job once and writes the run to task_log (also when it fails). */
export async function runTask(ctx: AppContext, task: Task, trigger: Trigger): Promise<TaskRun> {
  const started = performance.now();
  const at = formatTime(ctx.clock.now());
  let status = 1;
  let detail: string | null = null;
  try {
    const job = getJob(task.service);
    if (!job) throw new ApiError(Code.fail, 'jobUnavailable', 200, { service: task.service });
    const result = await job.run(ctx, parseData(task.data));
    detail = result === undefined ? null : typeof result === 'string' ? result : JSON.stringify(result);
  } catch (err) {
    status = 0;
    detail = err instanceof ApiError ? t('en', err.key, err.params) : err instanceof Error ? err.message : String(err);
    ctx.logger.warn(`task ${task.id} (${task.service}) failed: ${detail}`);
  }
  if (detail && detail.length > MAX_DETAIL) detail = detail.slice(0, MAX_DETAIL) + '…';
  const timeMs = Math.round(performance.now() - started);
  const row = await ctx.db
    .insertInto('task_log')
    .values({ taskId: task.id, status, trigger, timeMs, detail, createTime: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ctx.db.updateTable('task_info').set({ lastRunTime: at }).where('id', '=', task.id).execute();
  return { id: row.id, taskId: task.id, status, trigger, timeMs, detail, createTime: at };
}

export interface Scheduler {
  /** Runs every running task that is due now; answers how many ran. */
  tick(): Promise<number>;
  /** Starts the timer (the server does; tests usually call tick()). */
  start(): void;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
  /** Re-plans the timer after a task changed. */
  wake(): void;
}

async function tick(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  const nowText = formatTime(now);
  const due = await ctx.db
    .selectFrom('task_info')
    .selectAll()
    .where('status', '=', TASK_STATUS.running)
    .where((eb) => eb.or([eb('nextRunTime', 'is', null), eb('nextRunTime', '<=', nowText)]))
    .orderBy('nextRunTime', 'asc')
    .execute();
  let ran = 0;
  for (const task of due) {
    if (task.nextRunTime === null) {
      // Running but never planned (seeded, or planned by an older version): plan, do not run.
      const next = nextRunTime(task, now);
      await ctx.db
        .updateTable('task_info')
        .set(next ? { nextRunTime: next } : { status: TASK_STATUS.stopped })
        .where('id', '=', task.id)
        .where('nextRunTime', 'is', null)
        .execute();
      continue;
    }
    const runCount = task.runCount + 1;
    const next = task.limit !== null && runCount >= task.limit ? null : nextRunTime(task, now);
    const claim = await ctx.db
      .updateTable('task_info')
      .set({ runCount, nextRunTime: next, ...(next ? {} : { status: TASK_STATUS.stopped }) })
      .where('id', '=', task.id)
      .where('status', '=', TASK_STATUS.running)
      .where('nextRunTime', '=', task.nextRunTime)
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) continue;
    await runTask(ctx, task, 'schedule');
    ran++;
  }
  return ran;
}

function createScheduler(ctx: AppContext): Scheduler {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let current: Promise<unknown> | undefined;

  async function sleepTime(): Promise<number> {
    const row = await ctx.db
      .selectFrom('task_info')
      .select((eb) => eb.fn.min('nextRunTime').as('next'))
      .where('status', '=', TASK_STATUS.running)
      .executeTakeFirst();
    if (!row?.next) return MAX_SLEEP_MS;
    return Math.min(MAX_SLEEP_MS, Math.max(MIN_SLEEP_MS, parseTime(row.next) - ctx.clock.now()));
  }

  function plan(delay: number) {
    if (!running) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(loop, delay);
    // The timer alone never keeps the process alive.
    timer.unref?.();
  }

  function loop() {
    timer = undefined;
    if (current) return;
    current = tick(ctx)
      .then(() => sleepTime())
      .catch((err) => {
        ctx.logger.error('task scheduler tick failed', err);
        return MAX_SLEEP_MS;
      })
      .then((delay) => {
        current = undefined;
        plan(delay);
      });
  }

  return {
    tick: () => tick(ctx),
    start() {
      if (running) return;
      running = true;
      plan(0);
    },
    async stop() {
      running = false;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await current;
    },
    wake() {
      if (running && !current) plan(0);
    },
  };
}

const schedulers = new WeakMap<AppContext, Scheduler>();

/** The one scheduler of a context (created stopped). */
export function schedulerFor(ctx: AppContext): Scheduler {
  let s = schedulers.get(ctx);
  if (!s) schedulers.set(ctx, (s = createScheduler(ctx)));
  return s;
}
