// /admin/plugin/info: the built-in plugins (editors, the Excel kit, the AI service connector) and
// installed packages. Every call but `state` needs its right (plugin:info:<call>):
//   POST list                   all plugins with status, settings and settings schema
//   GET  state                  the disabled plugins' keys and the editors' settings (any
//                               signed-in user: pages hide or configure themselves)
//   POST enable { key, status } enable (1) or disable (0); an installed plugin's menus hide too
//   POST config { key, settings } settings checked against the plugin's settings schema
//   POST install (multipart file: a JSON manifest or a ZIP with manifest.json) records the
//        checked package and adds its menus (core/../manifest.ts); nothing in it is run
//   POST uninstall { key }      removes an installed plugin and its menus (built-ins: disable)
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { BUILTIN_PLUGINS, settingsDefaults, settingsValidator, type SettingField } from '../../../common/plugins.ts';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import type { AppEnv } from '../../core/env.ts';
import { entryDoc, epsGroup } from '../../core/eps.ts';
import { ok } from '../../core/envelope.ts';
import { fail, invalidField } from '../../core/errors.ts';
import { validate } from '../../core/validate.ts';
import type { Database } from '../../db/schema.ts';
import { readPackage, type Manifest } from './manifest.ts';

export const PLUGIN_PREFIX = '/admin/plugin/info';
/** Any signed-in user may read which plugins are off (core/auth.ts LOGIN_ONLY_PATHS). */
export const PLUGIN_STATE_PATH = `${PLUGIN_PREFIX}/state`;
/** Built-ins whose settings every page may read (the editors): no secrets among them. */
const PAGE_PLUGINS: ReadonlySet<string> = new Set(['markdown', 'code', 'richText', 'regionPicker']);

export interface PluginView {
  key: string;
  /** Built-ins are named by the client (its language); installed ones by their manifest. */
  name: string;
  title?: string;
  description?: string;
  version: string;
  builtIn: boolean;
  status: 0 | 1;
  settings: Record<string, unknown>;
  settingsSchema: SettingField[];
  menus: { name: string; router: string }[];
  files: { name: string; size: number }[];
}

type Db = Kysely<Database>;
const keySchema = z.string().trim().min(1).max(64);

function parseJson<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export async function listPlugins(db: Db): Promise<PluginView[]> {
  const rows = await db.selectFrom('plugin_info').selectAll().orderBy('id', 'asc').execute();
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const builtIns: PluginView[] = BUILTIN_PLUGINS.map((p) => {
    const row = byKey.get(p.key);
    return {
      key: p.key,
      name: p.key,
      version: p.version,
      builtIn: true,
      status: row && row.status === 0 ? 0 : 1,
      settings: { ...settingsDefaults(p.settings), ...parseJson(row?.settings ?? null, {}) },
      settingsSchema: p.settings,
      menus: [],
      files: [],
    };
  });
  const installed: PluginView[] = rows
    .filter((r) => r.builtIn !== 1)
    .map((r) => {
      const manifest = parseJson<Partial<Manifest>>(r.manifest, {});
      const schema = manifest.settings ?? [];
      return {
        key: r.key,
        name: r.name,
        title: manifest.title,
        description: manifest.description,
        version: r.version,
        builtIn: false,
        status: r.status === 0 ? 0 : 1,
        settings: { ...settingsDefaults(schema), ...parseJson(r.settings, {}) },
        settingsSchema: schema,
        menus: (manifest.menus ?? []).map((m) => ({ name: m.name, router: m.router })),
        files: parseJson(r.files, []),
      };
    });
  return [...builtIns, ...installed];
}

async function pluginOf(db: Db, key: string): Promise<PluginView> {
  const found = (await listPlugins(db)).find((p) => p.key === key);
  if (!found) throw fail('dataNotFound');
  return found;
}

/** The row of a built-in, created on its first change. */
async function ensureRow(db: Db, plugin: PluginView, now: string): Promise<void> {
  if (!plugin.builtIn) return;
  await db
    .insertInto('plugin_info')
    .values({ key: plugin.key, name: plugin.key, version: plugin.version, builtIn: 1, status: 1, createTime: now, updateTime: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

async function addMenus(db: Db, manifest: Manifest, now: string): Promise<number[]> {
  const menus = manifest.menus ?? [];
  if (!menus.length) return [];
  const taken = await db.selectFrom('base_sys_menu').select('router').where('router', 'in', menus.map((m) => m.router)).executeTakeFirst();
  if (taken) throw fail('pluginPackageInvalid', { reason: `menu path ${taken.router} is taken` });
  const row = (values: Record<string, unknown>) =>
    db
      .insertInto('base_sys_menu')
      .values({ keepAlive: 0, isShow: 1, orderNum: 900, icon: null, router: null, perms: null, viewPath: null, createTime: now, updateTime: now, ...values } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((r) => r.id);
  const ids: number[] = [];
  const group = await row({ parentId: null, name: manifest.title ?? manifest.name, type: 0, icon: 'plugin' });
  ids.push(group);
  for (const [i, m] of menus.entries()) {
    const page = await row({ parentId: group, name: m.name, type: 1, router: m.router, viewPath: m.url, icon: m.icon ?? null, orderNum: i });
    ids.push(page);
    if (m.perms?.length) ids.push(await row({ parentId: page, name: m.name, type: 2, perms: m.perms.join(',') }));
  }
  if (manifest.permissions?.length) ids.push(await row({ parentId: group, name: manifest.name, type: 2, perms: manifest.permissions.join(',') }));
  return ids;
}

export function pluginModule(ctx: AppContext) {
  const doc = entryDoc(epsGroup('plugin', PLUGIN_PREFIX, 'PluginInfo'));
  const now = () => formatTime(ctx.clock.now());
  const routes = new Hono<AppEnv>()
    .post('/list', doc('All plugins: built-in and installed, with status, settings and settings schema'), async (c) => ok(c, await listPlugins(ctx.db)))
    .get('/state', doc('Keys of the disabled plugins, and the settings of the built-in editors (any signed-in user)'), async (c) => {
      const all = await listPlugins(ctx.db);
      const settings = Object.fromEntries(all.filter((p) => PAGE_PLUGINS.has(p.key)).map((p) => [p.key, p.settings]));
      return ok(c, { disabled: all.filter((p) => p.status === 0).map((p) => p.key), settings });
    })
    .post('/enable', doc('Enable or disable a plugin ({ key, status })'), validate('json', z.object({ key: keySchema, status: z.union([z.literal(0), z.literal(1)]) })), async (c) => {
      const { key, status } = c.req.valid('json');
      const plugin = await pluginOf(ctx.db, key);
      await ctx.db.transaction().execute(async (trx) => {
        await ensureRow(trx, plugin, now());
        const row = await trx.updateTable('plugin_info').set({ status, updateTime: now() }).where('key', '=', key).returning('menuIds').executeTakeFirstOrThrow();
        const menuIds = parseJson<number[]>(row.menuIds, []);
        if (menuIds.length) await trx.updateTable('base_sys_menu').set({ isShow: status }).where('id', 'in', menuIds).where('type', '!=', 2).execute();
      });
      return ok(c, null);
    })
    .post('/config', doc("Save a plugin's settings ({ key, settings }), checked against its settings schema"), validate('json', z.object({ key: keySchema, settings: z.record(z.string(), z.unknown()) })), async (c) => {
      const { key, settings } = c.req.valid('json');
      const plugin = await pluginOf(ctx.db, key);
      const checked = settingsValidator(plugin.settingsSchema).safeParse(settings);
      if (!checked.success) {
        const field = String(checked.error.issues[0]?.path[0] ?? checked.error.issues[0]?.message ?? 'settings');
        throw fail('pluginSettingsInvalid', { field });
      }
      await ctx.db.transaction().execute(async (trx) => {
        await ensureRow(trx, plugin, now());
        await trx.updateTable('plugin_info').set({ settings: JSON.stringify(checked.data), updateTime: now() }).where('key', '=', key).execute();
      });
      return ok(c, null);
    })
    .post('/install', doc('Install a plugin package (multipart "file": a JSON manifest or a ZIP with manifest.json); nothing in it is run'), async (c) => {
      let form: FormData;
      try {
        form = await c.req.formData();
      } catch {
        throw invalidField('file', true);
      }
      const file = form.get('file');
      if (!file || typeof file === 'string') throw invalidField('file', true);
      const pkg = readPackage(new Uint8Array(await file.arrayBuffer()));
      const { manifest } = pkg;
      if (BUILTIN_PLUGINS.some((p) => p.key === manifest.name)) throw fail('pluginExists', { name: manifest.name });
      const id = await ctx.db.transaction().execute(async (trx) => {
        if (await trx.selectFrom('plugin_info').select('id').where('key', '=', manifest.name).executeTakeFirst()) throw fail('pluginExists', { name: manifest.name });
        const menuIds = await addMenus(trx, manifest, now());
        const row = await trx
          .insertInto('plugin_info')
          .values({
            key: manifest.name,
            name: manifest.name,
            version: manifest.version,
            builtIn: 0,
            status: 1,
            settings: JSON.stringify(settingsDefaults(manifest.settings ?? [])),
            manifest: JSON.stringify(manifest),
            menuIds: JSON.stringify(menuIds),
            files: JSON.stringify(pkg.files),
            createTime: now(),
            updateTime: now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      });
      return ok(c, { id, key: manifest.name });
    })
    .post('/uninstall', doc('Remove an installed plugin and its menus ({ key })'), validate('json', z.object({ key: keySchema })), async (c) => {
      const { key } = c.req.valid('json');
      if (BUILTIN_PLUGINS.some((p) => p.key === key)) throw fail('pluginBuiltIn');
      await ctx.db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('plugin_info').select(['id', 'menuIds']).where('key', '=', key).executeTakeFirst();
        if (!row) throw fail('dataNotFound');
        const menuIds = parseJson<number[]>(row.menuIds, []);
        if (menuIds.length) {
          await trx.deleteFrom('base_sys_role_menu').where('menuId', 'in', menuIds).execute();
          await trx.deleteFrom('base_sys_menu').where('id', 'in', menuIds).execute();
        }
        await trx.deleteFrom('plugin_info').where('id', '=', row.id).execute();
      });
      return ok(c, null);
    });
  return new Hono<AppEnv>().route(PLUGIN_PREFIX, routes);
}
