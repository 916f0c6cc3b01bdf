// /admin/base/sys/param: named settings (deleted ones go to the recycle bin). `GET html?key=` shows one as a web page: plain text
// (dataType 0) and file URLs (2) are escaped; rich text (1) is the admin's own HTML, served
// under a CSP sandbox so no script in it runs and it cannot reach the app's origin.
import type { Context } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import type { AppEnv } from '../../core/env.ts';
import { fail, invalidField } from '../../core/errors.ts';
import { PRESCRIPTION_PARAM_KEY } from '../../../common/ai.ts';
import { checkPrescription } from '../ai/prescription.ts';
import { t, type Lang } from '../../core/i18n.ts';
import { validate } from '../../core/validate.ts';
import type { Db } from '../../db/index.ts';

export const PARAM_TYPE = { text: 0, richText: 1, file: 2 } as const;

const paramFields = {
  name: z.string().trim().min(1).max(255),
  keyName: z.string().trim().min(1).max(255).regex(/^[\w.:-]+$/),
  data: z.string().max(1_000_000).nullable().optional(),
  dataType: z.coerce.number().int().min(0).max(2).default(0),
  remark: z.string().max(1024).nullable().optional(),
};
const paramAddSchema = z.object(paramFields);
const paramUpdateSchema = z.object({ ...paramFields, dataType: paramFields.dataType.optional(), id: z.coerce.number().int().positive() }).partial({
  name: true,
  keyName: true,
});

export const paramResource = {
  module: 'base',
  path: 'sys/param',
  name: 'BaseSysParam',
  table: 'base_sys_param',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    name: { type: 'string', comment: 'Name' },
    keyName: { type: 'string', comment: 'Key (unique)' },
    data: { type: 'string', comment: 'Value', nullable: true },
    dataType: { type: 'number', comment: 'Type: 0 text, 1 rich text (HTML), 2 file (URL)' },
    remark: { type: 'string', comment: 'Remark', nullable: true },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['name', 'keyName', 'remark'],
  sortable: ['id', 'name', 'keyName', 'dataType', 'createTime', 'updateTime'],
  filterable: ['dataType', 'keyName'],
  defaultOrder: ['id', 'desc'],
  addSchema: paramAddSchema,
  updateSchema: paramUpdateSchema,
  recycle: true,
  extraApi: [{ method: 'get', path: '/html', summary: 'The param as an HTML page (?key=)' }],
} as const satisfies ResourceDef<'base_sys_param', typeof paramAddSchema, typeof paramUpdateSchema>;

/** A param's value by key, or undefined (for other modules' settings). */
export async function getParam(db: Db, keyName: string): Promise<string | null | undefined> {
  const row = await db.selectFrom('base_sys_param').select('data').where('keyName', '=', keyName).executeTakeFirst();
  return row ? row.data : undefined;
}

/** The lab's default prescription (param aiPrescription): JSON checked like an order's (server/modules/ai/prescription.ts). */
function checkPrescriptionParam(lang: Lang, data: string | null | undefined) {
  let value: unknown;
  try {
    value = JSON.parse(data ?? '');
  } catch {
    throw invalidField('data');
  }
  checkPrescription(lang, value, 'data');
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

// Only inline styles and images; `sandbox` gives the page an opaque origin with scripts off.
const HTML_CSP = "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; media-src *; sandbox";

function page(c: Context<AppEnv>, title: string, body: string, status: 200 | 404) {
  c.header('Content-Security-Policy', HTML_CSP);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Cache-Control', 'no-store');
  const html =
    `<!doctype html><html lang="${c.get('lang')}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
    `<style>body{font-family:system-ui,sans-serif;line-height:1.6;margin:1.5rem;color:#1e293b}pre{white-space:pre-wrap;font:inherit}</style>` +
    `</head><body>${body}</body></html>`;
  return c.html(html, status);
}

async function ensureUniqueKey(db: Db, keyName: string, exceptId?: number) {
  let q = db.selectFrom('base_sys_param').select('id').where('keyName', '=', keyName);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw fail('paramKeyTaken');
}

export function createParamResource(ctx: AppContext) {
  const resource = createCrud(ctx, {
    ...paramResource,
    hooks: {
      async beforeAdd(data, { c, trx }) {
        await ensureUniqueKey(trx, data.keyName);
        if (data.keyName === PRESCRIPTION_PARAM_KEY) checkPrescriptionParam(c.get('lang'), data.data);
        return data;
      },
      async beforeUpdate(data, { c, trx }) {
        if (data.keyName !== undefined) await ensureUniqueKey(trx, data.keyName, data.id);
        const key = data.keyName ?? (await trx.selectFrom('base_sys_param').select('keyName').where('id', '=', data.id).executeTakeFirst())?.keyName;
        if (key === PRESCRIPTION_PARAM_KEY && data.data !== undefined) checkPrescriptionParam(c.get('lang'), data.data);
        return data;
      },
    },
  });
  // Chained, so that AppType (and the typed client) see the extra call.
  const routes = resource.routes.get('/html', validate('query', z.object({ key: z.string().min(1).max(255) })), async (c) => {
    const { key } = c.req.valid('query');
    const row = await ctx.db.selectFrom('base_sys_param').select(['name', 'data', 'dataType']).where('keyName', '=', key).executeTakeFirst();
    if (!row) {
      const message = t(c.get('lang'), 'paramNotFound', { key });
      return page(c, message, `<p>${escapeHtml(message)}</p>`, 404);
    }
    const data = row.data ?? '';
    let body: string;
    if (row.dataType === PARAM_TYPE.richText) body = data;
    else if (row.dataType === PARAM_TYPE.file) body = /^(https?:\/\/|\/)/i.test(data) ? `<a href="${escapeHtml(data)}">${escapeHtml(data)}</a>` : `<pre>${escapeHtml(data)}</pre>`;
    else body = `<pre>${escapeHtml(data)}</pre>`;
    return page(c, row.name, body, 200);
  });
  return { ...resource, routes };
}
