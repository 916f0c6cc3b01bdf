// /admin/base/sys/release: versions and their release notes (markdown). The public
// GET /admin/base/open/release answers the latest released notes (with `readed` for a caller
// who sends a token); GET toReaded marks them read so the client shows them once per user.
// /version.json answers the running build's version (package.json), not these rows: a client
// reloading for a version that no build serves would reload forever.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import type { AppEnv } from '../../core/env.ts';
import type { EpsDoc } from '../../core/eps.ts';
import { ok } from '../../core/envelope.ts';
import { fail, unauthorized } from '../../core/errors.ts';
import { tokenFromHeader, verifyAccessToken } from '../../core/tokens.ts';
import { validate } from '../../core/validate.ts';
import type { Db } from '../../db/index.ts';

const timeString = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/)
  .transform((s) => (s.length === 10 ? `${s} 00:00:00` : s.length === 16 ? `${s}:00` : s));
const releaseFields = {
  version: z.string().trim().min(1).max(64).regex(/^[\w.+-]+$/),
  title: z.string().trim().min(1).max(255),
  content: z.string().max(200_000).nullable().optional(),
  forceUpdate: z.union([z.boolean(), z.coerce.number().int().min(0).max(1)]).transform(Number).default(0),
  releaseTime: timeString,
};
const releaseAddSchema = z.object(releaseFields);
const releaseUpdateSchema = z
  .object({ ...releaseFields, forceUpdate: releaseFields.forceUpdate.optional(), id: z.coerce.number().int().positive() })
  .partial({ version: true, title: true, releaseTime: true });

export const releaseResource = {
  module: 'base',
  path: 'sys/release',
  name: 'BaseSysRelease',
  table: 'base_sys_release',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    version: { type: 'string', comment: 'Version (unique)' },
    title: { type: 'string', comment: 'Title' },
    content: { type: 'string', comment: 'Release notes (markdown)', nullable: true },
    forceUpdate: { type: 'number', comment: 'Force update: 0 no, 1 yes' },
    releaseTime: { type: 'datetime', comment: 'Release time (UTC)' },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['version', 'title'],
  sortable: ['id', 'version', 'releaseTime', 'createTime', 'updateTime'],
  filterable: ['forceUpdate'],
  defaultOrder: ['releaseTime', 'desc'],
  addSchema: releaseAddSchema,
  updateSchema: releaseUpdateSchema,
  recycle: true,
  extraApi: [{ method: 'get', path: '/toReaded', summary: 'Mark the latest (or ?id=) release notes read by the caller' }],
} as const satisfies ResourceDef<'base_sys_release', typeof releaseAddSchema, typeof releaseUpdateSchema>;

/** The newest release whose releaseTime has come. */
export async function latestRelease(ctx: Pick<AppContext, 'db' | 'clock'>) {
  return ctx.db
    .selectFrom('base_sys_release')
    .select(['id', 'version', 'title', 'content', 'forceUpdate', 'releaseTime'])
    .where('releaseTime', '<=', formatTime(ctx.clock.now()))
    .orderBy('releaseTime', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

async function ensureUniqueVersion(db: Db, version: string, exceptId?: number) {
  let q = db.selectFrom('base_sys_release').select('id').where('version', '=', version);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw fail('releaseVersionTaken');
}

export function createReleaseResource(ctx: AppContext) {
  const resource = createCrud(ctx, {
    ...releaseResource,
    hooks: {
      async beforeAdd(data, { trx }) {
        await ensureUniqueVersion(trx, data.version);
        return data;
      },
      async beforeUpdate(data, { trx }) {
        if (data.version !== undefined) await ensureUniqueVersion(trx, data.version, data.id);
        return data;
      },
      // Who read the notes comes back with them.
      async related(row, { trx }) {
        return { base_sys_release_read: await trx.selectFrom('base_sys_release_read').selectAll().where('releaseId', '=', Number(row.id)).execute() };
      },
    },
  });
  // Any logged-in user (see LOGIN_ONLY_PATHS in core/auth.ts). Chained, so that AppType (and the
  // typed client) see the extra call.
  const routes = resource.routes.get('/toReaded', validate('query', z.object({ id: z.coerce.number().int().positive().optional() })), async (c) => {
    const auth = c.get('auth');
    if (!auth) throw unauthorized();
    const { id } = c.req.valid('query');
    const release = id
      ? await ctx.db.selectFrom('base_sys_release').select('id').where('id', '=', id).executeTakeFirst()
      : await latestRelease(ctx);
    if (!release) throw fail('dataNotFound');
    await ctx.db
      .insertInto('base_sys_release_read')
      .values({ userId: auth.userId, releaseId: release.id, createTime: formatTime(ctx.clock.now()) })
      .onConflict((oc) => oc.columns(['userId', 'releaseId']).doNothing())
      .execute();
    return ok(c, null);
  });
  return { ...resource, routes };
}

/** Mounted under /admin/base/open; `doc` describes it in eps. */
export function releaseOpenRoutes(ctx: AppContext, doc: EpsDoc) {
  return new Hono<AppEnv>().get('/release', doc('Latest release notes (readed: whether the caller read them, or joined after they were released)'), async (c) => {
    const release = await latestRelease(ctx);
    if (!release) return ok(c, null);
    const token = tokenFromHeader(c.req.header('authorization'));
    let readed: boolean | undefined;
    if (token) {
      // The token is optional here: an invalid one just leaves `readed` out.
      const auth = await verifyAccessToken(ctx, token).catch(() => undefined);
      if (auth) {
        // Notes of a release published before the account existed are not news to its user:
        // they count as read, so brand-new users are not greeted with old notes.
        const user = await ctx.db.selectFrom('base_sys_user').select('createTime').where('id', '=', auth.userId).executeTakeFirst();
        readed =
          (!!user?.createTime && String(user.createTime) >= String(release.releaseTime)) ||
          !!(await ctx.db
            .selectFrom('base_sys_release_read')
            .select('id')
            .where('userId', '=', auth.userId)
            .where('releaseId', '=', release.id)
            .executeTakeFirst());
      }
    }
    return ok(c, { ...release, forceUpdate: release.forceUpdate === 1, ...(readed === undefined ? {} : { readed }) });
  });
}
