// POST /admin/design/saveDentureBase: the denture base(s) the editor generated (one shell per jaw), stored server-side
// as an STL space file of the order (order_info.baseFileId), downloadable through
// GET /admin/base/comm/file/:id by whoever sees the order. A new one replaces the old (whose row
// goes, and whose bytes too when no other file has them). The body is read here (the JSON body
// reader skips this path): a raw STL (?orderId=) or multipart (orderId, file), at most
// UPLOAD_MAX_MB, checked by the same STL check as uploads.
import type { Context } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { authOf } from '../../core/access.ts';
import { formatTime } from '../../core/clock.ts';
import type { AppEnv } from '../../core/env.ts';
import { Code, ok } from '../../core/envelope.ts';
import { ApiError, fail, invalidField } from '../../core/errors.ts';
import { t } from '../../core/i18n.ts';
import { uploadsDir } from '../order/lifecycle.ts';
import { mimeOf } from '../space/kinds.ts';
import { checkStl, STL_REASON } from '../space/stl-check.ts';
import { localStorage, type BlobStorage, type StagedBlob } from '../space/storage.ts';
import { boundaryOf } from '../space/multipart.ts';
import { fileUrl, receive } from '../space/upload.routes.ts';
import { assertEditable, scopedOrder } from './service.ts';

export const DENTURE_BASE_PATH = '/admin/design/saveDentureBase';
const orderIdOf = z.coerce.number().int().positive();

const storages = new Map<string, BlobStorage>();
const storageOf = (ctx: AppContext) => {
  const dir = uploadsDir(ctx);
  let s = storages.get(dir);
  if (!s) storages.set(dir, (s = localStorage(dir)));
  return s;
};

async function rawBody(c: Context<AppEnv>, storage: BlobStorage, maxBytes: number): Promise<StagedBlob> {
  const body = c.req.raw.body;
  if (!body) throw fail('baseNoFile');
  const writer = storage.writer();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (writer.size + value.byteLength > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new ApiError(Code.fail, 'uploadTooLarge', 413, { name: 'base.stl', max: Math.round(maxBytes / 1024 / 1024) });
      }
      await writer.write(value);
    }
    return await writer.finish();
  } catch (err) {
    await writer.abort();
    throw err;
  }
}

export async function saveDentureBase(ctx: AppContext, c: Context<AppEnv>) {
  const { userId } = authOf(c);
  const storage = storageOf(ctx);
  const maxBytes = ctx.config.uploadMaxBytes;
  const declared = Number(c.req.header('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes + 1024 * 1024) {
    throw new ApiError(Code.fail, 'uploadTooLarge', 413, { name: 'base.stl', max: Math.round(maxBytes / 1024 / 1024) });
  }
  let staged: StagedBlob;
  let orderId: number;
  if (boundaryOf(c.req.header('content-type'))) {
    const { fields, files } = await receive(c.req.raw, storage, maxBytes);
    const parsed = orderIdOf.safeParse(fields.get('orderId') ?? c.req.query('orderId'));
    if (files.length !== 1 || !parsed.success) {
      await Promise.all(files.map((f) => storage.discard(f.staged)));
      if (!parsed.success) throw invalidField('orderId', fields.get('orderId') === undefined);
      throw fail('baseNoFile');
    }
    orderId = parsed.data;
    staged = files[0]!.staged;
    const o = await scopedOrder(ctx.db, userId, orderId);
    if (!o) await storage.discard(staged);
    if (!o) throw fail('designOrderNotFound');
    try {
      assertEditable(c.get('lang'), o.status);
    } catch (err) {
      await storage.discard(staged);
      throw err;
    }
  } else {
    // The order is checked before a byte of the body is read.
    const parsed = orderIdOf.safeParse(c.req.query('orderId'));
    if (!parsed.success) throw invalidField('orderId', c.req.query('orderId') === undefined);
    orderId = parsed.data;
    const o = await scopedOrder(ctx.db, userId, orderId);
    if (!o) throw fail('designOrderNotFound');
    assertEditable(c.get('lang'), o.status);
    staged = await rawBody(c, storage, maxBytes);
  }
  let committed = false;
  try {
    if (staged.size === 0) throw fail('baseNoFile');
    const stl = await checkStl(await storage.openStaged(staged), ctx.logger);
    if (!stl.ok) throw fail('baseNotStl', { reason: t(c.get('lang'), STL_REASON[stl.code] ?? 'stlUnreadable') });
    await storage.commit(staged);
    committed = true;
    const now = formatTime(ctx.clock.now());
    const { id, old } = await ctx.db.transaction().execute(async (trx) => {
      const o = await trx.selectFrom('order_info').select(['caseNo', 'baseFileId']).where('id', '=', orderId).executeTakeFirstOrThrow();
      const row = await trx
        .insertInto('space_info')
        .values({
          url: '',
          key: staged.key,
          name: `base-${o.caseNo}.stl`,
          size: staged.size,
          mime: mimeOf('stl'),
          kind: 'model',
          classifyId: null,
          userId,
          triangleCount: stl.triangles,
          createTime: now,
          updateTime: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const newId = Number(row.id);
      await trx.updateTable('space_info').set({ url: fileUrl(newId) }).where('id', '=', newId).execute();
      await trx.updateTable('order_info').set({ baseFileId: newId, updateTime: now }).where('id', '=', orderId).execute();
      let oldKey: string | null = null;
      if (o.baseFileId) {
        const prev = await trx.selectFrom('space_info').select('key').where('id', '=', o.baseFileId).executeTakeFirst();
        await trx.deleteFrom('space_info').where('id', '=', o.baseFileId).execute();
        oldKey = prev?.key ?? null;
      }
      return { id: newId, old: oldKey };
    });
    if (old && old !== staged.key) {
      const left = await ctx.db.selectFrom('space_info').select('id').where('key', '=', old).executeTakeFirst();
      if (!left) await storage.remove(old);
    }
    return ok(c, { orderId, baseFileId: id, url: fileUrl(id), size: staged.size, triangles: stl.triangles });
  } finally {
    if (!committed) await storage.discard(staged);
  }
}
