// Whether a plugin is enabled and its settings, for the calls a plugin provides (a built-in
// without a row in plugin_info is enabled with its defaults; modules/plugin manages the rows).
import type { Kysely } from 'kysely';
import { BUILTIN_PLUGINS, settingsDefaults } from '../../common/plugins.ts';
import type { Database } from '../db/schema.ts';
import { fail } from './errors.ts';

export async function pluginEnabled(db: Kysely<Database>, key: string): Promise<boolean> {
  const row = await db.selectFrom('plugin_info').select('status').where('key', '=', key).executeTakeFirst();
  return !row || row.status === 1;
}

/** Refuses the call while the plugin is disabled; else its settings (defaults filled in). */
export async function requirePlugin(db: Kysely<Database>, key: string): Promise<Record<string, unknown>> {
  const row = await db.selectFrom('plugin_info').select(['status', 'settings']).where('key', '=', key).executeTakeFirst();
  if (row && row.status !== 1) throw fail('pluginDisabled', { name: key });
  const builtIn = BUILTIN_PLUGINS.find((p) => p.key === key);
  let stored: Record<string, unknown> = {};
  try {
    stored = row?.settings ? (JSON.parse(row.settings) as Record<string, unknown>) : {};
  } catch {
    // A stored value that is not JSON: the defaults apply.
  }
  return { ...settingsDefaults(builtIn?.settings ?? []), ...stored };
}

/** The most rows one export writes: the Excel plugin's setting within `max`. */
export async function exportRowCap(db: Kysely<Database>, max: number): Promise<number> {
  const { exportRows } = await requirePlugin(db, 'excel');
  return typeof exportRows === 'number' && exportRows >= 1 ? Math.min(max, Math.floor(exportRows)) : max;
}
