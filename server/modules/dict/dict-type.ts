// /admin/dict/type: dictionary types, each named by a unique key the client asks data for.
// Deleting a type moves it and its entries to the recycle bin.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { fail } from '../../core/errors.ts';
import type { Db } from '../../db/index.ts';

const typeFields = {
  name: z.string().trim().min(1).max(255),
  key: z.string().trim().min(1).max(255).regex(/^[\w.:-]+$/),
};
const typeAddSchema = z.object(typeFields);
const typeUpdateSchema = z.object({ ...typeFields, id: z.coerce.number().int().positive() }).partial({ name: true, key: true });

export const dictTypeResource = {
  module: 'dict',
  path: 'type',
  name: 'DictType',
  table: 'dict_type',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    name: { type: 'string', comment: 'Name' },
    key: { type: 'string', comment: 'Key (unique)' },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['name', 'key'],
  sortable: ['id', 'name', 'key', 'createTime', 'updateTime'],
  defaultOrder: ['id', 'asc'],
  addSchema: typeAddSchema,
  updateSchema: typeUpdateSchema,
  recycle: true,
} as const satisfies ResourceDef<'dict_type', typeof typeAddSchema, typeof typeUpdateSchema>;

async function ensureUniqueKey(db: Db, key: string, exceptId?: number) {
  let q = db.selectFrom('dict_type').select('id').where('key', '=', key);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw fail('dictKeyTaken');
}

export function createDictTypeResource(ctx: AppContext) {
  return createCrud(ctx, {
    ...dictTypeResource,
    hooks: {
      async beforeAdd(data, { trx }) {
        await ensureUniqueKey(trx, data.key);
        return data;
      },
      async beforeUpdate(data, { trx }) {
        if (data.key !== undefined) await ensureUniqueKey(trx, data.key, data.id);
        return data;
      },
      // The type's entries go to the recycle bin with it, parents before children (the order
      // a restore inserts them in).
      async related(row, { trx }) {
        const entries = await trx.selectFrom('dict_info').selectAll().where('typeId', '=', Number(row.id)).execute();
        const ids = new Set(entries.map((e) => e.id));
        const ordered: typeof entries = [];
        const walk = (parent: number | null) => {
          for (const e of entries) {
            const p = e.parentId !== null && ids.has(e.parentId) ? e.parentId : null;
            if (p === parent) {
              ordered.push(e);
              walk(e.id);
            }
          }
        };
        walk(null);
        return { dict_info: ordered };
      },
    },
  });
}
