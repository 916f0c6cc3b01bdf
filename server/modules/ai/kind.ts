// The `autodesign` job kind (docs/jobs.md): the automatic design of one order.
// - Queued by submitAi (status.ts) with { orderId, uploads }; not taken while the order's bite or
//   teeth jobs are pending (`after`), so the engine gets the registered bite and stored teeth.
// - prepare (main side, at its start): aiStatus submitted -> processing, and the thread's input
//   from the order as it is then (models, stored teeth, bite, prescription).
// - Done: the engine's document is checked like an editor save (format version, wire types, size)
//   and saved as the order's next design version through the editor's store (writeDesign), its
//   wires marked `ai` by the engine; its report (per wire and base, checked: report.ts) kept with
//   that version (order_ai_report); aiStatus processing -> ready. A document the designer saved
//   while the job ran is not overwritten, and a submitted order's design stays frozen: both end in
//   fail with the reason, like an unusable answer.
// - Failed for good (after its last attempt): aiStatus -> fail with the reason (aiError).
// - An outside AI service applies to the order (vendor.ts): prepare posts it the job instead and
//   the job ends done without a thread (a hand-off); aiStatus stays processing until the service's
//   callback stores its design through the same path (storeAiDesign), or fails it, or the sweep
//   fails it at the deadline.
import type { BiteResult } from '../../../common/bite.ts';
import { DESIGN_MAX_BYTES, DESIGN_SCHEMA_VERSION } from '../../../common/design.ts';
import { AI_STATUS, ORDER_STATUS } from '../../../common/orders.ts';
import type { StoredTeeth } from '../../../common/teeth.ts';
import { isWireType } from '../../../common/wires.ts';
import { formatTime } from '../../core/clock.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { PreparedResult, type GeoKind, type HookArgs } from '../geo-jobs/types.ts';
import { writeDesign } from '../design/service.ts';
import type { AutodesignInput, AutodesignJaw, AutodesignResult } from './engine.ts';
import { orderPrescription } from './prescription.ts';
import { keepReport, reportOf } from './report.ts';
import type { AiReport } from '../../../common/ai-report.ts';
import { AUTODESIGN_KIND, moveAi, type AutodesignJobInput } from './status.ts';
import { aiServiceFor, releaseOrder, sendToService, VENDOR_DEADLINE_MINUTES, VENDOR_REASONS } from './vendor.ts';

export const AUTODESIGN_THREAD = new URL('./autodesign.thread.ts', import.meta.url).href;

/** Reasons the job's end gives (stored as aiError; the engine's own come as it threw them). */
export const AI_REASONS = {
  gone: 'the order no longer asks for an automatic design',
  unusable: 'the engine answered no usable design',
  frozen: 'the order was submitted for processing while the automatic design ran',
  edited: 'the design was saved by a designer while the automatic design ran',
} as const;

/** The job's result when an outside AI service took the order (the design comes by its callback). */
interface HandedOff {
  handedTo: number;
}
const isHandOff = (result: unknown): result is HandedOff => typeof (result as HandedOff | null)?.handedTo === 'number';

async function prepare({ ctx, job }: Omit<HookArgs, 'trx'>): Promise<AutodesignInput | PreparedResult> {
  const { orderId, uploads } = job.input as AutodesignJobInput;
  const db = ctx.db;
  const order = await db
    .selectFrom('order_info')
    .select(['id', 'enableAI', 'upperFileId', 'lowerFileId', 'occlusionFileId', 'prescription'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order?.enableAI) throw new Error(AI_REASONS.gone);
  const now = ctx.clock.now();
  if (!(await db.transaction().execute((trx) => moveAi(trx, { orderId, to: AI_STATUS.processing, why: 'start', now })))) throw new Error(AI_REASONS.gone);
  // An older hand-off of this order is no longer awaited, whoever designs it now.
  await releaseOrder(db, orderId);
  const service = await aiServiceFor(db, orderId);
  if (service) {
    const prescription = await orderPrescription(db, order.prescription);
    await sendToService(ctx, service, { orderId, jobId: job.id, upperFileId: order.upperFileId, lowerFileId: order.lowerFileId, occlusionFileId: order.occlusionFileId, prescription });
    return new PreparedResult({ handedTo: service.id } satisfies HandedOff);
  }
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

/** The engine's answer as it is stored: its design, the design's JSON text and its report; or why it cannot be. */
export function checkAnswer(result: unknown): { design: AutodesignResult['design']; text: string; report: AiReport | null } | { problem: string } {
  const r = result as Partial<AutodesignResult> | null;
  const doc = r?.design;
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { problem: 'no design document' };
  if (!Number.isInteger(doc.schemaVersion) || doc.schemaVersion < 1 || doc.schemaVersion > DESIGN_SCHEMA_VERSION) return { problem: `design format ${String(doc.schemaVersion)}` };
  if (!Array.isArray(doc.wires)) return { problem: 'no wires' };
  if (doc.wires.some((w) => !w || !isWireType((w as { type?: unknown }).type))) return { problem: 'a wire of an unknown type' };
  const text = JSON.stringify(doc);
  if (new TextEncoder().encode(text).length > DESIGN_MAX_BYTES) return { problem: 'the design is too large' };
  const report = reportOf(r ?? {});
  return 'problem' in report ? report : { design: doc, text, report: report.report };
}

/** Why the engine's answer cannot be stored as a design, or null. */
export function unusable(result: unknown): string | null {
  const checked = checkAnswer(result);
  return 'problem' in checked ? checked.problem : null;
}

/** aiStatus processing | submitted -> fail with the reason; the order is no longer awaited from a service. */
export async function failAi(ctx: AppContext, trx: Db, orderId: number, reason: string): Promise<void> {
  const now = ctx.clock.now();
  await moveAi(trx, { orderId, to: AI_STATUS.fail, why: 'failed', now, set: { aiError: reason.slice(0, 2000), aiEndTime: formatTime(now) } });
  await releaseOrder(trx, orderId);
}

async function failed({ ctx, trx, job }: HookArgs, reason: string): Promise<void> {
  await failAi(ctx, trx, job.orderId!, reason);
}

/**
 * Stores an engine's (or service's) answer as the order's next design version, with its report
 * (none when the answer has none), and moves aiStatus to ready; an unusable answer, a frozen order or a design saved since `since` (when the run
 * started) fail it instead. Nothing when the order no longer awaits it (switched off,
 * resubmitted). Run in the transaction of the job's (or callback's) end.
 */
export async function storeAiDesign(ctx: AppContext, trx: Db, orderId: number, since: string | null, result: unknown): Promise<void> {
  const answer = checkAnswer(result);
  if ('problem' in answer) return failAi(ctx, trx, orderId, `${AI_REASONS.unusable} (${answer.problem})`);
  const order = await trx.selectFrom('order_info').select(['status', 'aiStatus', 'designerId']).where('id', '=', orderId).executeTakeFirst();
  // Switched off or resubmitted meanwhile: nothing of this run is kept.
  if (!order || order.aiStatus !== AI_STATUS.processing) return;
  if (order.status === ORDER_STATUS.pending || order.status === ORDER_STATUS.processed) return failAi(ctx, trx, orderId, AI_REASONS.frozen);
  const current = await trx.selectFrom('design_data').select(['version', 'updateTime']).where('orderId', '=', orderId).executeTakeFirst();
  if (current && since && current.updateTime > since) return failAi(ctx, trx, orderId, AI_REASONS.edited);
  const now = ctx.clock.now();
  const time = formatTime(now);
  const baseVersion = current?.version ?? 0;
  const written = await writeDesign(
    ctx,
    { orderId, userId: order.designerId, baseVersion, schemaVersion: answer.design.schemaVersion, text: answer.text, time },
    trx,
  );
  if (!written) return failAi(ctx, trx, orderId, AI_REASONS.edited);
  await keepReport(trx, orderId, baseVersion + 1, answer.report, time);
  await moveAi(trx, { orderId, to: AI_STATUS.ready, why: 'done', now, set: { aiError: null, aiEndTime: time } });
  await releaseOrder(trx, orderId);
}

async function done(args: HookArgs, result: unknown): Promise<void> {
  const { ctx, trx, job } = args;
  if (job.orderId === null) return;
  // Handed to a service: it stays processing until the callback (or the deadline).
  if (isHandOff(result)) return;
  const started = await trx.selectFrom('geo_job').select('startTime').where('id', '=', job.id).executeTakeFirst();
  await storeAiDesign(ctx, trx, job.orderId, started?.startTime ?? null, result);
}

/** Fails the orders whose service did not answer by the deadline; forgets hand-offs no longer awaited. */
async function sweep(ctx: AppContext): Promise<void> {
  const now = ctx.clock.now();
  const overdue = await ctx.db.selectFrom('ai_vendor_job').select('orderId').where('deadline', '<', now).execute();
  for (const { orderId } of overdue) {
    await ctx.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('ai_vendor_job').select('deadline').where('orderId', '=', orderId).executeTakeFirst();
      if (!row || Number(row.deadline) >= now) return;
      const order = await trx.selectFrom('order_info').select('aiStatus').where('id', '=', orderId).executeTakeFirst();
      if (order?.aiStatus === AI_STATUS.processing) await failAi(ctx, trx, orderId, VENDOR_REASONS.overdue(VENDOR_DEADLINE_MINUTES));
      else await releaseOrder(trx, orderId);
    });
  }
}

/** The autodesign kind; `module`/`fn` name other thread code (tests: a fake engine). */
export function autodesignKind(thread: { module?: string; fn?: string } = {}): GeoKind {
  return {
    module: thread.module ?? AUTODESIGN_THREAD,
    fn: thread.fn ?? 'run',
    after: ['bite', 'teeth'],
    prepare,
    sweep,
    onDone: (result, args) => done(args, result),
    onFailed: (error, args) => failed(args, error),
  };
}

export { AUTODESIGN_KIND };
