// /admin/dict/info: dictionary entries (a tree per type through parentId), and
// POST data { types? } -> { [typeKey]: Entry[] }, the call every form makes for its options
// (any logged-in user: LOGIN_ONLY_PATHS in core/auth.ts).
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { ok } from '../../core/envelope.ts';
import { fail, invalidField } from '../../core/errors.ts';
import { validate } from '../../core/validate.ts';
import type { Db } from '../../db/index.ts';

const optionalText = (max: number) => z.string().max(max).nullable().optional();
const infoFields = {
  typeId: z.coerce.number().int().positive(),
  name: z.string().trim().min(1).max(255),
  value: optionalText(1024),
  parentId: z.coerce.number().int().positive().nullable().optional(),
  orderNum: z.coerce.number().int().default(0),
  remark: optionalText(1024),
};
const infoAddSchema = z.object(infoFields);
const infoUpdateSchema = z
  .object({ ...infoFields, orderNum: z.coerce.number().int().optional(), id: z.coerce.number().int().positive() })
  .partial({ typeId: true, name: true });

export const dictInfoResource = {
  module: 'dict',
  path: 'info',
  name: 'DictInfo',
  table: 'dict_info',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    typeId: { type: 'number', comment: 'Type ID' },
    name: { type: 'string', comment: 'Name (label)' },
    value: { type: 'string', comment: 'Value (empty: the id)', nullable: true },
    parentId: { type: 'number', comment: 'Parent entry ID', nullable: true },
    orderNum: { type: 'number', comment: 'Order' },
    remark: { type: 'string', comment: 'Remark', nullable: true },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['name', 'value', 'remark'],
  sortable: ['id', 'orderNum', 'name', 'value', 'createTime', 'updateTime'],
  filterable: ['typeId', 'parentId'],
  defaultOrder: ['orderNum', 'asc'],
  addSchema: infoAddSchema,
  updateSchema: infoUpdateSchema,
  extraApi: [{ method: 'post', path: '/data', summary: 'Entries by type key ({ types? }), as trees' }],
  excel: {
    file: 'dict-entries',
    columns: [
      { key: 'id', zh: 'ID', en: 'ID', de: 'ID', width: 8, import: false },
      { key: 'typeId', zh: '类型 ID', en: 'Type ID', de: 'Typ-ID', width: 10 },
      { key: 'name', zh: '名称', en: 'Name', de: 'Name', width: 20 },
      { key: 'value', zh: '值', en: 'Value', de: 'Wert', width: 20 },
      { key: 'parentId', zh: '上级 ID', en: 'Parent ID', de: 'Übergeordnete ID', width: 10 },
      { key: 'orderNum', zh: '排序', en: 'Order', de: 'Reihenfolge', width: 8 },
      { key: 'remark', zh: '备注', en: 'Remark', de: 'Bemerkung', width: 24 },
      { key: 'createTime', zh: '创建时间', en: 'Created', de: 'Erstellt', width: 20, import: false },
    ],
  },
} as const satisfies ResourceDef<'dict_info', typeof infoAddSchema, typeof infoUpdateSchema>;

export interface DictEntry {
  id: number;
  typeId: number;
  name: string;
  /** The stored value, or the id when it is empty. */
  value: string | number;
  parentId: number | null;
  orderNum: number;
  remark: string | null;
  children: DictEntry[];
}

/** A parent must be of the same type, and (on update) not the entry itself or one below it. */
async function checkParent(db: Db, typeId: number, parentId: number | null | undefined, selfId?: number) {
  if (parentId === null || parentId === undefined) return;
  const byId = new Map(
    (await db.selectFrom('dict_info').select(['id', 'parentId', 'typeId']).where('typeId', '=', typeId).execute()).map((r) => [r.id, r]),
  );
  if (!byId.has(parentId)) throw fail('dictParentInvalid');
  for (let id: number | null | undefined = parentId, hops = 0; id != null && hops <= byId.size; id = byId.get(id)?.parentId, hops++) {
    if (id === selfId) throw fail('dictParentInvalid');
  }
}

async function checkType(db: Db, typeId: number) {
  if (!(await db.selectFrom('dict_type').select('id').where('id', '=', typeId).executeTakeFirst())) throw invalidField('typeId');
}

/** Entries of the given type keys (all types when none given), as trees sorted by orderNum. */
export async function dictData(db: Db, types?: string[]): Promise<Record<string, DictEntry[]>> {
  let typeQuery = db.selectFrom('dict_type').select(['id', 'key']);
  if (types) typeQuery = typeQuery.where('key', 'in', types.length ? types : ['']);
  const typeRows = await typeQuery.execute();
  const result: Record<string, DictEntry[]> = {};
  for (const key of types ?? []) result[key] = [];
  if (!typeRows.length) return result;
  const rows = await db
    .selectFrom('dict_info')
    .select(['id', 'typeId', 'name', 'value', 'parentId', 'orderNum', 'remark'])
    .where('typeId', 'in', typeRows.map((t) => t.id))
    .orderBy('orderNum', 'asc')
    .orderBy('id', 'asc')
    .execute();
  const entries = new Map<number, DictEntry>(
    rows.map((r) => [r.id, { ...r, value: r.value === null || r.value === '' ? r.id : r.value, children: [] }]),
  );
  const roots = new Map<number, DictEntry[]>(typeRows.map((t) => [t.id, []]));
  for (const entry of entries.values()) {
    const parent = entry.parentId === null ? undefined : entries.get(entry.parentId);
    if (parent) parent.children.push(entry);
    else roots.get(entry.typeId)!.push(entry);
  }
  for (const t of typeRows) result[t.key] = roots.get(t.id)!;
  return result;
}

const dataSchema = z.object({ types: z.array(z.string().max(255)).max(200).optional() });

export function createDictInfoResource(ctx: AppContext) {
  const resource = createCrud(ctx, {
    ...dictInfoResource,
    hooks: {
      async beforeAdd(data, { trx }) {
        await checkType(trx, data.typeId);
        await checkParent(trx, data.typeId, data.parentId);
        return data;
      },
      async beforeUpdate(data, { trx }) {
        const current = await trx.selectFrom('dict_info').select(['typeId', 'parentId']).where('id', '=', data.id).executeTakeFirst();
        if (!current) throw fail('dataNotFound');
        const typeId = data.typeId ?? current.typeId;
        if (data.typeId !== undefined) await checkType(trx, typeId);
        await checkParent(trx, typeId, data.parentId === undefined ? current.parentId : data.parentId, data.id);
        return data;
      },
    },
  });
  // Chained, so that AppType (and the typed client) see the extra call.
  const routes = resource.routes.post('/data', validate('json', dataSchema), async (c) => ok(c, await dictData(ctx.db, c.req.valid('json').types)));
  return { ...resource, routes };
}
