// The automatic design's report (server/modules/ai/kind.ts storeAiDesign, common/ai-report.ts):
// order_ai_report, one row per order, the report (JSON) of the design the engine or an outside AI
// service stored last, with that design's version; replaced by the next stored AI design, left as
// it is by a run that fails (the design it belongs to stays too).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('order_ai_report')
    .addColumn('orderId', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('report', 'text', (c) => c.notNull())
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('order_ai_report').execute();
}
