// /admin/device/apiConfig: per-department settings of an outside API (name, url, key, kind; for a
// partner also the open calls it may make (server/modules/open), its callback URL and its
// callbacks' deliveries (server/modules/callbacks)). The
// key is written, never read back: replies carry only a hint of its last characters. Each entry
// also has a secret for signed calls (core/signature.ts), made by the server: the add reply and
// rotateSecret { id } (device:apiConfig:rotateSecret) show it once; no other reply carries it, and
// the request log never sees it (it is in no request, and replies are not logged).
import { z } from 'zod';
import { API_CONFIG_KINDS, DEFAULT_API_CONFIG_KIND } from '../../../common/api-config.ts';
import { PARTNER_CALLS } from '../../../common/partner-api.ts';
import type { AppContext } from '../../context.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { randomToken } from '../../core/crypto.ts';
import { ok } from '../../core/envelope.ts';
import { fail } from '../../core/errors.ts';
import { formatTime } from '../../core/clock.ts';
import { validate } from '../../core/validate.ts';
import { deliveriesQuery, listDeliveries, redeliver, redeliverSchema } from '../callbacks/deliveries.ts';

const url = z
  .string()
  .trim()
  .max(1024)
  .refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v));
const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
/** A partner's open calls: a list or comma-separated names of PARTNER_CALLS, stored comma-separated. */
const calls = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v),
  z.array(z.enum(PARTNER_CALLS)).max(PARTNER_CALLS.length).transform((list) => [...new Set(list)].join(',')),
);
const fields = {
  name: z.string().trim().min(1).max(255),
  url,
  key: z.preprocess(blankToUndefined, z.string().max(1024).optional()),
  departmentId: z.preprocess((v) => (v === '' ? null : v), z.coerce.number().int().positive().nullable().optional()),
  enabled: z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => (v ? 1 : 0)).optional(),
  remark: z.string().max(1024).nullable().optional(),
  kind: z.enum(API_CONFIG_KINDS).optional(),
  calls: calls.nullable().optional(),
  callbackUrl: z.preprocess((v) => (v === '' ? null : v), url.nullable().optional()),
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
    kind: { type: 'string', comment: "Kind: 'partner' (signed partner API) 'aiService' (outside design engine) or 'llm' (language model of the AI coding helper; remark: the model)" },
    secret: { type: 'string', comment: 'Signing secret (shown once: add, rotateSecret)', select: false, readonly: true },
    calls: { type: 'string', comment: "A partner's open calls it may make, comma-separated (test is always allowed)", nullable: true },
    callbackUrl: { type: 'string', comment: "A partner's callback URL: order and AI status changes are posted there (docs/partner-api.md)", nullable: true },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['name', 'url'],
  sortable: ['id', 'name', 'departmentId', 'enabled', 'createTime'],
  filterable: ['departmentId', 'enabled', 'kind'],
  defaultOrder: ['id', 'desc'],
  addSchema,
  updateSchema,
  extraApi: [
    { method: 'get', path: '/departmentList', summary: 'Departments to pick from ([{ id, name, parentId }])' },
    { method: 'post', path: '/rotateSecret', summary: 'A new signing secret for an entry ({ id }): answers { id, secret }, shown this once' },
    { method: 'get', path: '/deliveries', summary: "A partner entry's callbacks, newest first (?id=&state=&page=&size=)" },
    { method: 'post', path: '/redeliver', summary: 'Send a failed callback again ({ id }: the delivery)' },
  ],
} as const satisfies ResourceDef<'device_api_config', typeof addSchema, typeof updateSchema>;

const rotateSchema = z.object({ id: z.coerce.number().int().positive() });

/** A new signing secret: 32 random bytes, base64url. */
export const newSecret = () => randomToken(32);

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
      // A new partner may make every call until its list says otherwise.
      beforeAdd: (data) => {
        const kind = data.kind ?? DEFAULT_API_CONFIG_KIND;
        return { ...data, enabled: data.enabled ?? 1, kind, calls: data.calls === undefined && kind === 'partner' ? PARTNER_CALLS.join(',') : data.calls, secret: newSecret() };
      },
      addReply: (_id, row) => ({ secret: row.secret }),
      // An empty key on update keeps the stored one.
      beforeUpdate: ({ id: _id, ...data }) => data,
      decorateList: (rows) => withHints(rows),
      decorate: async (row) => (await withHints([row]))[0]!,
    },
  });
  // Chained, so that AppType (and the typed client) see the extra call.
  const routes = resource.routes
    .get('/departmentList', async (c) =>
      ok(c, await ctx.db.selectFrom('base_sys_department').select(['id', 'name', 'parentId']).orderBy('orderNum').orderBy('id').execute()),
    )
    .post('/rotateSecret', validate('json', rotateSchema), async (c) => {
      const { id } = c.req.valid('json');
      const secret = newSecret();
      const res = await ctx.db.updateTable('device_api_config').set({ secret, updateTime: formatTime(ctx.clock.now()) }).where('id', '=', id).executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw fail('dataNotFound');
      return ok(c, { id, secret });
    })
    .get('/deliveries', validate('query', deliveriesQuery), async (c) => ok(c, await listDeliveries(ctx.db, c.req.valid('query'))))
    .post('/redeliver', validate('json', redeliverSchema), async (c) => {
      await redeliver(ctx.db, c.req.valid('json').id, ctx.clock.now());
      return ok(c, null);
    });
  return { ...resource, routes };
}
