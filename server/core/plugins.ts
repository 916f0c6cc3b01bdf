// Whether a plugin is enabled, for the calls a plugin provides (a built-in without a row in
// plugin_info is enabled; modules/plugin manages the rows).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { fail } from './errors.ts';

export async function pluginEnabled(db: Kysely<Database>, key: string): Promise<boolean> {
  const row = await db.selectFrom('plugin_info').select('status').where('key', '=', key).executeTakeFirst();
  return !row || row.status === 1;
}

/** Refuses the call while the plugin is disabled. */
export async function requirePlugin(db: Kysely<Database>, key: string): Promise<void> {
  if (!(await pluginEnabled(db, key))) throw fail('pluginDisabled', { name: key });
}
