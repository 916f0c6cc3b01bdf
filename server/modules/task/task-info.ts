// /admin/task/info: scheduled built-in jobs. Beyond CRUD: start, stop, once (run now), and the
// run log (log, deleteLog, deleteLogAll). System tasks (seeded) can be changed and stopped but
// not deleted; tasks added here are user tasks.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { createCrud, MAX_PAGE_SIZE, type ResourceDef } from '../../core/crud.ts';
import { ok } from '../../core/envelope.ts';
import { fail } from '../../core/errors.ts';
import { validate } from '../../core/validate.ts';
import type { Db } from '../../db/index.ts';
import { getJob, listJobs } from './jobs.ts';
import { runTask, schedulerFor, type Task } from './scheduler.ts';
import { cronError, MIN_EVERY_MS, nextRunTime, TASK_KIND, TASK_STATUS, TASK_TYPE, type Schedule } from './schedule.ts';

const timeString = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/)
  .transform((s) => (s.length === 10 ? `${s} 00:00:00` : s.length === 16 ? `${s}:00` : s));
const emptyToNull = (v: unknown) => (v === '' ? null : v);
/** An object, or a string holding one, stored as JSON text. */
const jobData = z
  .union([z.record(z.string(), z.unknown()), z.string().max(10_000)])
  .nullable()
  .optional()
  .transform((v, c) => {
    if (v === undefined || v === null) return v;
    if (typeof v !== 'string') return JSON.stringify(v);
    if (!v.trim()) return null;
    try {
      const parsed: unknown = JSON.parse(v);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return JSON.stringify(parsed);
    } catch {
      // reported below
    }
    c.addIssue({ code: 'custom', message: 'not a JSON object' });
    return z.NEVER;
  });

const taskFields = {
  name: z.string().trim().min(1).max(255),
  taskType: z.coerce.number().int().min(0).max(1).default(TASK_TYPE.cron),
  cron: z.preprocess(emptyToNull, z.string().trim().max(255).nullable().optional()),
  every: z.preprocess(emptyToNull, z.coerce.number().int().min(MIN_EVERY_MS).nullable().optional()),
  service: z.string().trim().min(1).max(255),
  data: jobData,
  status: z.coerce.number().int().min(0).max(1).default(TASK_STATUS.stopped),
  limit: z.preprocess(emptyToNull, z.coerce.number().int().min(1).nullable().optional()),
  startDate: z.preprocess(emptyToNull, timeString.nullable().optional()),
  endDate: z.preprocess(emptyToNull, timeString.nullable().optional()),
  remark: z.string().max(1024).nullable().optional(),
};
const taskAddSchema = z.object(taskFields);
const taskUpdateSchema = z
  .object({
    ...taskFields,
    taskType: z.coerce.number().int().min(0).max(1).optional(),
    status: z.coerce.number().int().min(0).max(1).optional(),
    id: z.coerce.number().int().positive(),
  })
  .partial({ name: true, service: true });

export const taskResource = {
  module: 'task',
  path: 'info',
  name: 'TaskInfo',
  table: 'task_info',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    name: { type: 'string', comment: 'Name' },
    taskType: { type: 'number', comment: 'Schedule: 0 cron, 1 every N ms' },
    cron: { type: 'string', comment: 'Cron expression (server time zone)', nullable: true },
    every: { type: 'number', comment: 'Interval, ms', nullable: true },
    type: { type: 'number', comment: 'Kind: 0 system, 1 user', readonly: true },
    status: { type: 'number', comment: 'Status: 0 stopped, 1 running' },
    service: { type: 'string', comment: 'Built-in job name' },
    data: { type: 'string', comment: 'Job data (JSON object)', nullable: true },
    nextRunTime: { type: 'datetime', comment: 'Next run (UTC)', nullable: true, readonly: true },
    lastRunTime: { type: 'datetime', comment: 'Last run (UTC)', nullable: true, readonly: true },
    limit: { type: 'number', comment: 'Most scheduled runs (empty: no limit)', nullable: true },
    runCount: { type: 'number', comment: 'Scheduled runs so far', readonly: true },
    startDate: { type: 'datetime', comment: 'Not before (UTC)', nullable: true },
    endDate: { type: 'datetime', comment: 'Not after (UTC)', nullable: true },
    remark: { type: 'string', comment: 'Remark', nullable: true },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['name', 'service', 'remark'],
  sortable: ['id', 'name', 'status', 'type', 'nextRunTime', 'lastRunTime', 'createTime'],
  filterable: ['status', 'type', 'service'],
  defaultOrder: ['id', 'asc'],
  addSchema: taskAddSchema,
  updateSchema: taskUpdateSchema,
  extraApi: [
    { method: 'post', path: '/start', summary: 'Start scheduling ({ id })' },
    { method: 'post', path: '/stop', summary: 'Stop scheduling ({ id })' },
    { method: 'post', path: '/once', summary: 'Run now, once ({ id }); answers the run' },
    { method: 'get', path: '/log', summary: 'Runs, newest first (?id=&status=&page=&size=)' },
    { method: 'post', path: '/deleteLog', summary: 'Delete runs ({ ids })' },
    { method: 'post', path: '/deleteLogAll', summary: "Delete a task's runs ({ id }), or all runs" },
    { method: 'get', path: '/jobs', summary: 'The built-in jobs a task may run' },
  ],
} as const satisfies ResourceDef<'task_info', typeof taskAddSchema, typeof taskUpdateSchema>;

/** The row values that follow from a schedule and a status (validated; next run planned). */
function plan(s: Schedule & { status: number }, now: number): { nextRunTime: string | null } {
  if (s.taskType === TASK_TYPE.cron) {
    if (!s.cron) throw fail('taskScheduleRequired');
    if (cronError(s.cron)) throw fail('cronInvalid', { cron: s.cron });
  } else if (!s.every) {
    throw fail('taskScheduleRequired');
  }
  if (s.status !== TASK_STATUS.running) return { nextRunTime: null };
  const next = nextRunTime(s, now);
  if (!next) throw fail('taskNoNextRun');
  return { nextRunTime: next };
}

function checkService(service: string) {
  if (!getJob(service)) throw fail('taskServiceUnknown', { service });
}

async function loadTask(db: Db, id: number): Promise<Task> {
  const task = await db.selectFrom('task_info').selectAll().where('id', '=', id).executeTakeFirst();
  if (!task) throw fail('dataNotFound');
  return task;
}

const idBody = z.object({ id: z.coerce.number().int().positive() });
const logQuery = z.object({
  id: z.coerce.number().int().positive().optional(),
  status: z.coerce.number().int().min(0).max(1).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).default(20).transform((s) => Math.min(s, MAX_PAGE_SIZE)),
});

export function createTaskResource(ctx: AppContext) {
  const scheduler = schedulerFor(ctx);
  const resource = createCrud(ctx, {
    ...taskResource,
    hooks: {
      beforeAdd(data) {
        checkService(data.service);
        const schedule = { ...data, cron: data.cron ?? null, every: data.every ?? null, startDate: data.startDate ?? null, endDate: data.endDate ?? null };
        return { ...data, type: TASK_KIND.user, ...plan(schedule, ctx.clock.now()) };
      },
      async beforeUpdate(data, { trx }) {
        const current = await loadTask(trx, data.id);
        if (data.service !== undefined) checkService(data.service);
        const merged = { ...current, ...Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)) } as Task;
        const changed = ['taskType', 'cron', 'every', 'startDate', 'endDate', 'status', 'limit'].some(
          (k) => (data as Record<string, unknown>)[k] !== undefined && (data as Record<string, unknown>)[k] !== (current as Record<string, unknown>)[k],
        );
        // Keep the planned slot unless the schedule changed.
        const planned = plan(merged, ctx.clock.now());
        const restarted = data.status === TASK_STATUS.running && current.status !== TASK_STATUS.running;
        return { ...data, ...(changed ? planned : {}), ...(restarted ? { runCount: 0 } : {}) };
      },
      afterAdd: () => scheduler.wake(),
      afterUpdate: () => scheduler.wake(),
      async beforeDelete(ids, { trx }) {
        const system = await trx.selectFrom('task_info').select('id').where('id', 'in', ids).where('type', '=', TASK_KIND.system).executeTakeFirst();
        if (system) throw fail('taskSystemDelete');
      },
    },
  });

  // Chained, so that AppType (and the typed client) see the extra calls.
  const routes = resource.routes
    .post('/start', validate('json', idBody), async (c) => {
      const task = await loadTask(ctx.db, c.req.valid('json').id);
      const { nextRunTime } = plan({ ...task, status: TASK_STATUS.running }, ctx.clock.now());
      await ctx.db
        .updateTable('task_info')
        .set({ status: TASK_STATUS.running, nextRunTime, runCount: 0, updateTime: formatTime(ctx.clock.now()) })
        .where('id', '=', task.id)
        .execute();
      scheduler.wake();
      return ok(c, { nextRunTime });
    })
    .post('/stop', validate('json', idBody), async (c) => {
      const task = await loadTask(ctx.db, c.req.valid('json').id);
      await ctx.db
        .updateTable('task_info')
        .set({ status: TASK_STATUS.stopped, nextRunTime: null, updateTime: formatTime(ctx.clock.now()) })
        .where('id', '=', task.id)
        .execute();
      scheduler.wake();
      return ok(c, null);
    })
    .post('/once', validate('json', idBody), async (c) => {
      const task = await loadTask(ctx.db, c.req.valid('json').id);
      return ok(c, await runTask(ctx, task, 'manual'));
    })
    .get('/log', validate('query', logQuery), async (c) => {
      const { id, status, page, size } = c.req.valid('query');
      let q = ctx.db.selectFrom('task_log as l').innerJoin('task_info as t', 't.id', 'l.taskId');
      if (id !== undefined) q = q.where('l.taskId', '=', id);
      if (status !== undefined) q = q.where('l.status', '=', status);
      const { total } = await q.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
      const list = await q
        .select(['l.id', 'l.taskId', 't.name as taskName', 'l.status', 'l.trigger', 'l.timeMs', 'l.detail', 'l.createTime'])
        .orderBy('l.id', 'desc')
        .limit(size)
        .offset((page - 1) * size)
        .execute();
      return ok(c, { list, pagination: { page, size, total: Number(total) } });
    })
    .post('/deleteLog', validate('json', z.object({ ids: z.array(z.coerce.number().int()).min(1).max(1000) })), async (c) => {
      await ctx.db.deleteFrom('task_log').where('id', 'in', c.req.valid('json').ids).execute();
      return ok(c, null);
    })
    .post('/deleteLogAll', validate('json', z.object({ id: z.coerce.number().int().positive().optional() })), async (c) => {
      const { id } = c.req.valid('json');
      await (id === undefined ? ctx.db.deleteFrom('task_log') : ctx.db.deleteFrom('task_log').where('taskId', '=', id)).execute();
      return ok(c, null);
    })
    .get('/jobs', async (c) => ok(c, listJobs()));
  return { ...resource, routes };
}
