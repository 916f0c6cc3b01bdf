// The request log once kept the bodies of anonymous calls and redacted fewer secret names (an API
// configuration's `key` showed in clear on the log page). Existing entries get today's rules:
// anonymous entries lose their parameters, the others are redacted again, and parameters that
// were cut short (not JSON any more, so not safely redactable) are dropped.
import type { Kysely } from 'kysely';
import { redact } from '../../core/request-log.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('base_sys_log').set({ params: null }).where('userId', 'is', null).execute();
  let after = 0;
  for (;;) {
    const rows: { id: number; params: string }[] = await db
      .selectFrom('base_sys_log')
      .select(['id', 'params'])
      .where('id', '>', after)
      .where('params', 'is not', null)
      .orderBy('id', 'asc')
      .limit(500)
      .execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      let params: string | null;
      try {
        params = JSON.stringify(redact(JSON.parse(row.params)));
      } catch {
        params = null;
      }
      if (params !== row.params) await db.updateTable('base_sys_log').set({ params }).where('id', '=', row.id).execute();
    }
    after = rows.at(-1)!.id;
  }
}

export async function down(): Promise<void> {
  // Redacted values cannot come back.
}
