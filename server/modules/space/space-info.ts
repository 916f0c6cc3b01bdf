// /admin/space/info: the uploaded files (rows come from POST /admin/base/comm/upload). Non-admins
// see and touch only their own; a file an order uses cannot be deleted.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { fail, invalidField } from '../../core/errors.ts';
import { authOf, SEE_ALL, seesAll } from '../../core/access.ts';
import { usesFiles } from './access.ts';
import { formatTime } from '../../core/clock.ts';
import { ok } from '../../core/envelope.ts';
import { validate } from '../../core/validate.ts';
import type { Db } from '../../db/index.ts';

const updateSchema = z.object({
  id: z.coerce.number().int().positive(),
  name: z.string().trim().min(1).max(255).optional(),
  classifyId: z.coerce.number().int().positive().nullable().optional(),
});

/**
 * POST add (cool-admin clients call it after an upload): registers an uploaded file in a folder.
 * The upload already made the row; this files it, named by `id`/`fileId` or by its `url`, into
 * `classifyId` (null: no folder), optionally renamed. Both must be the caller's (or any, for a
 * files admin); a file or folder outside that is answered as invalid, never as existing.
 */
const addSchema = z
  .object({
    id: z.coerce.number().int().positive().optional(),
    fileId: z.coerce.number().int().positive().optional(),
    url: z.string().max(1024).optional(),
    classifyId: z.coerce.number().int().positive().nullable().optional(),
    name: z.string().trim().min(1).max(255).optional(),
  })
  .refine((v) => v.id !== undefined || v.fileId !== undefined || v.url !== undefined, { message: 'id, fileId or url', path: ['id'] });

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
  extraApi: [{ method: 'post', path: '/add', summary: 'Register an uploaded file in a folder ({ id | fileId | url, classifyId, name? }); answers { id }' }],
} as const satisfies ResourceDef<'space_info', z.ZodTypeAny, typeof updateSchema>;

/** The folder exists and the caller may file into it (its owner or a files admin). */
async function checkFolder(db: Db, userId: number, classifyId: number | null | undefined): Promise<void> {
  if (!classifyId) return;
  const folder = await db.selectFrom('space_type').select(['userId']).where('id', '=', classifyId).executeTakeFirst();
  if (!folder || (folder.userId !== userId && !(await seesAll(db, userId, SEE_ALL.files)))) throw invalidField('classifyId');
}

export function createSpaceInfoResource(ctx: AppContext) {
  const resource = createCrud(ctx, {
    ...spaceInfoResource,
    hooks: {
      async scope({ c }) {
        const { userId } = authOf(c);
        return (await seesAll(ctx.db, userId, SEE_ALL.files)) ? undefined : { userId };
      },
      async beforeUpdate(data, { c, trx }) {
        await checkFolder(trx, authOf(c).userId, data.classifyId);
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

  const routes = resource.routes.post('/add', validate('json', addSchema), async (c) => {
    const { userId } = authOf(c);
    const body = c.req.valid('json');
    const id = body.id ?? body.fileId;
    return ok(
      c,
      await ctx.db.transaction().execute(async (trx) => {
        let q = trx.selectFrom('space_info').select(['id', 'userId']);
        q = id !== undefined ? q.where('id', '=', id) : q.where('url', '=', body.url!);
        const file = await q.executeTakeFirst();
        if (!file || (file.userId !== userId && !(await seesAll(trx, userId, SEE_ALL.files)))) throw invalidField(id !== undefined ? 'id' : 'url');
        await checkFolder(trx, userId, body.classifyId);
        await trx
          .updateTable('space_info')
          .set({ classifyId: body.classifyId ?? null, ...(body.name ? { name: body.name } : {}), updateTime: formatTime(ctx.clock.now()) })
          .where('id', '=', file.id)
          .execute();
        return { id: file.id };
      }),
    );
  });
  return { ...resource, routes };
}
