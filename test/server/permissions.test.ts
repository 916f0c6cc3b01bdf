import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permFromPath } from '../../server/core/perms.ts';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await setup();
  admin = (await t.login()).token;
});
afterAll(() => t.close());

describe('permission strings', () => {
  it('derive from the path', () => {
    expect(permFromPath('/admin/base/sys/user/page')).toBe('base:sys:user:page');
    expect(permFromPath('/admin/order/info/add')).toBe('order:info:add');
    expect(permFromPath('/admin')).toBeUndefined();
  });
});

describe('permission checks', () => {
  it('403 for a user without the permission, success once a role grants it', async () => {
    await addUser(t, admin, { username: 'plain', password: 'plain-pass' });
    const plain = (await t.login('plain', 'plain-pass')).token;
    const denied = await t.call('POST', '/admin/base/sys/user/page', { token: plain, lang: 'en', body: {} });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ code: 1001, message: 'No permission' });

    const roleId = await createRole(t.ctx, 'viewer', ['base:sys:user:page']);
    await addUser(t, admin, { username: 'viewer', password: 'viewer-pass', roleIdList: [roleId] });
    const viewer = (await t.login('viewer', 'viewer-pass')).token;
    const page = await t.call('POST', '/admin/base/sys/user/page', { token: viewer, body: {} });
    expect(page.status).toBe(200);
    expect(page.body.code).toBe(1000);
    // The grant is exact: the same role cannot add users or read the log.
    const add = await t.call('POST', '/admin/base/sys/user/add', { token: viewer, body: { username: 'x', password: 'xxxxxx' } });
    expect(add.status).toBe(403);
    expect((await t.call('POST', '/admin/base/sys/log/page', { token: viewer, body: {} })).status).toBe(403);
  });

  it('comm calls need a token but no permission; open calls need neither', async () => {
    await addUser(t, admin, { username: 'nobody', password: 'nobody-pass' });
    const token = (await t.login('nobody', 'nobody-pass')).token;
    expect((await t.call('GET', '/admin/base/comm/person', { token })).status).toBe(200);
    expect((await t.call('GET', '/admin/base/comm/uploadMode', { token })).body.data).toEqual({ mode: 'local', type: 'local' });
    expect((await t.call('GET', '/admin/base/comm/uploadMode')).status).toBe(401);
    expect((await t.call('GET', '/admin/base/open/eps')).status).toBe(200);
  });

  it('superadmin passes every check, even for routes no menu names', async () => {
    expect((await t.call('POST', '/admin/base/sys/log/page', { token: admin, body: {} })).status).toBe(200);
    const unknown = await t.call('POST', '/admin/base/sys/nothing/page', { token: admin, lang: 'en', body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 1001, message: 'Not found' });
  });

  it('only a superadmin may give out the superadmin role', async () => {
    const superId = (await t.ctx.db.selectFrom('base_sys_role').select('id').where('name', '=', 'superadmin').executeTakeFirstOrThrow()).id;
    const roleId = await createRole(t.ctx, 'user-admin', ['base:sys:user:add']);
    await addUser(t, admin, { username: 'useradmin', password: 'useradmin-pass', roleIdList: [roleId] });
    const token = (await t.login('useradmin', 'useradmin-pass')).token;
    const escalate = await t.call('POST', '/admin/base/sys/user/add', {
      token,
      body: { username: 'evil', password: 'evil-pass', roleIdList: [superId] },
    });
    expect(escalate.status).toBe(403);
    const normal = await t.call('POST', '/admin/base/sys/user/add', { token, body: { username: 'fine', password: 'fine-pass' } });
    expect(normal.body.code).toBe(1000);
  });
});

describe('permmenu', () => {
  it('gives the superadmin every menu, flat and sorted by orderNum, with all perms', async () => {
    const res = await t.call('GET', '/admin/base/comm/permmenu', { token: admin });
    expect(res.body.code).toBe(1000);
    const { menus, perms } = res.body.data as { menus: any[]; perms: string[] };
    expect(menus.length).toBeGreaterThan(40);
    const orders = menus.map((m) => m.orderNum);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    for (const m of menus) {
      expect(Object.keys(m).sort()).toEqual(
        ['icon', 'id', 'isShow', 'keepAlive', 'name', 'orderNum', 'parentId', 'perms', 'router', 'type', 'viewPath'],
      );
    }
    const board = menus.find((m) => m.router === '/dashboard');
    expect(board).toMatchObject({ name: 'Data board', type: 1, viewPath: 'modules/dashboard/views/board', keepAlive: true, isShow: true });
    const firstGroup = menus.find((m) => m.parentId === null && m.orderNum === 1);
    expect(firstGroup).toMatchObject({ name: 'Data board', type: 0 });
    expect(board.parentId).toBe(firstGroup.id);
    expect(menus.find((m) => m.router === '/sys/user')).toMatchObject({ name: 'User list', viewPath: 'modules/base/views/user' });
    expect(perms).toContain('base:sys:user:add');
    expect(perms).toContain('base:sys:user:page');
    expect(perms).toContain('base:sys:log:page');
  });

  it('gives other users their granted entries with ancestors, and only their perms', async () => {
    const roleId = await createRole(t.ctx, 'log-reader', ['base:sys:log:page']);
    await addUser(t, admin, { username: 'reader', password: 'reader-pass', roleIdList: [roleId] });
    const token = (await t.login('reader', 'reader-pass')).token;
    const { menus, perms } = (await t.call('GET', '/admin/base/comm/permmenu', { token })).body.data;
    expect(perms).toEqual(['base:sys:log:page']);
    // orderNum counts among siblings; the flat list is sorted by it, the client builds the tree.
    expect(menus.map((m: any) => m.name).sort()).toEqual(['Monitoring management', 'Query', 'Request log', 'System management']);
    const byName = new Map<string, any>(menus.map((m: any) => [m.name, m]));
    expect(byName.get('System management').parentId).toBeNull();
    expect(byName.get('Monitoring management').parentId).toBe(byName.get('System management').id);
    expect(byName.get('Request log').parentId).toBe(byName.get('Monitoring management').id);
    expect(byName.get('Query')).toMatchObject({ type: 2, perms: 'base:sys:log:page', parentId: byName.get('Request log').id });
  });
});
