// /admin/design: the editor's design document of an order. Who may read or save it is exactly
// who sees the order (its designer, or an orders admin); the permissions are design:save and
// design:getDesignData. Saves are optimistic: each names the version it was based on, and a
// save based on an older version is refused, so two tabs never silently overwrite each other.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import type { AppEnv } from '../../core/env.ts';
import { addEps, type Eps } from '../../core/eps.ts';
import { ok } from '../../core/envelope.ts';
import { fail } from '../../core/errors.ts';
import { validate } from '../../core/validate.ts';
import type { Db } from '../../db/index.ts';
import { authOf, SEE_ALL, seesAll } from '../../core/access.ts';

/** The newest document format this server accepts (the client's DESIGN_SCHEMA_VERSION). */
export const MAX_SCHEMA_VERSION = 1;
/** Largest document, as JSON text: measurements, outlines and transforms, never meshes. */
export const DESIGN_MAX_BYTES = 1024 * 1024;

const document = z
  .object({ schemaVersion: z.number().int().positive() })
  .passthrough();
const saveSchema = z.object({
  orderId: z.coerce.number().int().positive(),
  data: document,
  /** The version the client's document was based on: 0 for the first save. */
  baseVersion: z.number().int().min(0),
});
const getSchema = z.object({ orderId: z.coerce.number().int().positive() });

export interface DesignRecord {
  orderId: number;
  version: number;
  schemaVersion: number;
  data: Record<string, unknown>;
  updateTime: string;
}

/** The order, if this user may design it (the order list's scope). */
async function visibleOrder(db: Db, userId: number, orderId: number): Promise<boolean> {
  let query = db.selectFrom('order_info').select('id').where('id', '=', orderId);
  if (!(await seesAll(db, userId, SEE_ALL.orders))) query = query.where('designerId', '=', userId);
  return !!(await query.executeTakeFirst());
}

async function currentVersion(db: Db, orderId: number): Promise<number> {
  const row = await db.selectFrom('design_data').select('version').where('orderId', '=', orderId).executeTakeFirst();
  return row?.version ?? 0;
}

export function designModule(ctx: AppContext, eps: Eps) {
  const routes = new Hono<AppEnv>()
    .post('/admin/design/save', validate('json', saveSchema), async (c) => {
      const { userId } = authOf(c);
      const { orderId, data, baseVersion } = c.req.valid('json');
      if (!(await visibleOrder(ctx.db, userId, orderId))) throw fail('designOrderNotFound');
      if (data.schemaVersion > MAX_SCHEMA_VERSION) throw fail('designSchemaUnsupported', { schemaVersion: data.schemaVersion });
      const text = JSON.stringify(data);
      const bytes = new TextEncoder().encode(text).length;
      if (bytes > DESIGN_MAX_BYTES) {
        throw fail('designTooLarge', { size: Math.ceil(bytes / 1024), max: DESIGN_MAX_BYTES / 1024 });
      }
      const now = formatTime(ctx.clock.now());
      const version = baseVersion + 1;
      const values = { version, schemaVersion: data.schemaVersion, data: text, userId, updateTime: now };
      // The version check is part of the write itself, so concurrent saves cannot both pass it.
      let written: boolean;
      if (baseVersion === 0) {
        const result = await ctx.db
          .insertInto('design_data')
          .values({ orderId, createTime: now, ...values })
          .onConflict((oc) => oc.column('orderId').doNothing())
          .executeTakeFirst();
        written = Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
      } else {
        const result = await ctx.db
          .updateTable('design_data')
          .set(values)
          .where('orderId', '=', orderId)
          .where('version', '=', baseVersion)
          .executeTakeFirst();
        written = Number(result.numUpdatedRows) === 1;
      }
      if (!written) throw fail('designStale', { version: await currentVersion(ctx.db, orderId) });
      return ok(c, { orderId, version, updateTime: now });
    })
    .get('/admin/design/getDesignData', validate('query', getSchema), async (c) => {
      const { userId } = authOf(c);
      const { orderId } = c.req.valid('query');
      if (!(await visibleOrder(ctx.db, userId, orderId))) throw fail('designOrderNotFound');
      const row = await ctx.db
        .selectFrom('design_data')
        .select(['orderId', 'version', 'schemaVersion', 'data', 'updateTime'])
        .where('orderId', '=', orderId)
        .executeTakeFirst();
      const record: DesignRecord | null = row ? { ...row, data: JSON.parse(row.data) as Record<string, unknown> } : null;
      return ok(c, record);
    });
  addEps(eps, 'design', {
    prefix: '/admin/design',
    name: 'Design',
    columns: [],
    api: [
      { method: 'post', path: '/save', summary: 'Save the design document of an order (optimistic: baseVersion)' },
      { method: 'get', path: '/getDesignData', summary: 'The latest design document of an order, or null' },
    ],
  });
  return routes;
}
