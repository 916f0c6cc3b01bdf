// /admin/base/sys/articleCategory: the help centre's category tree. Deleting a category keeps
// its articles (uncategorised) and lifts its surviving sub-categories to the top level.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { fail } from '../../core/errors.ts';
import type { Db } from '../../db/index.ts';

const categoryFields = {
  name: z.string().trim().min(1).max(255),
  parentId: z.coerce.number().int().positive().nullable().optional(),
  orderNum: z.coerce.number().int().default(0),
};
const categoryAddSchema = z.object(categoryFields);
const categoryUpdateSchema = z
  .object({ ...categoryFields, orderNum: z.coerce.number().int().optional(), id: z.coerce.number().int().positive() })
  .partial({ name: true });

export const categoryResource = {
  module: 'base',
  path: 'sys/articleCategory',
  name: 'BaseSysArticleCategory',
  table: 'base_sys_article_category',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    name: { type: 'string', comment: 'Name' },
    parentId: { type: 'number', comment: 'Parent category ID', nullable: true },
    orderNum: { type: 'number', comment: 'Order' },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['name'],
  sortable: ['id', 'orderNum', 'name', 'createTime'],
  filterable: ['parentId'],
  defaultOrder: ['orderNum', 'asc'],
  addSchema: categoryAddSchema,
  updateSchema: categoryUpdateSchema,
} as const satisfies ResourceDef<'base_sys_article_category', typeof categoryAddSchema, typeof categoryUpdateSchema>;

async function checkParent(db: Db, parentId: number | null | undefined, selfId?: number) {
  if (parentId === null || parentId === undefined) return;
  const byId = new Map((await db.selectFrom('base_sys_article_category').select(['id', 'parentId']).execute()).map((r) => [r.id, r]));
  if (!byId.has(parentId)) throw fail('categoryParentInvalid');
  for (let id: number | null | undefined = parentId, hops = 0; id != null && hops <= byId.size; id = byId.get(id)?.parentId, hops++) {
    if (id === selfId) throw fail('categoryParentInvalid');
  }
}

export function createCategoryResource(ctx: AppContext) {
  return createCrud(ctx, {
    ...categoryResource,
    hooks: {
      async beforeAdd(data, { trx }) {
        await checkParent(trx, data.parentId);
        return data;
      },
      async beforeUpdate(data, { trx }) {
        if (data.parentId !== undefined) await checkParent(trx, data.parentId, data.id);
        return data;
      },
      async beforeDelete(ids, { trx }) {
        await trx
          .updateTable('base_sys_article_category')
          .set({ parentId: null })
          .where('parentId', 'in', ids)
          .where('id', 'not in', ids)
          .execute();
      },
    },
  });
}
