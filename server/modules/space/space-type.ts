// /admin/space/type: folders of the file space (name, parentId), each user's own.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { fail, invalidField } from '../../core/errors.ts';
import type { Db } from '../../db/index.ts';
import { authOf, SEE_ALL, seesAll } from '../../core/access.ts';

const addSchema = z.object({
  name: z.string().trim().min(1).max(255),
  parentId: z.coerce.number().int().positive().nullable().optional(),
});
const updateSchema = addSchema.partial().extend({ id: z.coerce.number().int().positive() });

export const spaceTypeResource = {
  module: 'space',
  path: 'type',
  name: 'SpaceType',
  table: 'space_type',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    name: { type: 'string', comment: 'Folder name' },
    parentId: { type: 'number', comment: 'Parent folder ID', nullable: true },
    // Set by the hooks from the caller; the schemas never take it from a body.
    userId: { type: 'number', comment: 'Owner' },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['name'],
  sortable: ['id', 'name', 'createTime'],
  filterable: ['parentId'],
  defaultOrder: ['id', 'asc'],
  addSchema,
  updateSchema,
} as const satisfies ResourceDef<'space_type', typeof addSchema, typeof updateSchema>;

/** A parent must be a folder the caller may use, and never the folder itself or below it. */
async function checkParent(db: Db, userId: number, parentId: number | null | undefined, selfId?: number) {
  if (!parentId) return;
  const all = await seesAll(db, userId, SEE_ALL.files);
  let id: number | null = parentId;
  for (let depth = 0; id !== null; depth++) {
    if (id === selfId || depth > 64) throw invalidField('parentId');
    const folder: { userId: number; parentId: number | null } | undefined = await db
      .selectFrom('space_type')
      .select(['userId', 'parentId'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!folder || (folder.userId !== userId && !all)) throw invalidField('parentId');
    id = folder.parentId;
  }
}

export function createSpaceTypeResource(ctx: AppContext) {
  return createCrud(ctx, {
    ...spaceTypeResource,
    hooks: {
      async scope({ c }) {
        const { userId } = authOf(c);
        return (await seesAll(ctx.db, userId, SEE_ALL.files)) ? undefined : { userId };
      },
      async beforeAdd(data, { c, trx }) {
        const { userId } = authOf(c);
        await checkParent(trx, userId, data.parentId);
        return { name: data.name, parentId: data.parentId ?? null, userId };
      },
      async beforeUpdate(data, { c, trx }) {
        await checkParent(trx, authOf(c).userId, data.parentId, data.id);
        return { name: data.name, parentId: data.parentId };
      },
      async beforeDelete(ids, { trx }) {
        const file = await trx.selectFrom('space_info').select('id').where('classifyId', 'in', ids).executeTakeFirst();
        const child = await trx.selectFrom('space_type').select('id').where('parentId', 'in', ids).where('id', 'not in', ids).executeTakeFirst();
        if (file || child) throw fail('folderNotEmpty');
      },
    },
  });
}
