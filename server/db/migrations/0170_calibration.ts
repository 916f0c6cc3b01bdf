// Machines calibrated by their own apps, and a bending head per machine:
// - device_info.head: the machine's bending head as JSON boxes (common/bend-program.ts HeadBox);
//   null, as for every existing machine, is the default head;
// - device_config_history: every springback table that was replaced (by the back-office form, a
//   calibration upload or a restore), with who replaced it and how, so it can be listed and put back.
import type { Kysely } from 'kysely';
import { idColumn } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('device_info').addColumn('head', 'text').execute();
  await db.schema
    .createTable('device_config_history')
    .$call(idColumn(db))
    .addColumn('deviceId', 'integer', (c) => c.notNull())
    .addColumn('diameter', 'double precision', (c) => c.notNull())
    .addColumn('springback', 'text', (c) => c.notNull())
    .addColumn('remark', 'varchar(1024)')
    // What replaced it: 'form' (back office), 'calibration' (the machine's app) or 'restore'.
    .addColumn('replacedBy', 'varchar(16)', (c) => c.notNull())
    // The user who replaced it; null for the machine's calibration app.
    .addColumn('userId', 'integer')
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('device_config_history_device').on('device_config_history').columns(['deviceId', 'diameter']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('device_config_history').execute();
  await db.schema.alterTable('device_info').dropColumn('head').execute();
}
