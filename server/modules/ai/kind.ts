// The `autodesign` job kind (docs/jobs.md): the automatic design of one order.
// - Queued by submitAi (status.ts) with { orderId, uploads }; not taken while the order's bite or
//   teeth jobs are pending (`after`), so the engine gets the registered bite and stored teeth.
// - prepare (main side, at its start): aiStatus submitted -> processing, and the thread's input
//   from the order as it is then (models, stored teeth, bite, prescription).
// - Done: the engine's document is checked like an editor save (format version, wire types, size)
//   and saved as the order's next design version through the editor's store (writeDesign), its
//   wires marked `ai` by the engine; aiStatus processing -> ready. A document the designer saved
//   while the job ran is not overwritten, and a submitted order's design stays frozen: both end in
//   fail with the reason, like an unusable answer.
// - Failed for good (after its last attempt): aiStatus -> fail with the reason (aiError).
import type { BiteResult } from '../../../common/bite.ts';
import { DESIGN_MAX_BYTES, DESIGN_SCHEMA_VERSION } from '../../../common/design.ts';
import { AI_STATUS, ORDER_STATUS } from '../../../common/orders.ts';
import type { StoredTeeth } from '../../../common/teeth.ts';
import { isWireType } from '../../../common/wires.ts';
import { formatTime } from '../../core/clock.ts';
import type { GeoKind, HookArgs } from '../geo-jobs/types.ts';
import { writeDesign } from '../design/service.ts';
import type { AutodesignInput, AutodesignJaw, AutodesignResult } from './engine.ts';
import { orderPrescription } from './prescription.ts';
import { AUTODESIGN_KIND, moveAi, type AutodesignJobInput } from './status.ts';

export const AUTODESIGN_THREAD = new URL('./autodesign.thread.ts', import.meta.url).href;

/** Reasons the job's end gives (stored as aiError; the engine's own come as it threw them). */
export const AI_REASONS = {
  gone: 'the order no longer asks for an automatic design',
  unusable: 'the engine answered no usable design',
  frozen: 'the order was submitted for processing while the automatic design ran',
  edited: 'the design was saved by a designer while the automatic design ran',
} as const;

async function prepare({ ctx, job }: Omit<HookArgs, 'trx'>): Promise<AutodesignInput> {
  const { orderId, uploads } = job.input as AutodesignJobInput;
  const db = ctx.db;
  const order = await db.selectFrom('order_info').select(['id', 'enableAI', 'upperFileId', 'lowerFileId', 'prescription']).where('id', '=', orderId).executeTakeFirst();
  if (!order?.enableAI) throw new Error(AI_REASONS.gone);
  const now = ctx.clock.now();
  if (!(await db.transaction().execute((trx) => moveAi(trx, { orderId, to: AI_STATUS.processing, why: 'start', now })))) throw new Error(AI_REASONS.gone);
  const jaw = async (fileId: number | null, name: 'upper' | 'lower'): Promise<AutodesignJaw | null> => {
    if (!fileId) return null;
    const file = await db.selectFrom('space_info').select('key').where('id', '=', fileId).executeTakeFirst();
    if (!file) return null;
    const teeth = await db.selectFrom('model_teeth').select('teeth').where('fileKey', '=', file.key).where('jaw', '=', name).executeTakeFirst();
    return { fileId, key: file.key, teeth: teeth ? (JSON.parse(teeth.teeth) as StoredTeeth) : null };
  };
  const bite = await db.selectFrom('order_bite').select('result').where('orderId', '=', orderId).executeTakeFirst();
  return {
    orderId,
    uploads,
    upper: await jaw(order.upperFileId, 'upper'),
    lower: await jaw(order.lowerFileId, 'lower'),
    bite: bite ? (JSON.parse(bite.result) as BiteResult) : null,
    prescription: await orderPrescription(db, order.prescription),
  };
}

/** Why the engine's answer cannot be stored as a design, or null. */
function unusable(result: unknown): string | null {
  const r = result as Partial<AutodesignResult> | null;
  const doc = r?.design;
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return 'no design document';
  if (!Number.isInteger(doc.schemaVersion) || doc.schemaVersion < 1 || doc.schemaVersion > DESIGN_SCHEMA_VERSION) return `design format ${String(doc.schemaVersion)}`;
  if (!Array.isArray(doc.wires)) return 'no wires';
  if (doc.wires.some((w) => !w || !isWireType((w as { type?: unknown }).type))) return 'a wire of an unknown type';
  if (new TextEncoder().encode(JSON.stringify(doc)).length > DESIGN_MAX_BYTES) return 'the design is too large';
  return null;
}

async function failed({ ctx, trx, job }: HookArgs, reason: string): Promise<void> {
  const now = ctx.clock.now();
  await moveAi(trx, { orderId: job.orderId!, to: AI_STATUS.fail, why: 'failed', now, set: { aiError: reason.slice(0, 2000), aiEndTime: formatTime(now) } });
}

async function done(args: HookArgs, result: unknown): Promise<void> {
  const { ctx, trx, job } = args;
  if (job.orderId === null) return;
  const problem = unusable(result);
  if (problem) return failed(args, `${AI_REASONS.unusable} (${problem})`);
  const order = await trx.selectFrom('order_info').select(['status', 'aiStatus', 'designerId']).where('id', '=', job.orderId).executeTakeFirst();
  // Switched off or resubmitted meanwhile: nothing of this run is kept.
  if (!order || order.aiStatus !== AI_STATUS.processing) return;
  if (order.status === ORDER_STATUS.pending || order.status === ORDER_STATUS.processed) return failed(args, AI_REASONS.frozen);
  const current = await trx.selectFrom('design_data').select(['version', 'updateTime']).where('orderId', '=', job.orderId).executeTakeFirst();
  const started = await trx.selectFrom('geo_job').select('startTime').where('id', '=', job.id).executeTakeFirst();
  if (current && started?.startTime && current.updateTime > started.startTime) return failed(args, AI_REASONS.edited);
  const { design } = result as AutodesignResult;
  const now = ctx.clock.now();
  const time = formatTime(now);
  const written = await writeDesign(
    ctx,
    { orderId: job.orderId, userId: order.designerId, baseVersion: current?.version ?? 0, schemaVersion: design.schemaVersion, text: JSON.stringify(design), time },
    trx,
  );
  if (!written) return failed(args, AI_REASONS.edited);
  await moveAi(trx, { orderId: job.orderId, to: AI_STATUS.ready, why: 'done', now, set: { aiError: null, aiEndTime: time } });
}

/** The autodesign kind; `module`/`fn` name other thread code (tests: a fake engine). */
export function autodesignKind(thread: { module?: string; fn?: string } = {}): GeoKind {
  return {
    module: thread.module ?? AUTODESIGN_THREAD,
    fn: thread.fn ?? 'run',
    after: ['bite', 'teeth'],
    prepare,
    onDone: (result, args) => done(args, result),
    onFailed: (error, args) => failed(args, error),
  };
}

export { AUTODESIGN_KIND };
