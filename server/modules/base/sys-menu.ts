// /admin/base/sys/menu: the menu tree (type 0 group, 1 page, 2 permission), its JSON export and
// a merging import. A menu with sub-menus is deleted only together with all of them (select the
// subtree), so no entry is left without its parent.
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { ok } from '../../core/envelope.ts';
import { ApiError, fail, forbidden, invalidField } from '../../core/errors.ts';
import { callerHolding, permsBeyond, type Holding } from '../../core/grants.ts';
import { t, type Lang } from '../../core/i18n.ts';
import { splitPerms } from '../../core/perms.ts';
import { validate, validationError } from '../../core/validate.ts';
import type { Database, Menu } from '../../db/schema.ts';

type Row = Record<string, unknown>;
export const MAX_IMPORT_MENUS = 5000;

/** true/false or 1/0, stored as 1/0. */
const flag = z.union([z.boolean(), z.coerce.number().int().min(0).max(1)]).transform((v) => (v ? 1 : 0));
const text = (max: number) => z.string().trim().max(max).nullable().optional().transform((v) => (v ? v : null));
const permsText = z
  .string()
  .max(2048)
  .nullable()
  .optional()
  .transform((v) => (v ? splitPerms(v).join(',') || null : null));
const fields = {
  name: z.string().trim().min(1).max(255),
  type: z.coerce.number().int().min(0).max(2),
  parentId: z.coerce.number().int().positive().nullable().optional(),
  router: text(255),
  viewPath: text(255),
  icon: text(255),
  perms: permsText,
  orderNum: z.coerce.number().int().min(-1_000_000).max(1_000_000),
  keepAlive: flag,
  isShow: flag,
};

export const menuAddSchema = z.object({
  ...fields,
  orderNum: fields.orderNum.default(0),
  keepAlive: fields.keepAlive.default(1),
  isShow: fields.isShow.default(1),
});
export const menuUpdateSchema = z.object({
  id: z.coerce.number().int().positive(),
  name: fields.name.optional(),
  type: fields.type.optional(),
  parentId: fields.parentId,
  // Left out = kept (the text fields would otherwise read a missing key as "clear it").
  router: fields.router.optional(),
  viewPath: fields.viewPath.optional(),
  icon: fields.icon.optional(),
  perms: fields.perms.optional(),
  orderNum: fields.orderNum.optional(),
  keepAlive: fields.keepAlive.optional(),
  isShow: fields.isShow.optional(),
});

/** One node of an exported/imported tree (no ids: they differ between installations). */
export interface MenuNode {
  name: string;
  type: number;
  router: string | null;
  viewPath: string | null;
  icon: string | null;
  perms: string | null;
  orderNum: number;
  keepAlive: boolean;
  isShow: boolean;
  children: MenuNode[];
}

export const importNode = z.object({
  name: fields.name,
  type: fields.type,
  router: fields.router,
  viewPath: fields.viewPath,
  icon: fields.icon,
  perms: fields.perms,
  orderNum: fields.orderNum.default(0),
  keepAlive: fields.keepAlive.default(1),
  isShow: fields.isShow.default(1),
});

export const menuResource = {
  module: 'base',
  path: 'sys/menu',
  name: 'BaseSysMenu',
  table: 'base_sys_menu',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    parentId: { type: 'number', comment: 'Parent menu ID', nullable: true },
    name: { type: 'string', comment: 'Name' },
    router: { type: 'string', comment: 'Route path', nullable: true },
    perms: { type: 'string', comment: 'Permissions, comma-separated', nullable: true },
    type: { type: 'number', comment: 'Type: 0 group, 1 page, 2 permission' },
    icon: { type: 'string', comment: 'Icon', nullable: true },
    orderNum: { type: 'number', comment: 'Order among siblings' },
    viewPath: { type: 'string', comment: 'View path', nullable: true },
    keepAlive: { type: 'boolean', comment: 'Keep the page alive' },
    isShow: { type: 'boolean', comment: 'Shown in the sidebar' },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['name', 'router', 'perms', 'viewPath'],
  sortable: ['id', 'name', 'orderNum', 'type', 'router', 'createTime', 'updateTime'],
  filterable: ['type', 'parentId', 'isShow'],
  defaultOrder: ['orderNum', 'asc'],
  addSchema: menuAddSchema,
  updateSchema: menuUpdateSchema,
  recycle: true,
  extraApi: [
    { method: 'post', path: '/export', summary: 'The menu tree as JSON ({ ids? }: only those subtrees)' },
    { method: 'post', path: '/import', summary: 'Merge a JSON menu tree ({ menus }): matching entries are kept, new ones added, bad ones skipped' },
    { method: 'post', path: '/create', summary: "A page with its permission entries from a resource's eps description ({ prefix, name, router, parentId?, viewPath?, icon?, orderNum? })" },
    { method: 'post', path: '/parse', summary: 'Import a menu file (multipart "file", or { menus }) after checking all of it: size, depth, count, known permissions held by the caller' },
  ],
} as const satisfies ResourceDef<'base_sys_menu', typeof menuAddSchema, typeof menuUpdateSchema>;

/** Writing permission strings onto menus needs its own permission; the rest of the form does not. */
export const MENU_PERMS_PERM = 'base:sys:menu:perms';

/**
 * A menu's `perms` are rights: whoever may write them could grant themselves anything. So adding or
 * changing them, or making an entry a permission entry (type 2), needs `base:sys:menu:perms` (403
 * without it), and a non-superadmin writes or rewrites only strings they hold themselves (1001).
 */
export function checkMenuPerms(caller: Holding, before: { type: number; perms: string | null } | undefined, after: { type: number; perms: string | null }): void {
  const changed = !before ? !!after.perms || after.type === 2 : before.perms !== after.perms || (after.type === 2 && before.type !== 2);
  if (!changed || caller.isSuper) return;
  if (!caller.perms.has(MENU_PERMS_PERM)) throw forbidden();
  if (permsBeyond([...splitPerms(before?.perms), ...splitPerms(after.perms)], caller).length) throw fail('grantBeyondOwn');
}

const asBooleans = (row: Row): Row => ({
  ...row,
  ...('keepAlive' in row ? { keepAlive: row.keepAlive === 1 || row.keepAlive === true } : {}),
  ...('isShow' in row ? { isShow: row.isShow === 1 || row.isShow === true } : {}),
});

export async function checkParent(db: Kysely<Database>, id: number | undefined, parentId: number | null | undefined): Promise<void> {
  if (parentId == null) return;
  const all = await db.selectFrom('base_sys_menu').select(['id', 'parentId', 'type']).execute();
  const byId = new Map(all.map((m) => [m.id, m]));
  const parent = byId.get(parentId);
  // A permission entry holds no children; a menu cannot sit below itself.
  if (!parent || parent.type === 2) throw invalidField('parentId');
  for (let m: typeof parent | undefined = parent; m; m = m.parentId === null ? undefined : byId.get(m.parentId)) {
    if (m.id === id) throw invalidField('parentId');
  }
}

export function menuTree(all: Menu[], rootIds?: number[]): MenuNode[] {
  const sorted = [...all].sort((a, b) => a.orderNum - b.orderNum || a.id - b.id);
  const toNode = (m: Menu): MenuNode => ({
    name: m.name,
    type: m.type,
    router: m.router,
    viewPath: m.viewPath,
    icon: m.icon,
    perms: m.perms,
    orderNum: m.orderNum,
    keepAlive: m.keepAlive === 1,
    isShow: m.isShow === 1,
    children: sorted.filter((c) => c.parentId === m.id).map(toNode),
  });
  const ids = new Set(all.map((m) => m.id));
  const roots = rootIds
    ? sorted.filter((m) => rootIds.includes(m.id))
    : sorted.filter((m) => m.parentId === null || !ids.has(m.parentId));
  return roots.map(toNode);
}

export interface MenuImportResult {
  created: number;
  matched: number;
  skipped: { path: string; reason: string }[];
}

/**
 * Merges a tree into the menu: an entry matching an existing one under the same parent (a page by
 * its router anywhere, a permission by its perms, a group by its name) is kept as it is and its
 * children are merged below it; others are added. An invalid entry is skipped with its children.
 */
export async function importMenus(db: Kysely<Database>, nodes: unknown[], lang: Lang, now: string, caller?: Holding): Promise<MenuImportResult> {
  const result: MenuImportResult = { created: 0, matched: 0, skipped: [] };
  const all = await db.selectFrom('base_sys_menu').selectAll().execute();
  let budget = MAX_IMPORT_MENUS;
  const merge = async (items: unknown[], parentId: number | null, trail: string) => {
    for (const [index, item] of items.entries()) {
      const label = item && typeof item === 'object' && typeof (item as Row).name === 'string' ? String((item as Row).name) : `#${index + 1}`;
      const path = trail ? `${trail} / ${label}` : label;
      if (--budget < 0) {
        result.skipped.push({ path, reason: t(lang, 'importTooManyRows', { max: MAX_IMPORT_MENUS }) });
        return;
      }
      const parsed = importNode.safeParse(item);
      if (!parsed.success) {
        const err = validationError(parsed.error.issues, item);
        result.skipped.push({ path, reason: t(lang, err.key, err.params) });
        continue;
      }
      const node = parsed.data;
      if (node.type === 1 && !node.router) {
        result.skipped.push({ path, reason: t(lang, 'fieldRequired', { field: 'router' }) });
        continue;
      }
      if (node.type === 2 && !node.perms) {
        result.skipped.push({ path, reason: t(lang, 'fieldRequired', { field: 'perms' }) });
        continue;
      }
      const parent = parentId === null ? undefined : all.find((m) => m.id === parentId);
      if (parent?.type === 2) {
        result.skipped.push({ path, reason: t(lang, 'fieldInvalid', { field: 'parentId' }) });
        continue;
      }
      const match = all.find((m) =>
        node.type === 1
          ? m.type === 1 && m.router === node.router
          : m.type === node.type && m.parentId === parentId && (node.type === 2 ? m.perms === node.perms : m.name === node.name),
      );
      let id: number;
      if (match) {
        result.matched++;
        id = match.id;
      } else {
        if (caller) {
          try {
            checkMenuPerms(caller, undefined, node);
          } catch (err) {
            if (!(err instanceof ApiError)) throw err;
            result.skipped.push({ path, reason: t(lang, err.key, err.params) });
            continue;
          }
        }
        const row = { ...node, parentId, createTime: now, updateTime: now };
        const inserted = await db.insertInto('base_sys_menu').values(row).returning('id').executeTakeFirstOrThrow();
        id = inserted.id;
        all.push({ ...row, id });
        result.created++;
      }
      const children = (item as Row).children;
      if (Array.isArray(children)) await merge(children, id, path);
    }
  };
  await merge(nodes, null, '');
  return result;
}

const exportSchema = z.object({ ids: z.array(z.coerce.number().int().positive()).max(5000).optional() });
const importSchema = z.union([
  z.object({ menus: z.array(z.unknown()).max(MAX_IMPORT_MENUS) }),
  z.array(z.unknown()).max(MAX_IMPORT_MENUS),
]);

export function createMenuResource(ctx: AppContext) {
  const resource = createCrud(ctx, {
    ...menuResource,
    hooks: {
      async beforeAdd(data, { c, trx }) {
        await checkParent(trx, undefined, data.parentId);
        checkMenuPerms(await callerHolding(trx, c), undefined, data);
        return { ...data, parentId: data.parentId ?? null };
      },
      async beforeUpdate(data, { c, trx }) {
        await checkParent(trx, data.id, data.parentId);
        const before = await trx.selectFrom('base_sys_menu').select(['type', 'perms']).where('id', '=', data.id).executeTakeFirst();
        if (!before) throw fail('dataNotFound');
        checkMenuPerms(await callerHolding(trx, c), before, { type: data.type ?? before.type, perms: data.perms === undefined ? before.perms : data.perms });
        const { id: _id, ...row } = data;
        return row;
      },
      async beforeDelete(ids, { trx }) {
        const going = new Set(ids);
        const children = await trx.selectFrom('base_sys_menu').select(['id', 'parentId']).where('parentId', 'in', ids).execute();
        const left = children.find((ch) => !going.has(ch.id));
        if (left) {
          const parent = await trx.selectFrom('base_sys_menu').select('name').where('id', '=', left.parentId!).executeTakeFirst();
          throw fail('menuHasChildren', { name: parent?.name ?? String(left.parentId) });
        }
      },
      async related(row, { trx }) {
        return { base_sys_role_menu: await trx.selectFrom('base_sys_role_menu').selectAll().where('menuId', '=', Number(row.id)).execute() };
      },
      decorateList: (rows) => rows.map(asBooleans),
      decorate: (row) => asBooleans(row),
    },
  });

  // Chained, so that AppType (and the typed client) see the extra calls.
  const routes = resource.routes
    .post('/export', validate('json', exportSchema), async (c) => {
      const { ids } = c.req.valid('json');
      const all = await ctx.db.selectFrom('base_sys_menu').selectAll().execute();
      return ok(c, menuTree(all, ids?.length ? ids : undefined));
    })
    .post('/import', validate('json', importSchema), async (c) => {
      const body = c.req.valid('json');
      const nodes = Array.isArray(body) ? body : body.menus;
      const now = formatTime(ctx.clock.now());
      const caller = await callerHolding(ctx.db, c);
      const result = await ctx.db.transaction().execute((trx) => importMenus(trx, nodes, c.get('lang'), now, caller));
      return ok(c, result);
    });

  return { ...resource, routes };
}
