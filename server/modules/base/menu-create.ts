// /admin/base/sys/menu/create and /parse: the two ways a menu grows besides the form.
// - create: a page for a resource described in eps, with its permission entries (Add, Delete,
//   Update, Query for the CRUD calls it has, one entry per other call), under a group.
// - parse: a menu file (an export of another installation) imported only when all of it passes:
//   its size, depth and number of entries, every entry valid, every permission string one the
//   server knows, and none beyond what the caller holds. Then it merges like `import`.
// Writing permission strings is granting rights: both follow checkMenuPerms (base:sys:menu:perms,
// and only strings the caller holds, unless superadmin).
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { SEE_ALL } from '../../core/access.ts';
import { MAX_JSON_DEPTH, nestingExceeds } from '../../core/body.ts';
import { formatTime } from '../../core/clock.ts';
import type { AppEnv } from '../../core/env.ts';
import { ok } from '../../core/envelope.ts';
import { ApiError, fail } from '../../core/errors.ts';
import type { Eps } from '../../core/eps.ts';
import { callerHolding, type Holding } from '../../core/grants.ts';
import { t, type Lang } from '../../core/i18n.ts';
import { permFromPath, splitPerms } from '../../core/perms.ts';
import { validate, validationError } from '../../core/validate.ts';
import { seedMenus, type MenuSeed } from '../../db/seed-menus.ts';
import { checkMenuPerms, checkParent, importMenus, importNode, MENU_PERMS_PERM } from './sys-menu.ts';

/** Limits of a menu file: bytes, levels (group > group > page > permission, and one spare), entries. */
export const MENU_FILE_MAX_KIB = 512;
export const MENU_FILE_MAX_DEPTH = 5;
export const MENU_FILE_MAX_ENTRIES = 2000;

const CRUD_ENTRIES: { name: string; calls: string[] }[] = [
  { name: 'Add', calls: ['add'] },
  { name: 'Delete', calls: ['delete'] },
  { name: 'Update', calls: ['update'] },
  { name: 'Query', calls: ['info', 'list', 'page'] },
];

/** Prefixes whose calls need no permission (open: no token; comm: any signed-in user). */
const UNGUARDED = ['/admin/base/open', '/admin/base/comm'];

/** Every permission string the server checks: its described calls, the "see all" grants and the seeded entries. */
export function knownPerms(eps: Eps): Set<string> {
  const known = new Set<string>([...Object.values(SEE_ALL), MENU_PERMS_PERM]);
  for (const entries of Object.values(eps)) {
    for (const entry of entries) {
      if (UNGUARDED.some((p) => entry.prefix === p || entry.prefix.startsWith(`${p}/`))) continue;
      for (const api of entry.api) {
        const perm = permFromPath(`${entry.prefix}${api.path}`);
        if (perm) known.add(perm);
      }
    }
  }
  const walk = (items: readonly MenuSeed[]) => {
    for (const m of items) {
      splitPerms(m.perms).forEach((p) => known.add(p));
      if (m.children) walk(m.children);
    }
  };
  walk(seedMenus);
  return known;
}

const createSchema = z.object({
  prefix: z.string().trim().regex(/^\/admin(\/[A-Za-z0-9_-]+)+$/).max(255),
  name: z.string().trim().min(1).max(255),
  router: z.string().trim().regex(/^\/[A-Za-z0-9/_-]*$/).max(255),
  parentId: z.coerce.number().int().positive().nullable().optional(),
  viewPath: z.string().trim().max(255).optional(),
  icon: z.string().trim().max(255).optional(),
  orderNum: z.coerce.number().int().min(-1_000_000).max(1_000_000).default(0),
});

/** The permission entries of a described resource: CRUD groups first, then one per other call. */
export function resourceEntries(eps: Eps, prefix: string): { name: string; perms: string }[] | undefined {
  if (UNGUARDED.some((p) => prefix === p || prefix.startsWith(`${p}/`))) return undefined;
  const entry = Object.values(eps)
    .flat()
    .find((e) => e.prefix === prefix);
  if (!entry?.api.length) return undefined;
  const calls = [...new Set(entry.api.map((a) => a.path.replace(/^\//, '')).filter((p) => /^[A-Za-z0-9_-]+$/.test(p)))];
  const perm = (call: string) => permFromPath(`${prefix}/${call}`)!;
  const out: { name: string; perms: string }[] = [];
  const used = new Set<string>();
  for (const group of CRUD_ENTRIES) {
    const have = group.calls.filter((call) => calls.includes(call));
    if (!have.length) continue;
    have.forEach((call) => used.add(call));
    out.push({ name: group.name, perms: have.map(perm).join(',') });
  }
  for (const call of calls) if (!used.has(call)) out.push({ name: call, perms: perm(call) });
  return out.length ? out : undefined;
}

/** Throws the first problem of a menu file (1001 naming the entry); a caller without the right to write permissions gets 403. */
export function checkMenuFile(nodes: unknown[], lang: Lang, known: Set<string>, caller: Holding): void {
  let count = 0;
  const walk = (items: unknown[], depth: number, trail: string) => {
    for (const [index, item] of items.entries()) {
      const label = item && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string' ? String((item as { name: string }).name) : `#${index + 1}`;
      const path = trail ? `${trail} / ${label}` : label;
      const problem = (reason: string) => fail('menuFileInvalid', { path, reason });
      if (depth > MENU_FILE_MAX_DEPTH) throw problem(t(lang, 'menuTooDeep', { max: MENU_FILE_MAX_DEPTH }));
      if (++count > MENU_FILE_MAX_ENTRIES) throw problem(t(lang, 'menuTooMany', { max: MENU_FILE_MAX_ENTRIES }));
      const parsed = importNode.safeParse(item);
      if (!parsed.success) {
        const err = validationError(parsed.error.issues, item);
        throw problem(t(lang, err.key, err.params));
      }
      const node = parsed.data;
      if (node.type === 1 && !node.router) throw problem(t(lang, 'fieldRequired', { field: 'router' }));
      if (node.type === 2 && !node.perms) throw problem(t(lang, 'fieldRequired', { field: 'perms' }));
      const unknown = splitPerms(node.perms).find((p) => !known.has(p));
      if (unknown) throw problem(t(lang, 'menuUnknownPerm', { perm: unknown }));
      try {
        checkMenuPerms(caller, undefined, node);
      } catch (err) {
        if (err instanceof ApiError && err.status === 200) throw problem(t(lang, err.key, err.params));
        throw err;
      }
      const children = (item as { children?: unknown }).children;
      if (children === undefined || children === null) continue;
      if (!Array.isArray(children)) throw problem(t(lang, 'fieldInvalid', { field: 'children' }));
      if (children.length && node.type === 2) throw problem(t(lang, 'menuPermChildren'));
      walk(children, depth + 1, path);
    }
  };
  walk(nodes, 1, '');
}

/** The tree of a multipart upload ("file") or of a JSON body ({ menus } or an array). */
async function readMenuFile(c: { req: { header(name: string): string | undefined; formData(): Promise<FormData>; json(): Promise<unknown> } }): Promise<unknown[]> {
  const unreadable = () => fail('menuFileUnreadable', { max: MENU_FILE_MAX_KIB });
  let value: unknown;
  if ((c.req.header('content-type') ?? '').startsWith('multipart/form-data')) {
    let file: File | string | null;
    try {
      file = (await c.req.formData()).get('file');
    } catch {
      throw unreadable();
    }
    if (!file || typeof file === 'string' || file.size > MENU_FILE_MAX_KIB * 1024) throw unreadable();
    const text = await file.text();
    // Measured before parsing, like every JSON body (core/body.ts).
    if (nestingExceeds(text, MAX_JSON_DEPTH)) throw unreadable();
    try {
      value = JSON.parse(text);
    } catch {
      throw unreadable();
    }
  } else {
    try {
      value = await c.req.json();
    } catch {
      throw unreadable();
    }
  }
  const menus = Array.isArray(value) ? value : value && typeof value === 'object' ? (value as { menus?: unknown }).menus : undefined;
  if (!Array.isArray(menus)) throw unreadable();
  return menus;
}

export function menuFileRoutes(ctx: AppContext, eps: Eps) {
  return new Hono<AppEnv>()
    .post('/create', validate('json', createSchema), async (c) => {
      const body = c.req.valid('json');
      const entries = resourceEntries(eps, body.prefix);
      if (!entries) throw fail('menuResourceUnknown', { prefix: body.prefix });
      const caller = await callerHolding(ctx.db, c);
      for (const e of entries) checkMenuPerms(caller, undefined, { type: 2, perms: e.perms });
      const now = formatTime(ctx.clock.now());
      const created = await ctx.db.transaction().execute(async (trx) => {
        await checkParent(trx, undefined, body.parentId);
        if (await trx.selectFrom('base_sys_menu').select('id').where('type', '=', 1).where('router', '=', body.router).executeTakeFirst()) {
          throw fail('menuRouterTaken', { router: body.router });
        }
        const page = await trx
          .insertInto('base_sys_menu')
          .values({
            parentId: body.parentId ?? null,
            name: body.name,
            type: 1,
            router: body.router,
            viewPath: body.viewPath || null,
            icon: body.icon || null,
            perms: null,
            orderNum: body.orderNum,
            keepAlive: 1,
            isShow: 1,
            createTime: now,
            updateTime: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const rows = entries.map((e, i) => ({ parentId: page.id, name: e.name, type: 2, router: null, viewPath: null, icon: null, perms: e.perms, orderNum: i + 1, keepAlive: 1, isShow: 1, createTime: now, updateTime: now }));
        const inserted = await trx.insertInto('base_sys_menu').values(rows).returning(['id', 'name', 'perms']).execute();
        return { id: page.id, entries: inserted };
      });
      return ok(c, created);
    })
    .post('/parse', async (c) => {
      const nodes = await readMenuFile(c);
      const caller = await callerHolding(ctx.db, c);
      const lang = c.get('lang');
      checkMenuFile(nodes, lang, knownPerms(eps), caller);
      const now = formatTime(ctx.clock.now());
      return ok(c, await ctx.db.transaction().execute((trx) => importMenus(trx, nodes, lang, now, caller)));
    });
}
