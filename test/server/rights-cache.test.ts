// Rights are remembered between requests; every change to them, through the API or straight in
// the database by another process, must take effect on the very next request.
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteFile } from '../../server/db/index.ts';
import { ADMIN_PASSWORD, addUser, createRole, setup, type TestServer } from './helpers.ts';

let t: TestServer;
let admin: string;
let other: SQLite.Database;
beforeAll(async () => {
  t = await setup();
  admin = (await t.login('admin', ADMIN_PASSWORD)).token;
  // Another process on the same database file.
  other = new SQLite(sqliteFile(t.ctx.config));
});
afterAll(async () => {
  other.close();
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
    other.prepare('DELETE FROM base_sys_user_role WHERE userId = ?').run(d.id);
    expect((await page(d.token)).status).toBe(403);
    other.prepare('INSERT INTO base_sys_user_role (userId, roleId) VALUES (?, ?)').run(d.id, d.roleId);
    expect((await page(d.token)).body.code).toBe(1000);
    // A menu's permission string rewritten underneath.
    const menuIds = other.prepare('SELECT menuId FROM base_sys_role_menu WHERE roleId = ?').all(d.roleId) as { menuId: number }[];
    const before = other.prepare('SELECT id, perms FROM base_sys_menu WHERE id = ?').get(menuIds[0]!.menuId) as { id: number; perms: string };
    other.prepare('UPDATE base_sys_menu SET perms = ? WHERE id = ?').run('order:info:list', before.id);
    expect((await page(d.token)).status).toBe(403);
    other.prepare('UPDATE base_sys_menu SET perms = ? WHERE id = ?').run(before.perms, before.id);
    expect((await page(d.token)).body.code).toBe(1000);
  });

  it('every table that decides what a user holds moves the version', () => {
    const v = () => (other.prepare('SELECT v FROM base_rights_version').get() as { v: number }).v;
    const moves = (statement: string, ...args: unknown[]) => {
      const before = v();
      other.prepare(statement).run(...args);
      return v() > before;
    };
    const role = (other.prepare("SELECT id FROM base_sys_role WHERE name = 'cache-other'").get() as { id: number }).id;
    const user = (other.prepare("SELECT id FROM base_sys_user WHERE username = 'cache-other'").get() as { id: number }).id;
    const now = '2026-01-01 00:00:00';
    const insertDept = other.prepare('INSERT INTO base_sys_department (name, createTime, updateTime) VALUES (?, ?, ?)');
    const before = v();
    const dept = Number(insertDept.run('cache-dept', now, now).lastInsertRowid);
    expect(v()).toBeGreaterThan(before);
    expect(moves('UPDATE base_sys_role SET relevance = 1 - relevance WHERE id = ?', role)).toBe(true);
    expect(moves('UPDATE base_sys_role SET remark = ? WHERE id = ?', 'a note', role)).toBe(false);
    expect(moves('INSERT INTO base_sys_role_department (roleId, departmentId) VALUES (?, ?)', role, dept)).toBe(true);
    expect(moves('DELETE FROM base_sys_role_department WHERE roleId = ?', role)).toBe(true);
    expect(moves('UPDATE base_sys_user SET departmentId = ? WHERE id = ?', dept, user)).toBe(true);
    expect(moves('UPDATE base_sys_user SET nickName = ? WHERE id = ?', 'nick', user)).toBe(false);
    expect(moves('UPDATE base_sys_department SET parentId = NULL WHERE id = ?', dept)).toBe(true);
    expect(moves('UPDATE base_sys_role_menu SET menuId = menuId WHERE roleId = ?', role)).toBe(true);
    expect(moves('UPDATE base_sys_menu SET name = name || ? WHERE id = (SELECT min(id) FROM base_sys_menu)', '')).toBe(false);
    expect(moves('DELETE FROM base_sys_user_role WHERE userId = ?', user)).toBe(true);
  });
});
