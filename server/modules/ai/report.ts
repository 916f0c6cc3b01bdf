// The automatic design's report kept with the order (order_ai_report, common/ai-report.ts): what
// the engine (or an outside AI service) said of each prescribed wire and base, for the designer
// who reviews the design (served with it: GET /admin/design/getDesignData's aiReport). One row per
// order, written with the design it came with (storeAiDesign, in its transaction) and carrying
// that design's version.
import { aiReportSchema } from '../../../common/ai-request.ts';
import type { AiReport, AiReportRecord } from '../../../common/ai-report.ts';
import type { Db } from '../../db/index.ts';

/** The report of an engine's or service's answer ({ report, bases }): none, checked, or why it is not one. */
export function reportOf(result: { report?: unknown; bases?: unknown }): { report: AiReport | null } | { problem: string } {
  if (result.report === undefined && result.bases === undefined) return { report: null };
  const parsed = aiReportSchema.safeParse({ wires: result.report ?? [], bases: result.bases });
  if (parsed.success) return { report: parsed.data };
  const issue = parsed.error.issues[0]!;
  const where = issue.path.map((p) => (p === 'wires' ? 'report' : String(p))).join('.');
  return { problem: `an invalid report (${where}: ${issue.message})` };
}

/** Keeps the report of the design stored as `version`; a design stored without one leaves none. */
export async function keepReport(trx: Db, orderId: number, version: number, report: AiReport | null, time: string): Promise<void> {
  await trx.deleteFrom('order_ai_report').where('orderId', '=', orderId).execute();
  if (report) await trx.insertInto('order_ai_report').values({ orderId, version, report: JSON.stringify(report), createTime: time }).execute();
}

/** The order's report, or null. */
export async function readReport(db: Db, orderId: number): Promise<AiReportRecord | null> {
  const row = await db.selectFrom('order_ai_report').select(['orderId', 'version', 'report', 'createTime']).where('orderId', '=', orderId).executeTakeFirst();
  return row ? { orderId: row.orderId, version: row.version, report: JSON.parse(row.report) as AiReport, createTime: row.createTime } : null;
}

/** A copy of one order's report for another whose design is a copy of the first's, as `version`. */
export async function copyReport(trx: Db, from: number, to: number, version: number, time: string): Promise<void> {
  const row = await trx.selectFrom('order_ai_report').select('report').where('orderId', '=', from).executeTakeFirst();
  if (row) await trx.insertInto('order_ai_report').values({ orderId: to, version, report: row.report, createTime: time }).execute();
}
