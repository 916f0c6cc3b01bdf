// A partner's new orders (`order`, `batchOrder`): the models uploaded in the request or fetched
// from its links (links.ts), each checked as STL before anything is kept; the order designed by
// a user of the partner's department (the one named, else the department's first active user);
// idempotent on the partner's own order number: a retry, or a copy sent at the same time, answers
// the order the first one made (the check and the insert run in one write, backed by the unique
// (configId, partnerOrderNo)). The rest is the back office's add: the case number, the first
// history row, the models' jobs, the automatic design when asked for (order/create.ts).
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import type { partnerOrderSchema } from '../../../common/partner-request.ts';
import { AI_STATUS, ORDER_STATUS } from '../../../common/orders.ts';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { fail } from '../../core/errors.ts';
import { t, type Lang } from '../../core/i18n.ts';
import { nextCaseNo } from '../order/order-info.ts';
import { checkModelSet, orderCreated } from '../order/create.ts';
import { spaceStore } from '../space/index.ts';
import { extensionOf } from '../space/kinds.ts';
import { checkStl, STL_REASON } from '../space/stl-check.ts';
import type { StagedBlob } from '../space/storage.ts';
import { recordFile } from '../space/upload.routes.ts';
import { fetchLink } from './links.ts';
import { partnerUser, partnerUsers, type Partner } from './partner.ts';

export const MODEL_FIELDS = ['upper', 'lower', 'occlusion'] as const;
type ModelField = (typeof MODEL_FIELDS)[number];
const COLUMN = { upper: 'upperFileId', lower: 'lowerFileId', occlusion: 'occlusionFileId' } as const;

export type PartnerOrderBody = z.output<typeof partnerOrderSchema>;
/** Files the request carried, by form field (staged, not yet kept). */
export type Uploaded = Partial<Record<ModelField, { name: string; staged: StagedBlob }>>;

export interface OrderAnswer {
  orderId: number;
  caseNo: string;
  partnerOrderNo: string;
  /** false: the partner's number had an order already (a retry): that one is answered. */
  created: boolean;
}

async function existing(db: Kysely<Database>, p: Partner, partnerOrderNo: string): Promise<OrderAnswer | null> {
  const row = await db
    .selectFrom('partner_order as po')
    .innerJoin('order_info as o', 'o.id', 'po.orderId')
    .select(['o.id', 'o.caseNo'])
    .where('po.configId', '=', p.id)
    .where('po.partnerOrderNo', '=', partnerOrderNo)
    .executeTakeFirst();
  return row ? { orderId: row.id, caseNo: row.caseNo, partnerOrderNo, created: false } : null;
}

/** The designer: the user named (of the partner's departments), else its first active user. */
async function designerOf(ctx: AppContext, p: Partner, designerId: number | undefined): Promise<number> {
  if (designerId !== undefined) return (await partnerUser(ctx.db, p, designerId)).id;
  const first = await partnerUsers(ctx.db, p, true).select('id').orderBy('id').executeTakeFirst();
  if (!first) throw fail('partnerNoDesigner');
  return first.id;
}

export async function createPartnerOrder(ctx: AppContext, lang: Lang, p: Partner, body: PartnerOrderBody, uploaded: Uploaded = {}): Promise<OrderAnswer> {
  const { storage, blobs } = spaceStore(ctx);
  const staged: { field: ModelField; name: string; staged: StagedBlob; triangles: number | null }[] = [];
  let committed = false;
  try {
    const known = await existing(ctx.db, p, body.partnerOrderNo);
    if (known) return known;
    const designerId = await designerOf(ctx, p, body.designerId);
    for (const field of MODEL_FIELDS) {
      const link = body.links?.[field];
      const file = uploaded[field];
      if (link && file) throw fail('partnerModelTwice', { field });
      if (file) staged.push({ field, name: file.name || `${field}.stl`, staged: file.staged, triangles: null });
      else if (link) {
        const name = decodeURIComponent(new URL(link).pathname.split('/').pop() ?? '').slice(0, 255) || `${field}.stl`;
        staged.push({ field, name: extensionOf(name) === 'stl' ? name : `${name}.stl`, staged: await fetchLink(ctx, lang, field, link, storage), triangles: null });
      }
    }
    checkModelSet(Object.fromEntries(staged.map((s) => [COLUMN[s.field], 1])));
    for (const s of staged) {
      const stl = await checkStl(await storage.openStaged(s.staged), ctx.logger);
      if (!stl.ok) {
        const detail = t(lang, STL_REASON[stl.code] ?? 'stlUnreadable');
        throw uploaded[s.field] ? fail('uploadNotStl', { name: s.name, detail }) : fail('partnerLinkRefused', { field: s.field, reason: t(lang, 'partnerLinkNotStl', { detail }) });
      }
      s.triangles = stl.triangles;
    }
    return await blobs.run(() =>
      ctx.db.transaction().execute(async (trx) => {
        // Looked at again inside the write: of two copies at once, the second finds the first's.
        const again = await existing(trx, p, body.partnerOrderNo);
        if (again) return again;
        const nowMs = ctx.clock.now();
        const now = formatTime(nowMs);
        const models: Partial<Record<(typeof COLUMN)[ModelField], number>> = {};
        for (const s of staged) {
          await storage.commit(s.staged);
          committed = true;
          const file = await recordFile(ctx, trx, { staged: s.staged, name: s.name, ext: 'stl', kind: 'model', classifyId: null, userId: designerId, triangles: s.triangles, now });
          models[COLUMN[s.field]] = file.id;
        }
        const caseNo = await nextCaseNo(trx, nowMs);
        const { id } = await trx
          .insertInto('order_info')
          .values({
            caseNo,
            patientName: body.patientName,
            remark: body.remark ?? null,
            deliveryTime: body.deliveryTime ? deliveryTimeOf(body.deliveryTime) : null,
            enableAI: body.enableAI ? 1 : 0,
            aiStatus: AI_STATUS.notEnabled,
            status: ORDER_STATUS.design,
            designerId,
            creatorId: designerId,
            upperFileId: models.upperFileId ?? null,
            lowerFileId: models.lowerFileId ?? null,
            occlusionFileId: models.occlusionFileId ?? null,
            designStartTime: now,
            prescription: null,
            createTime: now,
            updateTime: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.insertInto('partner_order').values({ configId: p.id, partnerOrderNo: body.partnerOrderNo, orderId: id, createTime: now }).execute();
        await orderCreated(ctx, trx, id, designerId, Boolean(body.enableAI));
        return { orderId: id, caseNo, partnerOrderNo: body.partnerOrderNo, created: true };
      }),
    );
  } finally {
    if (!committed) await Promise.all([...staged.map((s) => storage.discard(s.staged)), ...Object.values(uploaded).filter((u) => !staged.some((s) => s.staged === u.staged)).map((u) => storage.discard(u.staged))]);
  }
}

/** "YYYY-MM-DD[ HH:mm[:ss]]" -> "YYYY-MM-DD HH:mm:ss". */
export function deliveryTimeOf(v: string): string {
  const [date, time = '00:00:00'] = v.replace('T', ' ').split(' ');
  return `${date} ${time.length === 5 ? `${time}:00` : time}`;
}
