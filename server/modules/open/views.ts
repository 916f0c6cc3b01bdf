// What the open calls answer about an order: the order and its statuses (codes and labels in the
// caller's language), its models, a summary of its design (wires, base) and its bending progress.
import type { Lang } from '../../core/i18n.ts';
import { t } from '../../core/i18n.ts';
import type { Db } from '../../db/index.ts';
import { wireIds } from '../order/lifecycle.ts';
import { AI_STATUS_LABELS, ORDER_STATUS_LABELS, type AiStatus, type OrderStatus } from '../order/status.ts';
import { designWires } from './programs.ts';
import type { partnerOrder } from './partner.ts';

type OrderRow = Awaited<ReturnType<typeof partnerOrder>>;

const label = (lang: Lang, status: number, labels: Record<number, Parameters<typeof t>[1]>) => (labels[status] ? t(lang, labels[status]) : String(status));

/** The statuses of an order, codes and labels. */
export function statuses(lang: Lang, o: { status: number; aiStatus: number; aiError: string | null }) {
  return {
    status: o.status as OrderStatus,
    statusText: label(lang, o.status, ORDER_STATUS_LABELS),
    aiStatus: o.aiStatus as AiStatus,
    aiStatusText: label(lang, o.aiStatus, AI_STATUS_LABELS),
    aiError: o.aiError,
  };
}

/** The order's bend jobs and how many of its design's wires are bent. */
export async function bending(db: Db, orderId: number) {
  const design = await db.selectFrom('design_data').select('data').where('orderId', '=', orderId).executeTakeFirst();
  const wires = wireIds(design?.data);
  const jobs = await db
    .selectFrom('device_job')
    .select(['jobId', 'deviceId', 'wire', 'status', 'step', 'stepCount', 'errorCode', 'errorMessage', 'createTime', 'updateTime'])
    .where('orderId', '=', orderId)
    .orderBy('id')
    .execute();
  const view = jobs.map(({ wire, ...j }) => {
    let wireId: string | null = null;
    try {
      const id = (JSON.parse(wire) as { id?: unknown }).id;
      wireId = id === undefined || id === null ? null : String(id);
    } catch {
      // (a job stored by an older client without a wire id)
    }
    return { ...j, wireId };
  });
  const bent = new Set(view.filter((j) => j.status === 'done' && j.wireId !== null).map((j) => j.wireId));
  return { wires: wires.length, bent: wires.filter((w) => bent.has(w)).length, jobs: view };
}

/** The design's summary: its version, its wires (without geometry) and its base. */
export async function designSummary(db: Db, order: { id: number; baseFileId: number | null; drc: string | null }) {
  const design = await db.selectFrom('design_data').select(['data', 'version', 'updateTime']).where('orderId', '=', order.id).executeTakeFirst();
  const wires = designWires(design?.data).map(({ points, ...w }) => ({ ...w, corners: points.length }));
  let drc: { passed?: boolean } | null = null;
  try {
    drc = order.drc ? (JSON.parse(order.drc) as { passed?: boolean }) : null;
  } catch {
    drc = null;
  }
  return {
    version: design?.version ?? null,
    updateTime: design?.updateTime ?? null,
    wires,
    base: { generated: order.baseFileId !== null },
    drcPassed: drc?.passed ?? null,
  };
}

/** orderInfo's answer. */
export async function orderView(db: Db, lang: Lang, o: OrderRow) {
  const fileIds = [o.upperFileId, o.lowerFileId, o.occlusionFileId].filter((v): v is number => v !== null);
  const files = fileIds.length ? await db.selectFrom('space_info').select(['id', 'name', 'size', 'triangleCount']).where('id', 'in', fileIds).execute() : [];
  const file = (id: number | null) => {
    const f = files.find((x) => x.id === id);
    return f ? { name: f.name, size: f.size, triangles: f.triangleCount } : null;
  };
  const designer = await db.selectFrom('base_sys_user').select(['id', 'username', 'name', 'nickName']).where('id', '=', o.designerId).executeTakeFirst();
  return {
    orderId: o.id,
    partnerOrderNo: o.partnerOrderNo ?? null,
    caseNo: o.caseNo,
    patientName: o.patientName,
    remark: o.remark,
    deliveryTime: o.deliveryTime,
    enableAI: o.enableAI === 1,
    ...statuses(lang, o),
    designer: designer ? { id: designer.id, username: designer.username, name: designer.nickName || designer.name || designer.username } : null,
    models: { upper: file(o.upperFileId), lower: file(o.lowerFileId), occlusion: file(o.occlusionFileId) },
    design: await designSummary(db, o),
    bending: await bending(db, o.id),
    designStartTime: o.designStartTime,
    designEndTime: o.designEndTime,
    processStartTime: o.processStartTime,
    processEndTime: o.processEndTime,
    createTime: o.createTime,
    updateTime: o.updateTime,
  };
}

/** productionInfo's answer: where the order stands in production. */
export async function productionView(db: Db, lang: Lang, o: OrderRow) {
  return {
    orderId: o.id,
    partnerOrderNo: o.partnerOrderNo ?? null,
    caseNo: o.caseNo,
    ...statuses(lang, o),
    design: await designSummary(db, o),
    bending: await bending(db, o.id),
    designEndTime: o.designEndTime,
    processStartTime: o.processStartTime,
    processEndTime: o.processEndTime,
  };
}
