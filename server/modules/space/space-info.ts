// /admin/space/info: the uploaded files (rows come from POST /admin/base/comm/upload). Non-admins
// see and touch only their own; a file an order uses cannot be deleted.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { fail, invalidField } from '../../core/errors.ts';
import { authOf, SEE_ALL, seesAll } from '../../core/access.ts';
import { usesFiles } from './access.ts';

const updateSchema = z.object({
  id: z.coerce.number().int().positive(),
  name: z.string().trim().min(1).max(255).optional(),
  classifyId: z.coerce.number().int().positive().nullable().optional(),
});

export const spaceInfoResource = {
  module: 'space',
  path: 'info',
  name: 'SpaceInfo',
  table: 'space_info',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    url: { type: 'string', comment: 'Download URL (send the Authorization header)', readonly: true },
    key: { type: 'string', comment: 'Storage key (sha256)', select: false, readonly: true },
    name: { type: 'string', comment: 'Original file name' },
    size: { type: 'number', comment: 'Size, bytes', readonly: true },
    mime: { type: 'string', comment: 'Content type', readonly: true },
    kind: { type: 'string', comment: 'Kind: image, video, audio, word, excel, ppt, pdf, rar, model, file', readonly: true },
    classifyId: { type: 'number', comment: 'Folder (space type) ID', nullable: true },
    userId: { type: 'number', comment: 'Uploader', readonly: true },
    triangleCount: { type: 'number', comment: 'Triangles (STL files)', nullable: true, readonly: true },
    createTime: { type: 'datetime', comment: 'Uploaded', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['name'],
  sortable: ['id', 'name', 'size', 'kind', 'createTime'],
  filterable: ['kind', 'classifyId', 'userId'],
  defaultOrder: ['id', 'desc'],
  updateSchema,
} as const satisfies ResourceDef<'space_info', z.ZodTypeAny, typeof updateSchema>;

export function createSpaceInfoResource(ctx: AppContext) {
  return createCrud(ctx, {
    ...spaceInfoResource,
    hooks: {
      async scope({ c }) {
        const { userId } = authOf(c);
        return (await seesAll(ctx.db, userId, SEE_ALL.files)) ? undefined : { userId };
      },
      async beforeUpdate(data, { c, trx }) {
        if (data.classifyId) {
          const { userId } = authOf(c);
          const folder = await trx.selectFrom('space_type').select(['userId']).where('id', '=', data.classifyId).executeTakeFirst();
          if (!folder || (folder.userId !== userId && !(await seesAll(trx, userId, SEE_ALL.files)))) throw invalidField('classifyId');
        }
        return { name: data.name, classifyId: data.classifyId };
      },
      async beforeDelete(ids, { trx }) {
        const used = await trx
          .selectFrom('order_info')
          .select('caseNo')
          // A model, the denture base, or a kept model version (modifyModel restores them).
          .where((eb) => usesFiles(eb, ids))
          .executeTakeFirst();
        if (used) throw fail('fileInUse', { caseNo: used.caseNo });
      },
    },
  });
}
