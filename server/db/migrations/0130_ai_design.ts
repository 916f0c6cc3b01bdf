// The automatic design (server/modules/ai): on order_info
// - prescription: the order's own prescription (common/prescription.ts, JSON), null for the lab's
//   default (the system param aiPrescription);
// - aiError: why the last automatic design failed (aiStatus fail), else null;
// - aiSubmitTime / aiEndTime: when it was last submitted and when that run ended (ready or fail),
//   for the mean time of GET /admin/design/aiStatistics.
// and the system param aiPrescription (the lab's default prescription, JSON), unless one exists.
import type { Kysely } from 'kysely';
import { PRESCRIPTION_PARAM_KEY } from '../../../common/ai.ts';
import { DEFAULT_PRESCRIPTION } from '../../../common/prescription.ts';
import { formatTime } from '../../core/clock.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_info').addColumn('prescription', 'text').execute();
  await db.schema.alterTable('order_info').addColumn('aiError', 'text').execute();
  await db.schema.alterTable('order_info').addColumn('aiSubmitTime', 'varchar(19)').execute();
  await db.schema.alterTable('order_info').addColumn('aiEndTime', 'varchar(19)').execute();
  const exists = await db.selectFrom('base_sys_param').select('id').where('keyName', '=', PRESCRIPTION_PARAM_KEY).executeTakeFirst();
  if (!exists) {
    const time = formatTime(Date.now());
    await db
      .insertInto('base_sys_param')
      .values({
        name: 'AI design: default prescription',
        keyName: PRESCRIPTION_PARAM_KEY,
        data: JSON.stringify(DEFAULT_PRESCRIPTION),
        dataType: 0,
        remark: 'Wires (type, Universal teeth), base and diameter per jaw for the automatic design; an order may carry its own',
        createTime: time,
        updateTime: time,
      })
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('base_sys_param').where('keyName', '=', PRESCRIPTION_PARAM_KEY).execute();
  for (const column of ['aiEndTime', 'aiSubmitTime', 'aiError', 'prescription']) {
    await db.schema.alterTable('order_info').dropColumn(column).execute();
  }
}
