// Start-up data, safe to run on every start: the seeded menu (each entry once, see
// seed-menu-sync.ts), the superadmin role and the admin user.
import type { AppContext } from '../context.ts';
import { formatTime } from '../core/clock.ts';
import { randomToken } from '../core/crypto.ts';
import { syncSeedMenus } from './seed-menu-sync.ts';
import { seedMenus } from './seed-menus.ts';

import { SUPERADMIN_ROLE } from '../core/perms.ts';

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
