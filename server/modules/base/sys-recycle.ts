// /admin/recycle/data: the recycle bin of the resources built with `recycle: true`. page/info show
// what was deleted, by whom and when (hidden columns such as password hashes left out); `restore`
// puts entries back with their ids; `delete` purges entries for good.
//
// Deleted data keeps its owner's protection. A superadmin sees and restores everything. Anyone
// else sees only entries of resources they may read, never users, roles, menus or departments
// (restoring them would hand out rights without the checks their forms make), and orders only
// with the "all orders" grant; and restores an entry only if they may add that kind of data.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import type { AppEnv } from '../../core/env.ts';
import { ok } from '../../core/envelope.ts';
import { authOf, SEE_ALL } from '../../core/access.ts';
import { fail } from '../../core/errors.ts';
import { loadAccess, permFromPath, type Access } from '../../core/perms.ts';
import { recyclableTables, restoreFromRecycleBin, visibleData } from '../../core/recycle.ts';
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
} as const satisfies ResourceDef<'recycle_data'>;

const restoreSchema = z.object({ ids: z.array(z.coerce.number().int().positive()).min(1).max(1000) });

/** Tables whose rows carry rights: only a superadmin brings them back. */
const RIGHTS_TABLES = new Set(['base_sys_user', 'base_sys_role', 'base_sys_menu', 'base_sys_department']);
/** Tables whose rows belong to one user; their entries need the area's "see all" grant. */
const OWNED_TABLES: Record<string, string> = { order_info: SEE_ALL.orders };

/** The tables whose entries a non-superadmin may see. */
function visibleTables(access: Access): string[] {
  const tables: string[] = [];
  for (const [table, { prefix }] of recyclableTables()) {
    if (RIGHTS_TABLES.has(table)) continue;
    const seeAll = OWNED_TABLES[table];
    if (seeAll && !access.perms.has(seeAll)) continue;
    const reads = ['info', 'page', 'list'].some((action) => access.perms.has(permFromPath(`${prefix}/${action}`)!));
    if (reads) tables.push(table);
  }
  return tables;
}

export function createRecycleResource(ctx: AppContext) {
  const showData = (row: Record<string, unknown>) => ({ ...row, data: typeof row.data === 'string' ? visibleData(row.data) : row.data });
  const resource = createCrud(ctx, {
    ...recycleResource,
    hooks: {
      decorateList: (rows) => rows.map(showData),
      decorate: (row) => showData(row),
      scope: async ({ c }) => {
        const access = await loadAccess(ctx.db, authOf(c).userId);
        return access.isSuper ? undefined : { tableName: visibleTables(access) };
      },
    },
  });
  // Chained, so that AppType (and the typed client) see the extra call.
  const routes = resource.routes.post('/restore', validate('json', restoreSchema), async (c) => {
    const { ids } = c.req.valid('json');
    const access = await loadAccess(ctx.db, authOf(c).userId);
    const entries = await resource
      .within(ctx.db.selectFrom('recycle_data').select(['id', 'rowId', 'entity', 'prefix']).where('id', 'in', ids), await resource.scopeOf(c))
      .execute();
    if (entries.length < new Set(ids).size) throw fail('dataNotFound');
    for (const entry of entries) {
      if (!access.isSuper && !access.perms.has(permFromPath(`${entry.prefix}/add`)!)) {
        throw fail('recycleRestoreDenied', { name: entry.entity, id: entry.rowId });
      }
    }
    const restored = await ctx.db.transaction().execute((trx) => restoreFromRecycleBin(trx, ids));
    return ok(c, { restored });
  });
  return { ...resource, routes };
}

/** Mounted by app.ts; listed in eps under the module `recycle`. */
export function recycleModule(ctx: AppContext) {
  const r = createRecycleResource(ctx);
  return new Hono<AppEnv>().route(r.prefix, r.routes);
}
