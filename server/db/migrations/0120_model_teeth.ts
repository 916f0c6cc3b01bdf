// The teeth of an order's jaw models (the `teeth` geometry job):
// - model_teeth: the segmentation (common/teeth.ts StoredTeeth, JSON) of one model file's bytes
//   for one jaw, keyed by the file's content key (sha256) and the jaw: a replaced model has
//   another key, so its old teeth no longer apply; a copied order's model shares them;
// - geo_job.subject: what within the order a job is about (the jaw of a teeth job), so that a
//   new job supersedes only the order's older job of the same kind and subject.
import type { Kysely } from 'kysely';
import { idColumn } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('model_teeth')
    .$call(idColumn(db))
    .addColumn('fileKey', 'varchar(64)', (c) => c.notNull())
    .addColumn('jaw', 'varchar(8)', (c) => c.notNull())
    .addColumn('jobId', 'integer')
    .addColumn('teeth', 'text', (c) => c.notNull())
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .addColumn('updateTime', 'varchar(19)', (c) => c.notNull())
    .addUniqueConstraint('model_teeth_unique', ['fileKey', 'jaw'])
    .execute();
  await db.schema.alterTable('geo_job').addColumn('subject', 'varchar(32)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('geo_job').dropColumn('subject').execute();
  await db.schema.dropTable('model_teeth').execute();
}
