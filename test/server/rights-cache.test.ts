// Rights are remembered between requests; every change to them, through the API or straight in
// the database by another process, must take effect on the very next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../server/db/index.ts';
import { ADMIN_PASSWORD, addUser, createRole, setup, type TestServer } from './helpers.ts';

let t: TestServer;
let admin: string;
let other: Db;
beforeAll(async () => {
  t = await setup();
  admin = (await t.login('admin', ADMIN_PASSWORD)).token;
  // Another process on the same database: connections of its own.
  other = createDb(t.ctx.config);
});
afterAll(async () => {
  await other.destroy();
  await t.close();
});

const PAGE = '/admin/order/info/page';
const page = (token: string) => t.call('POST', PAGE, { token, body: { page: 1, size: 20 } });

async function designer(name: string, perms: string[]) {
  const roleId = await createRole(t.ctx, name, perms);
  const id = await addUser(t, admin, { username: name, password: 'pw-secret-1', roleIdList: [roleId] });
  const { token } = await t.login(name, 'pw-secret-1');
  return { roleId, id, token };
}

describe('remembered rights', () => {
  it('a role losing a permission through the API refuses its holder on the next request', async () => {
    const d = await designer('cache-api', ['order:info:page']);
    expect((await page(d.token)).body.code).toBe(1000);
    expect((await page(d.token)).body.code).toBe(1000);
    const role = await t.call('GET', `/admin/base/sys/role/info?id=${d.roleId}`, { token: admin });
    const update = await t.call('POST', '/admin/base/sys/role/update', {
      token: admin,
      body: { ...role.body.data, menuIdList: [], departmentIdList: [] },
    });
    expect(update.body.code).toBe(1000);
    expect((await page(d.token)).status).toBe(403);
  });

  it('a change made by another process is seen on the next request, both ways', async () => {
    const d = await designer('cache-other', ['order:info:page']);
    expect((await page(d.token)).body.code).toBe(1000);
    await other.deleteFrom('base_sys_user_role').where('userId', '=', d.id).execute();
    expect((await page(d.token)).status).toBe(403);
    await other.insertInto('base_sys_user_role').values({ userId: d.id, roleId: d.roleId }).execute();
    expect((await page(d.token)).body.code).toBe(1000);
    // A menu's permission string rewritten underneath.
    const menuIds = await other.selectFrom('base_sys_role_menu').select('menuId').where('roleId', '=', d.roleId).execute();
    const before = await other.selectFrom('base_sys_menu').select(['id', 'perms']).where('id', '=', menuIds[0]!.menuId).executeTakeFirstOrThrow();
    await other.updateTable('base_sys_menu').set({ perms: 'order:info:list' }).where('id', '=', before.id).execute();
    expect((await page(d.token)).status).toBe(403);
    await other.updateTable('base_sys_menu').set({ perms: before.perms }).where('id', '=', before.id).execute();
    expect((await page(d.token)).body.code).toBe(1000);
  });

  it('every table that decides what a user holds moves the version', async () => {
    const v = async () => Number((await other.selectFrom('base_rights_version').select('v').executeTakeFirstOrThrow()).v);
    const moves = async (change: { execute(): Promise<unknown> }) => {
      const before = await v();
      await change.execute();
      return (await v()) > before;
    };
    const role = (await other.selectFrom('base_sys_role').select('id').where('name', '=', 'cache-other').executeTakeFirstOrThrow()).id;
    const user = (await other.selectFrom('base_sys_user').select('id').where('username', '=', 'cache-other').executeTakeFirstOrThrow()).id;
    const now = '2026-01-01 00:00:00';
    const before = await v();
    const dept = (await other.insertInto('base_sys_department').values({ name: 'cache-dept', createTime: now, updateTime: now }).returning('id').executeTakeFirstOrThrow()).id;
    expect(await v()).toBeGreaterThan(before);
    expect(await moves(other.updateTable('base_sys_role').set((eb) => ({ relevance: eb(eb.val(1), '-', eb.ref('relevance')) })).where('id', '=', role))).toBe(true);
    expect(await moves(other.updateTable('base_sys_role').set({ remark: 'a note' }).where('id', '=', role))).toBe(false);
    expect(await moves(other.insertInto('base_sys_role_department').values({ roleId: role, departmentId: dept }))).toBe(true);
    expect(await moves(other.deleteFrom('base_sys_role_department').where('roleId', '=', role))).toBe(true);
    expect(await moves(other.updateTable('base_sys_user').set({ departmentId: dept }).where('id', '=', user))).toBe(true);
    expect(await moves(other.updateTable('base_sys_user').set({ nickName: 'nick' }).where('id', '=', user))).toBe(false);
    expect(await moves(other.updateTable('base_sys_department').set({ parentId: null }).where('id', '=', dept))).toBe(true);
    expect(await moves(other.updateTable('base_sys_role_menu').set((eb) => ({ menuId: eb.ref('menuId') })).where('roleId', '=', role))).toBe(true);
    const firstMenu = other.selectFrom('base_sys_menu').select((eb) => eb.fn.min('id').as('id'));
    expect(await moves(other.updateTable('base_sys_menu').set((eb) => ({ name: eb.ref('name') })).where('id', '=', firstMenu))).toBe(false);
    expect(await moves(other.deleteFrom('base_sys_user_role').where('userId', '=', user))).toBe(true);
  });
});
