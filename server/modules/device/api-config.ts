// /admin/device/apiConfig: per-department settings of an outside API (name, url, key). The key
// is written, never read back: replies carry only a hint of its last characters.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { ok } from '../../core/envelope.ts';

const url = z
  .string()
  .trim()
  .max(1024)
  .refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v));
const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const fields = {
  name: z.string().trim().min(1).max(255),
  url,
  key: z.preprocess(blankToUndefined, z.string().max(1024).optional()),
  departmentId: z.preprocess((v) => (v === '' ? null : v), z.coerce.number().int().positive().nullable().optional()),
  enabled: z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => (v ? 1 : 0)).optional(),
  remark: z.string().max(1024).nullable().optional(),
};
const addSchema = z.object(fields);
const updateSchema = z.object({ ...fields, name: fields.name.optional(), url: url.optional(), id: z.coerce.number().int().positive() });

export const apiConfigResource = {
  module: 'device',
  path: 'apiConfig',
  name: 'DeviceApiConfig',
  table: 'device_api_config',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    name: { type: 'string', comment: 'Name' },
    url: { type: 'string', comment: 'API URL' },
    key: { type: 'string', comment: 'API key (write-only)', select: false },
    departmentId: { type: 'number', comment: 'Department ID', nullable: true },
    enabled: { type: 'number', comment: 'Enabled: 0 no, 1 yes' },
    remark: { type: 'string', comment: 'Remark', nullable: true },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['name', 'url'],
  sortable: ['id', 'name', 'departmentId', 'enabled', 'createTime'],
  filterable: ['departmentId', 'enabled'],
  defaultOrder: ['id', 'desc'],
  addSchema,
  updateSchema,
  extraApi: [{ method: 'get', path: '/departmentList', summary: 'Departments to pick from ([{ id, name, parentId }])' }],
} as const satisfies ResourceDef<'device_api_config', typeof addSchema, typeof updateSchema>;

/** "••••abcd" for a stored key, null when none. */
export function keyHint(key: string | null | undefined): string | null {
  if (!key) return null;
  return `••••${key.length > 8 ? key.slice(-4) : ''}`;
}

export function createApiConfigResource(ctx: AppContext) {
  async function withHints(rows: Record<string, unknown>[]) {
    const ids = rows.map((r) => Number(r.id));
    const keys = ids.length ? await ctx.db.selectFrom('device_api_config').select(['id', 'key']).where('id', 'in', ids).execute() : [];
    const byId = new Map(keys.map((k) => [k.id, k.key]));
    return rows.map((r) => ({ ...r, keyHint: keyHint(byId.get(Number(r.id))) }));
  }
  const resource = createCrud(ctx, {
    ...apiConfigResource,
    hooks: {
      beforeAdd: (data) => ({ ...data, enabled: data.enabled ?? 1 }),
      // An empty key on update keeps the stored one.
      beforeUpdate: ({ id: _id, ...data }) => data,
      decorateList: (rows) => withHints(rows),
      decorate: async (row) => (await withHints([row]))[0]!,
    },
  });
  // Chained, so that AppType (and the typed client) see the extra call.
  const routes = resource.routes.get('/departmentList', async (c) =>
    ok(c, await ctx.db.selectFrom('base_sys_department').select(['id', 'name', 'parentId']).orderBy('orderNum').orderBy('id').execute()),
  );
  return { ...resource, routes };
}
