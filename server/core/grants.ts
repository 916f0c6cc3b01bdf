// What a user or a role holds, and whether one holding lies within another. The one place the
// rule "nobody hands out or exercises more than they hold" is decided, for users, roles and menus.
//
// A holding is the rights (granted menus and their permission strings, which include the
// "see all" grants such as order:info:all or device:info:all: those are data scope too) and the
// department data scope (the departments, and whether a role widens its holder's own department
// to its subtree: `relevance` 1). A superadmin holds everything.
import type { Context } from 'hono';
import type { Db } from '../db/index.ts';
import type { AppEnv } from './env.ts';
import { splitPerms, subtreeIds, SUPERADMIN_ROLE } from './perms.ts';
import { remembered } from './rights-cache.ts';

export interface Holding {
  isSuper: boolean;
  menuIds: Set<number>;
  perms: Set<string>;
  /** Departments of the data scope; undefined = all (superadmin). */
  departments: Set<number> | undefined;
  /** Holds a role with relevance 1 (whose departments, and the holder's own, widen to subtrees). */
  wide: boolean;
}

/** What a user with this department and these roles holds (the user as it is, or as it would be). */
export async function holdingOf(db: Db, who: { departmentId: number | null; roleIds: readonly number[] }): Promise<Holding> {
  const roleIds = [...new Set(who.roleIds)];
  const roles = roleIds.length ? await db.selectFrom('base_sys_role').select(['id', 'name', 'relevance']).where('id', 'in', roleIds).execute() : [];
  const isSuper = roles.some((r) => r.name === SUPERADMIN_ROLE);
  const menus = roleIds.length
    ? await db
        .selectFrom('base_sys_role_menu as rm')
        .innerJoin('base_sys_menu as m', 'm.id', 'rm.menuId')
        .select(['m.id', 'm.perms'])
        .where('rm.roleId', 'in', roleIds)
        .execute()
    : [];
  const held = { isSuper, menuIds: new Set(menus.map((m) => m.id)), perms: new Set(menus.flatMap((m) => splitPerms(m.perms))) };
  const wideRoles = new Set(roles.filter((r) => r.relevance === 1).map((r) => r.id));
  if (isSuper) return { ...held, departments: undefined, wide: true };
  const grants = roleIds.length
    ? await db.selectFrom('base_sys_role_department').select(['roleId', 'departmentId']).where('roleId', 'in', roleIds).execute()
    : [];
  const exact = new Set<number>();
  const roots = new Set<number>();
  for (const g of grants) (wideRoles.has(g.roleId) ? roots : exact).add(g.departmentId);
  if (who.departmentId != null) (wideRoles.size ? roots : exact).add(who.departmentId);
  return { ...held, departments: await withSubtrees(db, exact, roots), wide: wideRoles.size > 0 };
}

/** What a user holds now (nothing for an unknown id; shared: never change it). */
export function userHolding(db: Db, userId: number): Promise<Holding> {
  return remembered(db, `holding:${userId}`, () => queryUserHolding(db, userId));
}

async function queryUserHolding(db: Db, userId: number): Promise<Holding> {
  const user = await db.selectFrom('base_sys_user').select('departmentId').where('id', '=', userId).executeTakeFirst();
  const roles = await db.selectFrom('base_sys_user_role').select('roleId').where('userId', '=', userId).execute();
  return holdingOf(db, { departmentId: user?.departmentId ?? null, roleIds: roles.map((r) => r.roleId) });
}

/** What a role with these grants hands to whoever holds it. */
export async function roleHolding(
  db: Db,
  role: { name?: string; menuIds: readonly number[]; departmentIds: readonly number[]; relevance: number },
): Promise<Holding> {
  const menuIds = [...new Set(role.menuIds)];
  const menus = menuIds.length ? await db.selectFrom('base_sys_menu').select(['id', 'perms']).where('id', 'in', menuIds).execute() : [];
  const wide = role.relevance === 1;
  const departments = new Set(role.departmentIds);
  return {
    isSuper: role.name === SUPERADMIN_ROLE,
    menuIds: new Set(menuIds),
    perms: new Set(menus.flatMap((m) => splitPerms(m.perms))),
    departments: wide ? await withSubtrees(db, new Set(), departments) : departments,
    wide,
  };
}

/** What a stored role hands out (its grants as they are). */
export async function storedRoleHolding(db: Db, roleId: number): Promise<Holding | undefined> {
  const role = await db.selectFrom('base_sys_role').select(['name', 'relevance']).where('id', '=', roleId).executeTakeFirst();
  if (!role) return undefined;
  const menus = await db.selectFrom('base_sys_role_menu').select('menuId').where('roleId', '=', roleId).execute();
  const depts = await db.selectFrom('base_sys_role_department').select('departmentId').where('roleId', '=', roleId).execute();
  return roleHolding(db, {
    name: role.name,
    menuIds: menus.map((m) => m.menuId),
    departmentIds: depts.map((d) => d.departmentId),
    relevance: role.relevance,
  });
}

const subset = <T>(a: Iterable<T>, b: Set<T>) => [...a].every((x) => b.has(x));

/**
 * Whether `target` holds nothing beyond `holder`: no superadmin unless the holder is one; its
 * menus, permission strings (the "see all" grants among them) and departments are the holder's
 * too; and it widens to subtrees only if the holder does.
 */
export function within(target: Holding, holder: Holding): boolean {
  if (holder.isSuper) return true;
  if (target.isSuper) return false;
  if (!subset(target.menuIds, holder.menuIds) || !subset(target.perms, holder.perms)) return false;
  if (target.wide && !holder.wide) return false;
  return target.departments !== undefined && subset(target.departments, holder.departments ?? new Set());
}

/** Permission strings among `perms` that the holder lacks (none for a superadmin). */
export function permsBeyond(perms: readonly string[], holder: Holding): string[] {
  return holder.isSuper ? [] : perms.filter((p) => !holder.perms.has(p));
}

async function withSubtrees(db: Db, exact: Set<number>, roots: Set<number>): Promise<Set<number>> {
  if (!roots.size) return exact;
  const all = await db.selectFrom('base_sys_department').select(['id', 'parentId']).execute();
  return new Set([...exact, ...subtreeIds(all, roots)]);
}

/**
 * The departments whose data the user may see (data scope), or undefined for all (superadmin).
 * Always the user's own department; plus the departments granted to each role
 * (`base_sys_role_department`). A role with `relevance` 1 widens its departments and the user's
 * own department to their whole subtrees.
 */
export async function departmentScope(db: Db, userId: number): Promise<number[] | undefined> {
  const { departments } = await userHolding(db, userId);
  return departments && [...departments].sort((a, b) => a - b);
}

/** What the signed-in caller holds (nothing without a session). */
export async function callerHolding(db: Db, c: Context<AppEnv>): Promise<Holding> {
  const auth = c.get('auth');
  if (!auth) return { isSuper: false, menuIds: new Set(), perms: new Set(), departments: new Set(), wide: false };
  return userHolding(db, auth.userId);
}
