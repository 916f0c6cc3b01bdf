// /admin/base/sys/department: the department tree. `list` answers every department the caller may
// see (the client builds the tree by parentId); `order` moves and reorders a batch at once.
// Deleting a department never loses data: its child departments and its users move up to its
// parent (to the top level, users to no department, when it was a root).
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { ok } from '../../core/envelope.ts';
import { fail, invalidField } from '../../core/errors.ts';
import { departmentScope } from '../../core/grants.ts';
import { locationColumns, locationFields } from '../../core/location.ts';
import { validate } from '../../core/validate.ts';
import type { Database } from '../../db/schema.ts';

const name = z.string().trim().min(1).max(255);
const parentId = z.coerce.number().int().positive().nullable().optional();
const orderNum = z.coerce.number().int().min(-1_000_000).max(1_000_000);

export const departmentAddSchema = z.object({ name, parentId, orderNum: orderNum.default(0), ...locationFields });
export const departmentUpdateSchema = z.object({
  id: z.coerce.number().int().positive(),
  name: name.optional(),
  parentId,
  orderNum: orderNum.optional(),
  ...locationFields,
});
const orderItem = z.object({ id: z.coerce.number().int().positive(), parentId, orderNum });
/** `POST order`: an array of `{ id, parentId, orderNum }`, or `{ list: [...] }`. */
export const departmentOrderSchema = z.union([
  z.array(orderItem).min(1).max(1000),
  z.object({ list: z.array(orderItem).min(1).max(1000) }),
]);

export const departmentResource = {
  module: 'base',
  path: 'sys/department',
  name: 'BaseSysDepartment',
  table: 'base_sys_department',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    name: { type: 'string', comment: 'Name' },
    parentId: { type: 'number', comment: 'Parent department ID', nullable: true },
    orderNum: { type: 'number', comment: 'Order among siblings' },
    ...locationColumns,
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list'],
  keyWordColumns: ['name'],
  sortable: ['id', 'name', 'orderNum', 'createTime'],
  filterable: ['parentId'],
  defaultOrder: ['orderNum', 'asc'],
  addSchema: departmentAddSchema,
  updateSchema: departmentUpdateSchema,
  recycle: true,
  extraApi: [{ method: 'post', path: '/order', summary: 'Move and reorder departments ([{ id, parentId, orderNum }])' }],
} as const satisfies ResourceDef<'base_sys_department', typeof departmentAddSchema, typeof departmentUpdateSchema>;

type Dept = { id: number; parentId: number | null };

/** Throws 1002 parentId when following parents from any node loops back. */
function assertAcyclic(all: Map<number, Dept>): void {
  for (const start of all.values()) {
    const seen = new Set<number>();
    for (let d: Dept | undefined = start; d && d.parentId !== null; d = all.get(d.parentId)) {
      if (seen.has(d.id)) throw invalidField('parentId');
      seen.add(d.id);
    }
  }
}

async function loadTree(db: Kysely<Database>): Promise<Map<number, Dept>> {
  const rows = await db.selectFrom('base_sys_department').select(['id', 'parentId']).execute();
  return new Map(rows.map((r) => [r.id, { id: r.id, parentId: r.parentId }]));
}

export function createDepartmentResource(ctx: AppContext) {
  const resource = createCrud(ctx, {
    ...departmentResource,
    hooks: {
      async scope({ c }) {
        const auth = c.get('auth');
        const ids = auth ? await departmentScope(ctx.db, auth.userId) : [];
        return ids === undefined ? undefined : { id: ids };
      },
      async beforeAdd(data, { trx }) {
        if (data.parentId != null) {
          const parent = await trx.selectFrom('base_sys_department').select('id').where('id', '=', data.parentId).executeTakeFirst();
          if (!parent) throw invalidField('parentId');
        }
        return { name: data.name, parentId: data.parentId ?? null, orderNum: data.orderNum, city: data.city ?? null, latitude: data.latitude ?? null, longitude: data.longitude ?? null };
      },
      async beforeUpdate(data, { trx }) {
        if (data.parentId != null) {
          const tree = await loadTree(trx);
          if (!tree.has(data.parentId)) throw invalidField('parentId');
          tree.set(data.id, { id: data.id, parentId: data.parentId });
          assertAcyclic(tree);
        }
        const { id: _id, ...row } = data;
        return row;
      },
      async beforeDelete(ids, { trx }) {
        const tree = await loadTree(trx);
        const going = new Set(ids);
        // The nearest ancestor that stays, or null.
        const heir = (id: number): number | null => {
          let p = tree.get(id)?.parentId ?? null;
          while (p !== null && going.has(p)) p = tree.get(p)?.parentId ?? null;
          return p;
        };
        const now = formatTime(ctx.clock.now());
        for (const id of ids) {
          const to = heir(id);
          await trx
            .updateTable('base_sys_department')
            .set({ parentId: to, updateTime: now })
            .where('parentId', '=', id)
            .where('id', 'not in', ids)
            .execute();
          await trx.updateTable('base_sys_user').set({ departmentId: to, updateTime: now }).where('departmentId', '=', id).execute();
        }
      },
      async related(row, { trx }) {
        const grants = await trx.selectFrom('base_sys_role_department').selectAll().where('departmentId', '=', Number(row.id)).execute();
        return { base_sys_role_department: grants };
      },
    },
  });

  // Chained, so that AppType (and the typed client) see the extra call.
  const routes = resource.routes.post('/order', validate('json', departmentOrderSchema), async (c) => {
    const body = c.req.valid('json');
    const items = Array.isArray(body) ? body : body.list;
    const scope = await resource.scopeOf(c);
    await ctx.db.transaction().execute(async (trx) => {
      const tree = await loadTree(trx);
      const allowed = scope ? new Set(scope.id as number[]) : undefined;
      for (const item of items) {
        if (!tree.has(item.id) || (allowed && !allowed.has(item.id))) throw fail('dataNotFound');
        if (item.parentId != null && (!tree.has(item.parentId) || (allowed && !allowed.has(item.parentId)))) {
          throw invalidField('parentId');
        }
        // No parentId: keep the parent, only reorder.
        if (item.parentId !== undefined) tree.set(item.id, { id: item.id, parentId: item.parentId });
      }
      assertAcyclic(tree);
      const now = formatTime(ctx.clock.now());
      for (const item of items) {
        await trx
          .updateTable('base_sys_department')
          .set({ parentId: tree.get(item.id)!.parentId, orderNum: item.orderNum, updateTime: now })
          .where('id', '=', item.id)
          .execute();
      }
    });
    return ok(c, null);
  });

  return { ...resource, routes };
}
