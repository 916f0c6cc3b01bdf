// First-start data, safe to run on every start: the menu (only into an empty menu table), the
// superadmin role and the admin user.
import type { AppContext } from '../context.ts';
import { formatTime } from '../core/clock.ts';
import { randomToken } from '../core/crypto.ts';
import { seedMenus, type MenuSeed } from './seed-menus.ts';

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

  const anyMenu = await db.selectFrom('base_sys_menu').select('id').limit(1).executeTakeFirst();
  if (!anyMenu) {
    await db.transaction().execute(async (trx) => {
      const insert = async (items: MenuSeed[], parentId: number | null) => {
        let orderNum = 0;
        for (const item of items) {
          const row = await trx
            .insertInto('base_sys_menu')
            .values({
              parentId,
              name: item.name,
              type: item.type,
              router: item.router ?? null,
              viewPath: item.viewPath ?? null,
              icon: item.icon ?? null,
              perms: item.perms ?? null,
              orderNum: ++orderNum,
              keepAlive: item.keepAlive === false ? 0 : 1,
              isShow: item.isShow === false ? 0 : 1,
              createTime: now,
              updateTime: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          result.menusCreated++;
          if (item.children) await insert(item.children, row.id);
        }
      };
      await insert(seedMenus, null);
    });
  }

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
