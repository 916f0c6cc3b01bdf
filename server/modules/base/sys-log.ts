// /admin/base/sys/log: the request log, read-only, plus how many days it keeps (setKeep,
// getKeep), clearing it all, and the purge the daily system task runs. (The size bound,
// LOG_MAX_MB, is kept by the writer: core/request-log.ts.)
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { ok } from '../../core/envelope.ts';
import { validate } from '../../core/validate.ts';
import type { Db } from '../../db/index.ts';

export const LOG_KEEP_KEY = 'logKeep';
export const DEFAULT_LOG_KEEP_DAYS = 30;
export const MAX_LOG_KEEP_DAYS = 3650;
const DAY_MS = 24 * 60 * 60 * 1000;

export const logResource = {
  module: 'base',
  path: 'sys/log',
  name: 'BaseSysLog',
  table: 'base_sys_log',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    userId: { type: 'number', comment: 'User ID', nullable: true },
    username: { type: 'string', comment: 'Username', nullable: true },
    action: { type: 'string', comment: 'Route' },
    method: { type: 'string', comment: 'HTTP method' },
    status: { type: 'number', comment: 'HTTP status' },
    timeMs: { type: 'number', comment: 'Time taken, ms' },
    ip: { type: 'string', comment: 'IP' },
    params: { type: 'json', comment: 'Parameters (secrets redacted)', nullable: true },
    createTime: { type: 'datetime', comment: 'Time', readonly: true },
  },
  actions: ['page'],
  keyWordColumns: ['action', 'username', 'ip'],
  sortable: ['id', 'createTime', 'timeMs', 'status', 'action', 'username', 'ip', 'method'],
  filterable: ['userId', 'method', 'status'],
  defaultOrder: ['id', 'desc'],
  extraApi: [
    { method: 'post', path: '/setKeep', summary: 'Set how many days the log keeps ({ value })' },
    { method: 'get', path: '/getKeep', summary: 'How many days the log keeps' },
    { method: 'post', path: '/clear', summary: 'Delete every entry' },
  ],
} as const satisfies ResourceDef<'base_sys_log'>;

export async function getLogKeepDays(db: Db): Promise<number> {
  const row = await db.selectFrom('base_sys_conf').select('cValue').where('cKey', '=', LOG_KEEP_KEY).executeTakeFirst();
  const days = Number(row?.cValue);
  return Number.isInteger(days) && days > 0 ? days : DEFAULT_LOG_KEEP_DAYS;
}

export async function setLogKeepDays(db: Db, days: number): Promise<void> {
  await db
    .insertInto('base_sys_conf')
    .values({ cKey: LOG_KEEP_KEY, cValue: String(days) })
    .onConflict((oc) => oc.column('cKey').doUpdateSet({ cValue: String(days) }))
    .execute();
}

/** Deletes entries older than the keep days; answers how many went. */
export async function purgeRequestLog(ctx: Pick<AppContext, 'db' | 'clock'>, days?: number): Promise<number> {
  const keep = days ?? (await getLogKeepDays(ctx.db));
  const cutoff = formatTime(ctx.clock.now() - keep * DAY_MS);
  const result = await ctx.db.deleteFrom('base_sys_log').where('createTime', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

const keepSchema = z.object({ value: z.coerce.number().int().min(1).max(MAX_LOG_KEEP_DAYS) });

export function createLogResource(ctx: AppContext) {
  const resource = createCrud(ctx, logResource);
  // Chained, so that AppType (and the typed client) see the extra calls.
  const routes = resource.routes
    .post('/setKeep', validate('json', keepSchema), async (c) => {
      await setLogKeepDays(ctx.db, c.req.valid('json').value);
      return ok(c, null);
    })
    .get('/getKeep', async (c) => ok(c, await getLogKeepDays(ctx.db)))
    .post('/clear', async (c) => {
      await ctx.db.deleteFrom('base_sys_log').execute();
      return ok(c, null);
    });
  return { ...resource, routes };
}
