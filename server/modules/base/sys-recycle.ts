// /admin/recycle/data: the recycle bin of the resources built with `recycle: true`. page/info show
// what was deleted, by whom and when (hidden columns such as password hashes left out); `restore`
// puts entries back with their ids; `delete` purges entries for good.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import type { AppEnv } from '../../core/env.ts';
import { ok } from '../../core/envelope.ts';
import { addEps, type Eps } from '../../core/eps.ts';
import { restoreFromRecycleBin, visibleData } from '../../core/recycle.ts';
import { validate } from '../../core/validate.ts';

export const recycleResource = {
  module: 'recycle',
  path: 'data',
  name: 'RecycleData',
  table: 'recycle_data',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    entity: { type: 'string', comment: 'Entity' },
    prefix: { type: 'string', comment: 'Resource prefix' },
    tableName: { type: 'string', comment: 'Table' },
    rowId: { type: 'number', comment: 'ID of the deleted row' },
    data: { type: 'json', comment: 'The deleted row' },
    userId: { type: 'number', comment: 'Deleted by (user ID)', nullable: true },
    userName: { type: 'string', comment: 'Deleted by', nullable: true },
    createTime: { type: 'datetime', comment: 'Deleted at', readonly: true },
  },
  actions: ['delete', 'info', 'page'],
  keyWordColumns: ['entity', 'prefix', 'userName'],
  sortable: ['id', 'entity', 'rowId', 'userName', 'createTime'],
  filterable: ['entity', 'prefix', 'userId'],
  defaultOrder: ['id', 'desc'],
  extraApi: [{ method: 'post', path: '/restore', summary: 'Put entries back with their ids ({ ids })' }],
} satisfies ResourceDef;

const restoreSchema = z.object({ ids: z.array(z.coerce.number().int().positive()).min(1).max(1000) });

export function createRecycleResource(ctx: AppContext) {
  const showData = (row: Record<string, unknown>) => ({ ...row, data: typeof row.data === 'string' ? visibleData(row.data) : row.data });
  const resource = createCrud(ctx, {
    ...recycleResource,
    hooks: {
      decorateList: (rows) => rows.map(showData),
      decorate: (row) => showData(row),
    },
  });
  resource.routes.post('/restore', validate('json', restoreSchema), async (c) => {
    const { ids } = c.req.valid('json');
    const restored = await ctx.db.transaction().execute((trx) => restoreFromRecycleBin(trx, ids));
    return ok(c, { restored });
  });
  return resource;
}

/** Mounted by app.ts; listed in eps under the module `recycle`. */
export function recycleModule(ctx: AppContext, eps: Eps) {
  const r = createRecycleResource(ctx);
  addEps(eps, 'recycle', r.eps);
  return new Hono<AppEnv>().route(r.prefix, r.routes);
}
