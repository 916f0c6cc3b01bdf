// The editor's order calls under /admin/design/* (spec section 7, "Device and design"; docs/api.md,
// "Order lifecycle and the editor's order calls"). Each needs its permission design:<name>
// (seeded, server/db/seed-menus.ts) and acts only on orders in the caller's scope: the order's
// designer or an orders admin (visible order), except `designer`, which is the orders admin's
// or the order creator's call. Status changes go through lifecycle.ts (the transition table).
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import {
  copyOrderSchema,
  designerSchema,
  designReopenSchema,
  designSubmitSchema,
  modifyModelSchema,
  orderIdSchema,
  orderTeethSchema,
  otherDesignSchema,
  updateDrcSchema,
  type DrcResult,
  type OcclusalModelData,
  type OrderDeviceInfo,
} from '../../../common/order-lifecycle.ts';
import type { BiteResult } from '../../../common/bite.ts';
import { ORDER_STATUS } from '../../../common/orders.ts';
import type { AppContext } from '../../context.ts';
import { authOf, SEE_ALL, seesAll } from '../../core/access.ts';
import { formatTime } from '../../core/clock.ts';
import type { AppEnv } from '../../core/env.ts';
import { ok } from '../../core/envelope.ts';
import { entryDoc, epsGroup } from '../../core/eps.ts';
import { fail, invalidField } from '../../core/errors.ts';
import { userHolding } from '../../core/grants.ts';
import { validate } from '../../core/validate.ts';
import { containsText } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';
import { latestJobs } from '../geo-jobs/store.ts';
import { modelsChanged, moveOrder, recordCreated, uploadsDir } from '../order/lifecycle.ts';
import { orderTeeth, queueTeeth } from '../geo-jobs/teeth.ts';
import { nextCaseNo } from '../order/order-info.ts';
import { fileUrl } from '../space/upload.routes.ts';
import { copyReport } from '../ai/report.ts';
import { saveDentureBase } from './denture-base.ts';
import { assertEditable, scopedOrder, wrongStatus as statusError } from './service.ts';
import { loadAccess } from '../../core/perms.ts';

const PREFIX = '/admin/design';
const CALLS = epsGroup('design', PREFIX, 'DesignOrder');

type C = Context<AppEnv>;

export function orderCallRoutes(ctx: AppContext) {
  const doc = entryDoc(CALLS);
  const db = ctx.db;

  async function order(c: C, orderId: number) {
    const row = await scopedOrder(db, authOf(c).userId, orderId);
    if (!row) throw fail('designOrderNotFound');
    return row;
  }
  const wrongStatus = (c: C, status: number) => statusError(c.get('lang'), status);
  const listLimit = z.coerce.number().int().min(1).max(100).optional();

  return new Hono<AppEnv>()
    .post(`${PREFIX}/submit`, doc('Submit the design for processing ({ orderId }): 0 -> 1; needs a passing DRC of the current version'), validate('json', designSubmitSchema), async (c) => {
      const { orderId } = c.req.valid('json');
      const o = await order(c, orderId);
      if (o.status !== ORDER_STATUS.design) throw wrongStatus(c, o.status);
      const design = await db.selectFrom('design_data').select('version').where('orderId', '=', orderId).executeTakeFirst();
      if (!design) throw fail('designMissing');
      const drc = o.drc ? (JSON.parse(o.drc) as DrcResult) : null;
      if (!drc || drc.designVersion !== design.version) throw fail('drcMissing', { version: design.version });
      if (!drc.passed) throw fail('drcFailed', { version: design.version });
      const now = ctx.clock.now();
      const moved = await db.transaction().execute((trx) =>
        moveOrder(trx, { orderId, to: ORDER_STATUS.pending, reason: 'submit', userId: authOf(c).userId, set: { designEndTime: formatTime(now) }, now }),
      );
      if (moved === null) throw wrongStatus(c, (await order(c, orderId)).status);
      return ok(c, { orderId, status: ORDER_STATUS.pending });
    })
    .post(`${PREFIX}/reopen`, doc('Reopen a submitted order for changes ({ orderId }): 1 -> 0, designEndTime cleared'), validate('json', designReopenSchema), async (c) => {
      const { orderId } = c.req.valid('json');
      const o = await order(c, orderId);
      if (o.status !== ORDER_STATUS.pending) throw wrongStatus(c, o.status);
      const now = ctx.clock.now();
      const moved = await db.transaction().execute((trx) =>
        moveOrder(trx, { orderId, to: ORDER_STATUS.design, reason: 'reopen', userId: authOf(c).userId, set: { designEndTime: null }, now }),
      );
      if (moved === null) throw wrongStatus(c, (await order(c, orderId)).status);
      return ok(c, { orderId, status: ORDER_STATUS.design });
    })
    .post(`${PREFIX}/designer`, doc("Assign or change an order's designer ({ orderId, designerId }): orders admins and the order's creator"), validate('json', designerSchema), async (c) => {
      const { orderId, designerId } = c.req.valid('json');
      const { userId } = authOf(c);
      const admin = await seesAll(db, userId, SEE_ALL.orders);
      const o = await db.selectFrom('order_info').select(['id', 'designerId', 'creatorId']).where('id', '=', orderId).executeTakeFirst();
      // Someone who neither sees nor created the order learns nothing about it.
      if (!o || (!admin && o.creatorId !== userId && o.designerId !== userId)) throw fail('designOrderNotFound');
      if (!admin && o.creatorId !== userId) throw fail('designerNotAllowed');
      const user = await db.selectFrom('base_sys_user').select(['id', 'status']).where('id', '=', designerId).executeTakeFirst();
      if (!user || user.status !== 1) throw invalidField('designerId');
      // Only someone who may design (design:save) can be handed an order to design.
      const access = await loadAccess(db, designerId);
      if (!access.isSuper && !access.perms.has('design:save')) throw invalidField('designerId');
      if (o.designerId !== designerId) {
        const now = ctx.clock.now();
        await db.transaction().execute(async (trx) => {
          const cur = await trx.selectFrom('order_info').select('status').where('id', '=', orderId).executeTakeFirstOrThrow();
          await trx.updateTable('order_info').set({ designerId, updateTime: formatTime(now) }).where('id', '=', orderId).execute();
          await trx
            .insertInto('order_status_log')
            .values({ orderId, fromStatus: cur.status, toStatus: cur.status, reason: 'designer', userId, detail: `designer ${o.designerId} -> ${designerId}`, createTime: formatTime(now) })
            .execute();
        });
      }
      return ok(c, { orderId, designerId });
    })
    .get(
      `${PREFIX}/changeOrderList`,
      doc('Orders to switch to from the editor (in design or bite registration, in scope, newest first; ?keyWord&limit<=100)'),
      validate('query', z.object({ keyWord: z.string().trim().max(100).optional(), limit: listLimit })),
      async (c) => {
        const { keyWord, limit } = c.req.valid('query');
        const { userId } = authOf(c);
        let q = db
          .selectFrom('order_info')
          .select(['id', 'caseNo', 'patientName', 'status', 'designerId', 'updateTime'])
          .where('status', 'in', [ORDER_STATUS.design, ORDER_STATUS.biteRegistration])
          .orderBy('id', 'desc')
          .limit(limit ?? 50);
        if (!(await seesAll(db, userId, SEE_ALL.orders))) q = q.where('designerId', '=', userId);
        if (keyWord) {
          q = q.where((eb) => eb.or([containsText(db, 'caseNo', keyWord), containsText(db, 'patientName', keyWord)]));
        }
        return ok(c, await q.execute());
      },
    )
    .post(`${PREFIX}/otherDesign`, doc("The patient's other orders (same patient name, in scope) that have a design ({ orderId })"), validate('json', otherDesignSchema), async (c) => {
      const { orderId } = c.req.valid('json');
      const { userId } = authOf(c);
      const o = await order(c, orderId);
      let q = db
        .selectFrom('order_info as o')
        .innerJoin('design_data as d', 'd.orderId', 'o.id')
        .select(['o.id as orderId', 'o.caseNo', 'o.patientName', 'o.status', 'd.version', 'd.updateTime'])
        .where('o.patientName', '=', o.patientName)
        .where('o.id', '<>', orderId)
        .orderBy('d.updateTime', 'desc')
        .orderBy('o.id', 'desc')
        .limit(50);
      if (!(await seesAll(db, userId, SEE_ALL.orders))) q = q.where('o.designerId', '=', userId);
      return ok(c, await q.execute());
    })
    .post(`${PREFIX}/copyOrder`, doc('A remake: a new order with the same models, a copy of the design (version 1, with the automatic design\'s report) and of the bite ({ orderId, patientName?, remark? })'), validate('json', copyOrderSchema), async (c) => {
      const body = c.req.valid('json');
      const { userId } = authOf(c);
      const src = await order(c, body.orderId);
      // A copy is a new order: only for those who may add orders.
      const access = await loadAccess(db, userId);
      if (!access.isSuper && !access.perms.has('order:info:add')) throw fail('copyNotAllowed');
      const admin = await seesAll(db, userId, SEE_ALL.orders);
      const now = ctx.clock.now();
      const time = formatTime(now);
      const id = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('order_info')
          .values({
            caseNo: await nextCaseNo(trx, now),
            patientName: body.patientName ?? src.patientName,
            remark: body.remark === undefined ? src.remark : body.remark,
            deliveryTime: null,
            enableAI: 0,
            aiStatus: 0,
            // The remake keeps the order's own prescription (AI stays off until switched on).
            prescription: src.prescription,
            status: ORDER_STATUS.design,
            // Only an orders admin keeps another designer; everyone else designs their copy.
            designerId: admin ? src.designerId : userId,
            creatorId: userId,
            upperFileId: src.upperFileId,
            lowerFileId: src.lowerFileId,
            occlusionFileId: src.occlusionFileId,
            designStartTime: time,
            createTime: time,
            updateTime: time,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const newId = Number(row.id);
        await recordCreated(trx, newId, userId, now);
        await trx.updateTable('order_status_log').set({ detail: `copy of ${src.caseNo}` }).where('orderId', '=', newId).execute();
        const design = await trx.selectFrom('design_data').select(['schemaVersion', 'data']).where('orderId', '=', src.id).executeTakeFirst();
        if (design) {
          await trx
            .insertInto('design_data')
            .values({ orderId: newId, version: 1, schemaVersion: design.schemaVersion, data: design.data, userId, createTime: time, updateTime: time })
            .execute();
          // the automatic design's report goes with its wires, which stay AI-made until accepted
          await copyReport(trx, src.id, newId, 1, time);
        }
        const bite = await trx.selectFrom('order_bite').select(['source', 'result']).where('orderId', '=', src.id).executeTakeFirst();
        if (bite) {
          await trx.insertInto('order_bite').values({ orderId: newId, jobId: null, source: bite.source, result: bite.result, createTime: time, updateTime: time }).execute();
        } else if (src.occlusionFileId) {
          // No registered bite to copy: register it for the copy (its teeth with it).
          await modelsChanged(ctx, trx, newId, userId);
        }
        // Same model files: their stored teeth apply to the copy as they are; a jaw without gets its job.
        if (bite || !src.occlusionFileId) await queueTeeth(ctx, trx, newId, uploadsDir(ctx));
        return newId;
      });
      const created = await db.selectFrom('order_info').select(['id', 'caseNo', 'status', 'designerId']).where('id', '=', id).executeTakeFirstOrThrow();
      return ok(c, created);
    })
    .post(`${PREFIX}/saveDentureBase`, doc("Store the generated denture base as the order's STL file (raw STL body, ?orderId=; or multipart: orderId, file); replaces the previous one"), async (c) => {
      return saveDentureBase(ctx, c);
    })
    .post(`${PREFIX}/modifyModel`, doc("A new version of the upper or lower model from an uploaded STL file, or back to an earlier version ({ orderId, jaw, fileId | restoreVersion, note? })"), validate('json', modifyModelSchema), async (c) => {
      const body = c.req.valid('json');
      const { userId } = authOf(c);
      const o = await order(c, body.orderId);
      if ((body.fileId === undefined) === (body.restoreVersion === undefined)) throw fail('modifyModelOneOf');
      if (o.status !== ORDER_STATUS.design && o.status !== ORDER_STATUS.biteRegistration) throw fail('orderModelsLocked');
      const column = body.jaw === 'upper' ? 'upperFileId' : 'lowerFileId';
      if (body.fileId !== undefined) {
        const file = await db.selectFrom('space_info').select(['userId', 'triangleCount']).where('id', '=', body.fileId).executeTakeFirst();
        if (!file || (file.userId !== userId && !(await seesAll(db, userId, SEE_ALL.files)))) throw invalidField('fileId');
        if (file.triangleCount === null) throw fail('orderModelNotStl', { field: 'fileId' });
      }
      const now = ctx.clock.now();
      const time = formatTime(now);
      const result = await db.transaction().execute(async (trx) => {
        const versions = await trx.selectFrom('order_model_version').selectAll().where('orderId', '=', o.id).where('jaw', '=', body.jaw).orderBy('version').execute();
        let fileId: number;
        let version: number;
        if (body.fileId !== undefined) {
          let next = (versions.at(-1)?.version ?? 0) + 1;
          // The original is kept as version 1 the first time a jaw is modified.
          if (!versions.length && o[column]) {
            await trx.insertInto('order_model_version').values({ orderId: o.id, jaw: body.jaw, version: 1, fileId: o[column]!, note: 'original', userId: o.creatorId, createTime: time }).execute();
            next = 2;
          }
          await trx.insertInto('order_model_version').values({ orderId: o.id, jaw: body.jaw, version: next, fileId: body.fileId, note: body.note ?? 'edited', userId, createTime: time }).execute();
          [fileId, version] = [body.fileId, next];
        } else {
          const v = versions.find((r) => r.version === body.restoreVersion);
          if (!v) throw fail('modelVersionNotFound', { version: body.restoreVersion! });
          [fileId, version] = [v.fileId, v.version];
        }
        if (fileId !== o[column]) {
          await trx.updateTable('order_info').set({ [column]: fileId, updateTime: time }).where('id', '=', o.id).execute();
          await modelsChanged(ctx, trx, o.id, userId);
        }
        return { jaw: body.jaw, version, fileId };
      });
      return ok(c, { ...result, versions: await modelVersions(db, o.id) });
    })
    .get(`${PREFIX}/modelVersions`, doc("The versions of an order's models (?orderId=), each jaw's active one marked"), validate('query', orderIdSchema), async (c) => {
      const { orderId } = c.req.valid('query');
      await order(c, orderId);
      return ok(c, await modelVersions(db, orderId));
    })
    .get(`${PREFIX}/getOcclusalModelData`, doc("The occlusion model, the latest bite job and the registered bite of an order (?orderId=)"), validate('query', orderIdSchema), async (c) => {
      const { orderId } = c.req.valid('query');
      const o = await order(c, orderId);
      const file = o.occlusionFileId ? await db.selectFrom('space_info').select(['id', 'name']).where('id', '=', o.occlusionFileId).executeTakeFirst() : undefined;
      const job = (await latestJobs(db, [orderId], 'bite')).get(orderId) ?? null;
      const bite = await db.selectFrom('order_bite').select(['source', 'result', 'updateTime']).where('orderId', '=', orderId).executeTakeFirst();
      const data: OcclusalModelData = {
        orderId,
        occlusion: file ? { id: file.id, name: file.name, url: fileUrl(file.id) } : null,
        job,
        bite: bite ? { ...(JSON.parse(bite.result) as BiteResult), source: bite.source as 'auto' | 'manual', updateTime: bite.updateTime } : null,
      };
      return ok(c, data);
    })
    .get(`${PREFIX}/getTeeth`, doc("The teeth of an order's jaw model (?orderId=&jaw=upper|lower): the state of its teeth job, and the stored teeth when done"), validate('query', orderTeethSchema), async (c) => {
      const { orderId, jaw } = c.req.valid('query');
      const o = await order(c, orderId);
      return ok(c, await orderTeeth(db, o, jaw));
    })
    .post(`${PREFIX}/factories`, doc('The manufacturers (departments) the caller may send an order to: those of their data scope, all for orders admins'), async (c) => {
      const { userId } = authOf(c);
      const holding = await userHolding(db, userId);
      const all = holding.departments === undefined || (await seesAll(db, userId, SEE_ALL.orders));
      const ids = all ? undefined : [...(holding.departments ?? [])];
      if (ids && !ids.length) return ok(c, []);
      let q = db.selectFrom('base_sys_department').select(['id', 'name', 'parentId']).orderBy('orderNum').orderBy('id');
      if (ids) q = q.where('id', 'in', ids);
      return ok(c, await q.execute());
    })
    .get(`${PREFIX}/getDeviceInfo`, doc("The machine the order's wires go to (its latest bend job's device, with online state) and the order's bend jobs (?orderId=)"), validate('query', orderIdSchema), async (c) => {
      const { orderId } = c.req.valid('query');
      await order(c, orderId);
      const jobs = await db
        .selectFrom('device_job')
        .select(['jobId', 'deviceId', 'wire', 'status', 'updateTime'])
        .where('orderId', '=', orderId)
        .orderBy('id', 'desc')
        .limit(100)
        .execute();
      let device: OrderDeviceInfo['device'] = null;
      if (jobs[0]) {
        const d = await db
          .selectFrom('device_info as d')
          .leftJoin('device_link as l', 'l.deviceId', 'd.id')
          .select(['d.id', 'd.devicename', 'd.status', 'l.state'])
          .where('d.id', '=', jobs[0].deviceId)
          .executeTakeFirst();
        if (d) device = { id: d.id, name: d.devicename, online: d.status === 1, status: d.status === 1 ? (d.state ?? 'idle') : 'offline' };
      }
      const wireOf = (w: string) => {
        try {
          const p = JSON.parse(w) as { id?: unknown; type?: unknown };
          return String(p.id ?? p.type ?? '');
        } catch {
          return '';
        }
      };
      const data: OrderDeviceInfo = { device, jobs: jobs.map((j) => ({ jobId: j.jobId, wire: wireOf(j.wire), status: j.status, updateTime: j.updateTime })) };
      return ok(c, data);
    })
    .post(`${PREFIX}/updateDRC`, doc('Store the design rule check of the current design version ({ orderId, designVersion, passed, issues })'), validate('json', updateDrcSchema), async (c) => {
      const body = c.req.valid('json');
      const o = await order(c, body.orderId);
      assertEditable(c.get('lang'), o.status);
      const design = await db.selectFrom('design_data').select('version').where('orderId', '=', o.id).executeTakeFirst();
      if (!design) throw fail('designMissing');
      if (design.version !== body.designVersion) throw fail('drcVersionUnknown', { version: body.designVersion, current: design.version });
      const time = formatTime(ctx.clock.now());
      const drc: DrcResult = { ...body, updateTime: time };
      await db.updateTable('order_info').set({ drc: JSON.stringify(drc), updateTime: time }).where('id', '=', o.id).execute();
      return ok(c, drc);
    });
}

async function modelVersions(db: Db, orderId: number) {
  const o = await db.selectFrom('order_info').select(['upperFileId', 'lowerFileId']).where('id', '=', orderId).executeTakeFirst();
  const rows = await db
    .selectFrom('order_model_version as v')
    .leftJoin('space_info as f', 'f.id', 'v.fileId')
    .select(['v.jaw', 'v.version', 'v.fileId', 'f.name', 'v.note', 'v.userId', 'v.createTime'])
    .where('v.orderId', '=', orderId)
    .orderBy('v.jaw')
    .orderBy('v.version')
    .execute();
  // The active version: the newest whose file is the order's model now.
  const active = new Map<string, number>();
  for (const r of rows) if (r.fileId === (r.jaw === 'upper' ? o?.upperFileId : o?.lowerFileId)) active.set(r.jaw, r.version);
  return rows.map((r) => ({ ...r, url: fileUrl(r.fileId), active: active.get(r.jaw) === r.version }));
}
