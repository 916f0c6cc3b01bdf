// Start-up data, safe to run on every start: the seeded menu (each entry once, see
// seed-menu-sync.ts), the superadmin role, one role per kind of user (designer, manufacturer,
// administrator: common/role-templates.ts; each once, so one an admin deleted stays deleted) and
// the admin user.
import type { AppContext } from '../context.ts';
import { formatTime } from '../core/clock.ts';
import { randomToken } from '../core/crypto.ts';
import { syncSeedMenus } from './seed-menu-sync.ts';
import { seedMenus } from './seed-menus.ts';

import { SUPERADMIN_ROLE } from '../core/perms.ts';
import { ROLE_KINDS, templateMenuIds, type RoleKind } from '../../common/role-templates.ts';
import type { Db } from './index.ts';

/**
 * The seeded role of each kind: its key (`kind-<kind>`, clear of the keys labs give their own
 * roles), its name, and whether its data scope widens to sub-departments.
 */
export const KIND_ROLE_KEY = (kind: RoleKind) => `kind-${kind}`;
const KIND_ROLES: Record<RoleKind, { label: string; remark: string; relevance: number }> = {
  designer: { label: 'Designer (user kind)', remark: 'Designs the orders given to them and bends their wires', relevance: 0 },
  manufacturer: { label: 'Manufacturer (user kind)', remark: 'Runs a lab: its orders, machines, partner interface, files and data board', relevance: 1 },
  administrator: { label: 'Administrator (user kind)', remark: 'Every page and right of the menu, without being superadmin', relevance: 1 },
};

/** Creates each kind's role once (recorded in base_sys_seed); a role of that name already there is kept as it is. */
async function seedKindRoles(trx: Db, now: string): Promise<void> {
  const done = new Set((await trx.selectFrom('base_sys_seed').select('key').where('key', 'like', 'role:%').execute()).map((r) => r.key));
  const menus = await trx.selectFrom('base_sys_menu').select(['id', 'parentId', 'type', 'name', 'router']).execute();
  for (const kind of ROLE_KINDS) {
    const key = `role:${kind}`;
    if (done.has(key)) continue;
    await trx.insertInto('base_sys_seed').values({ key, menuId: null, createTime: now }).execute();
    const name = KIND_ROLE_KEY(kind);
    if (await trx.selectFrom('base_sys_role').select('id').where('name', '=', name).executeTakeFirst()) continue;
    const role = await trx
      .insertInto('base_sys_role')
      .values({ name, ...KIND_ROLES[kind], createTime: now, updateTime: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ids = templateMenuIds(kind, menus);
    if (ids.length) await trx.insertInto('base_sys_role_menu').values(ids.map((menuId) => ({ roleId: role.id, menuId }))).execute();
  }
}

export interface SeedResult {
  menusCreated: number;
  /** Set only when the admin user was created with a generated password. */
  generatedAdminPassword?: string;
}

export async function seed(ctx: AppContext): Promise<SeedResult> {
  const { db, clock } = ctx;
  const now = formatTime(clock.now());
  const result: SeedResult = { menusCreated: 0 };

  result.menusCreated = await db.transaction().execute((trx) => syncSeedMenus(trx, seedMenus, now));

  let role = await db.selectFrom('base_sys_role').select('id').where('name', '=', SUPERADMIN_ROLE).executeTakeFirst();
  if (!role) {
    role = await db
      .insertInto('base_sys_role')
      .values({ name: SUPERADMIN_ROLE, label: 'admin', remark: 'Passes every permission check', createTime: now, updateTime: now })
      .returning('id')
      .executeTakeFirstOrThrow();
  }
  await db.transaction().execute((trx) => seedKindRoles(trx, now));

  let admin = await db.selectFrom('base_sys_user').select('id').where('username', '=', 'admin').executeTakeFirst();
  if (!admin) {
    const password = ctx.config.adminPassword ?? randomToken(12);
    admin = await db
      .insertInto('base_sys_user')
      .values({
        username: 'admin',
        password: await ctx.passwords.hash(password),
        name: 'Administrator',
        nickName: 'admin',
        createTime: now,
        updateTime: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (!ctx.config.adminPassword) {
      result.generatedAdminPassword = password;
      ctx.logger.info(`Admin password (shown once): ${password}`);
    }
  }

  await db
    .insertInto('base_sys_user_role')
    .values({ userId: admin.id, roleId: role.id })
    .onConflict((oc) => oc.columns(['userId', 'roleId']).doNothing())
    .execute();
  return result;
}
