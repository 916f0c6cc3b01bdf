// Nobody hands out or exercises more than they hold: user, role, menu and device administration
// by users with limited rights, each attack next to the ordinary use, through the real app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';

let t: TestServer;
let admin: string;
const post = (url: string, body: unknown, token = admin) => t.call('POST', url, { token, lang: 'en', body });
const get = (url: string, token = admin) => t.call('GET', url, { token, lang: 'en' });
const U = '/admin/base/sys/user';
const R = '/admin/base/sys/role';
const M = '/admin/base/sys/menu';
const DEV = '/admin/device/info';

const USER_BEYOND = { code: 1001, message: 'You can only manage users whose permissions and data scope lie within your own' };
const ROLE_BEYOND = { code: 1001, message: 'You can only hand out roles within your own permissions' };
const ROLE_SCOPE_BEYOND = { code: 1001, message: 'You can only manage roles whose permissions and data scope lie within your own' };
const GRANT_BEYOND = { code: 1001, message: 'You can only grant menus and permissions you hold yourself' };
const OWN_ROLE = { code: 1001, message: 'You cannot change or delete a role you hold yourself' };
const DEVICE_OWNER = { code: 1001, message: "Only the device's owner or a device administrator can do this" };
const USER_ADMIN = ['base:sys:user:add', 'base:sys:user:update', 'base:sys:user:delete', 'base:sys:user:page', 'base:sys:user:move'];

async function dept(name: string, parentId: number | null = null): Promise<number> {
  const res = await post('/admin/base/sys/department/add', { name, parentId, orderNum: 0 });
  expect(res.body.code, JSON.stringify(res.body)).toBe(1000);
  return res.body.data.id;
}

async function setRole(id: number, values: { relevance?: number; departmentIds?: number[] }) {
  if (values.relevance !== undefined) await t.ctx.db.updateTable('base_sys_role').set({ relevance: values.relevance }).where('id', '=', id).execute();
  for (const departmentId of values.departmentIds ?? []) {
    await t.ctx.db.insertInto('base_sys_role_department').values({ roleId: id, departmentId }).execute();
  }
}

async function user(username: string, roleIdList: number[], departmentId: number | null): Promise<{ id: number; token: string }> {
  const id = await addUser(t, admin, { username, password: `${username}-pass`, roleIdList, departmentId } as never);
  return { id, token: (await t.login(username, `${username}-pass`)).token };
}

beforeAll(async () => {
  t = await setup();
  admin = (await t.login()).token;
});
afterAll(() => t.close());

describe('user administration', () => {
  it('a user admin cannot take over an "all orders" supervisor of its department, but manages a plain user', async () => {
    const lab = await dept('Takeover lab');
    const ua = await createRole(t.ctx, 'takeover-admin', USER_ADMIN);
    const sup = await createRole(t.ctx, 'takeover-sup', ['order:info:page', 'order:info:all']);
    const attacker = await user('ua-attacker', [ua], lab);
    const supervisor = await user('supervisor', [sup], lab);
    const clerk = await user('lab-clerk', [], lab);

    // The attack: reset the supervisor's password, roles, status; delete or move them.
    expect((await post(`${U}/update`, { id: supervisor.id, password: 'taken-over' }, attacker.token)).body).toEqual(USER_BEYOND);
    expect((await t.call('POST', '/admin/base/open/login', { body: { username: 'supervisor', password: 'taken-over' } })).body.code).toBe(1001);
    expect((await post(`${U}/update`, { id: supervisor.id, roleIdList: [] }, attacker.token)).body).toEqual(USER_BEYOND);
    expect((await post(`${U}/update`, { id: supervisor.id, status: 0 }, attacker.token)).body).toEqual(USER_BEYOND);
    expect((await post(`${U}/delete`, { ids: [supervisor.id] }, attacker.token)).body).toEqual(USER_BEYOND);
    expect((await post(`${U}/move`, { userIds: [supervisor.id], departmentId: null }, attacker.token)).body).toEqual(USER_BEYOND);
    expect((await get(`/admin/base/comm/person`, supervisor.token)).status).toBe(200);
    expect((await get(`${U}/info?id=${supervisor.id}`)).body.data).toMatchObject({ status: 1, roleIdList: [sup], departmentId: lab });

    // The user's side: a plain user of the same department is theirs to manage.
    expect((await post(`${U}/update`, { id: clerk.id, password: 'new-clerk-pass', status: 1 }, attacker.token)).body.code).toBe(1000);
    expect((await t.login('lab-clerk', 'new-clerk-pass')).token).toBeTruthy();
    // A superadmin is exempt.
    expect((await post(`${U}/update`, { id: supervisor.id, nickName: 'Sup' })).body.code).toBe(1000);
  });

  it('hands out only roles whose data scope lies within its own, and never changes its own roles', async () => {
    const home = await dept('Grant home');
    const away = await dept('Grant away');
    const narrow = await createRole(t.ctx, 'grant-narrow-admin', USER_ADMIN);
    await setRole(narrow, { relevance: 0 });
    const sameScope = await createRole(t.ctx, 'grant-same', ['base:sys:user:page']);
    await setRole(sameScope, { relevance: 0, departmentIds: [home] });
    const otherScope = await createRole(t.ctx, 'grant-other', ['base:sys:user:page']);
    await setRole(otherScope, { relevance: 0, departmentIds: [away] });
    const widening = await createRole(t.ctx, 'grant-wide', ['base:sys:user:page']);
    const granter = await user('granter', [narrow], home);
    const staff = await user('grant-staff', [], home);

    expect((await post(`${U}/update`, { id: staff.id, roleIdList: [otherScope] }, granter.token)).body).toEqual(ROLE_BEYOND);
    expect((await post(`${U}/update`, { id: staff.id, roleIdList: [widening] }, granter.token)).body).toEqual(ROLE_BEYOND);
    expect((await post(`${U}/add`, { username: 'grant-new', password: 'secret-1', roleIdList: [otherScope], departmentId: home }, granter.token)).body).toEqual(ROLE_BEYOND);
    expect((await post(`${U}/update`, { id: staff.id, roleIdList: [sameScope] }, granter.token)).body.code).toBe(1000);
    expect((await get(`${U}/info?id=${staff.id}`)).body.data.roleIdList).toEqual([sameScope]);

    // Its own roles: dropping or adding one is refused, sending the same ones with a form is fine.
    const own = { code: 1001, message: 'You cannot change your own roles' };
    expect((await post(`${U}/update`, { id: granter.id, roleIdList: [narrow, sameScope] }, granter.token)).body).toEqual(own);
    expect((await post(`${U}/update`, { id: granter.id, roleIdList: [] }, granter.token)).body).toEqual(own);
    expect((await post(`${U}/update`, { id: granter.id, roleIdList: [narrow], nickName: 'G' }, granter.token)).body.code).toBe(1000);
  });
});

describe('roles', () => {
  it('a role editor cannot widen its own role or touch roles beyond it; it manages roles within it', async () => {
    const home = await dept('Role home');
    const away = await dept('Role away');
    const editorRole = await createRole(t.ctx, 'role-editor-x', ['base:sys:role:add', 'base:sys:role:update', 'base:sys:role:delete', 'base:sys:role:page']);
    await setRole(editorRole, { relevance: 0, departmentIds: [home] });
    const big = await createRole(t.ctx, 'role-big', ['base:sys:role:page', 'order:info:all']);
    await setRole(big, { relevance: 0 });
    const editor = await user('role-editor-user', [editorRole], home);

    // The attack: widen its own role's data scope, or rewrite and delete a role beyond it.
    expect((await post(`${R}/update`, { id: editorRole, departmentIdList: [home, away] }, editor.token)).body).toEqual(ROLE_SCOPE_BEYOND);
    expect((await post(`${R}/update`, { id: editorRole, relevance: 1 }, editor.token)).body).toEqual(ROLE_SCOPE_BEYOND);
    expect((await post(`${R}/update`, { id: editorRole, label: 'mine' }, editor.token)).body).toEqual(OWN_ROLE);
    expect((await post(`${R}/delete`, { ids: [editorRole] }, editor.token)).body).toEqual(OWN_ROLE);
    expect((await post(`${R}/update`, { id: big, label: 'Renamed' }, editor.token)).body).toEqual(ROLE_SCOPE_BEYOND);
    expect((await post(`${R}/update`, { id: big, menuIdList: [] }, editor.token)).body).toEqual(ROLE_SCOPE_BEYOND);
    expect((await post(`${R}/delete`, { ids: [big] }, editor.token)).body).toEqual(ROLE_SCOPE_BEYOND);
    expect((await post(`${R}/add`, { name: 'role-away', label: 'Away', relevance: 0, departmentIdList: [away] }, editor.token)).body).toEqual(ROLE_SCOPE_BEYOND);
    // relevance defaults to 1 (widening): beyond a narrow editor.
    expect((await post(`${R}/add`, { name: 'role-wide', label: 'Wide' }, editor.token)).body).toEqual(ROLE_SCOPE_BEYOND);
    expect((await get(`${R}/info?id=${big}`)).body.data).toMatchObject({ label: 'role-big', departmentIdList: [] });

    // The user's side: roles within its own menus and departments.
    const menus = (await post(`${M}/list`, {})).body.data as { id: number; perms: string | null }[];
    const rolePage = menus.find((m) => (m.perms ?? '').includes('base:sys:role:page'))!.id;
    const added = await post(`${R}/add`, { name: 'role-small', label: 'Small', relevance: 0, menuIdList: [rolePage], departmentIdList: [home] }, editor.token);
    expect(added.body.code).toBe(1000);
    expect((await post(`${R}/update`, { id: added.body.data.id, label: 'Smaller' }, editor.token)).body.code).toBe(1000);
    expect((await post(`${R}/delete`, { ids: [added.body.data.id] }, editor.token)).body.code).toBe(1000);
  });
});

describe('menus', () => {
  it('rewriting permission strings needs its own right and only strings the writer holds', async () => {
    const menuEditor = await createRole(t.ctx, 'menu-editor', ['base:sys:menu:add', 'base:sys:menu:update', 'base:sys:menu:page', 'base:sys:menu:import']);
    const editor = await user('menu-editor-user', [menuEditor], null);
    const menus = (await post(`${M}/list`, {})).body.data as { id: number; type: number; perms: string | null; router: string | null }[];
    const pageEntry = menus.find((m) => m.type === 2 && (m.perms ?? '').includes('base:sys:menu:page'))!;
    const menuPage = menus.find((m) => m.router === '/sys/menu')!;

    // The attack: grant itself everything through a menu it holds.
    const widened = `${pageEntry.perms},base:sys:user:delete`;
    expect((await post(`${M}/update`, { id: pageEntry.id, perms: widened }, editor.token)).status).toBe(403);
    expect((await post(`${M}/add`, { name: 'Sneak', type: 2, parentId: menuPage.id, perms: 'base:sys:user:delete' }, editor.token)).status).toBe(403);
    const imported = await post(`${M}/import`, { menus: [{ name: 'Sneak', type: 2, perms: 'base:sys:user:delete' }] }, editor.token);
    expect(imported.body.data).toMatchObject({ created: 0, skipped: [{ path: 'Sneak', reason: 'No permission' }] });
    expect((await get(`${M}/info?id=${pageEntry.id}`)).body.data.perms).toBe(pageEntry.perms);
    // The rest of a menu stays editable (and a left-out field is kept, not cleared).
    expect((await post(`${M}/update`, { id: pageEntry.id, name: 'Query menus' }, editor.token)).body.code).toBe(1000);
    expect((await get(`${M}/info?id=${pageEntry.id}`)).body.data).toMatchObject({ name: 'Query menus', perms: pageEntry.perms });

    // With the seeded "Edit permissions" right: only strings it holds.
    const permsEditor = await createRole(t.ctx, 'menu-perms-editor', ['base:sys:menu:add', 'base:sys:menu:update', 'base:sys:menu:page', 'base:sys:menu:perms']);
    const writer = await user('menu-perms-user', [permsEditor], null);
    expect((await post(`${M}/update`, { id: pageEntry.id, perms: widened }, writer.token)).body).toEqual(GRANT_BEYOND);
    expect((await post(`${M}/add`, { name: 'Sneak', type: 2, parentId: menuPage.id, perms: 'base:sys:user:delete' }, writer.token)).body).toEqual(GRANT_BEYOND);
    const fine = await post(`${M}/add`, { name: 'Mine', type: 2, parentId: menuPage.id, perms: 'base:sys:menu:page' }, writer.token);
    expect(fine.body.code).toBe(1000);
    // A superadmin writes any string.
    expect((await post(`${M}/update`, { id: fine.body.data.id, perms: 'base:sys:user:delete' })).body.code).toBe(1000);
    expect((await get('/admin/base/comm/permmenu')).body.data.perms).toContain('base:sys:menu:perms');
  });
});

describe('devices', () => {
  const device = { devicename: 'Bender', diameters: [0.8], memory: 1000 };
  it('a bound user uses a device; only its owner or a devices admin changes it; status is the hub\'s', async () => {
    const perms = ['device:info:add', 'device:info:update', 'device:info:delete', 'device:info:page', 'device:info:resetKey', 'device:info:bind', 'device:info:currentDevice'];
    const operator = await createRole(t.ctx, 'dev-operator', perms);
    const devAdmin = await createRole(t.ctx, 'dev-admin', [...perms, 'device:info:all']);
    const owner = await user('dev-owner', [operator], null);
    const bound = await user('dev-bound', [operator], null);
    const other = await user('dev-other', [operator], null);
    const boss = await user('dev-boss', [devAdmin], null);
    const added = await post(`${DEV}/add`, { ...device, personnelId: owner.id, status: 1 });
    const id = added.body.data.id;
    expect((await get(`${DEV}/info?id=${id}`)).body.data.status).toBe(0);
    expect((await post(`${DEV}/bind`, { id, userIds: [bound.id] })).body.code).toBe(1000);

    // The attack: a bound user makes itself owner, binds others, resets the key, fakes "online", deletes.
    expect((await post(`${DEV}/update`, { id, personnelId: bound.id }, bound.token)).body).toEqual(DEVICE_OWNER);
    expect((await post(`${DEV}/update`, { id, devicename: 'Mine' }, bound.token)).body).toEqual(DEVICE_OWNER);
    expect((await post(`${DEV}/bind`, { id, userIds: [other.id] }, bound.token)).body).toEqual(DEVICE_OWNER);
    expect((await post(`${DEV}/unbind`, { id, userIds: [bound.id] }, bound.token)).body).toEqual(DEVICE_OWNER);
    expect((await post(`${DEV}/resetKey`, { id }, bound.token)).body).toEqual(DEVICE_OWNER);
    expect((await post(`${DEV}/delete`, { ids: [id] }, bound.token)).body).toEqual(DEVICE_OWNER);
    // The owner cannot hand the device to someone else, and nobody sets "online" by hand.
    expect((await post(`${DEV}/update`, { id, personnelId: other.id }, owner.token)).body).toEqual(DEVICE_OWNER);
    expect((await post(`${DEV}/add`, { ...device, personnelId: other.id }, owner.token)).body).toEqual(DEVICE_OWNER);
    // A device a non-admin adds without naming an owner is theirs.
    const own = (await post(`${DEV}/add`, { ...device, devicename: 'Own' }, other.token)).body.data.id;
    expect((await get(`${DEV}/info?id=${own}`, other.token)).body.data).toMatchObject({ personnelId: other.id });
    expect((await post(`${DEV}/update`, { id, status: 1 })).body.code).toBe(1000);
    expect((await get(`${DEV}/info?id=${id}`)).body.data).toMatchObject({ status: 0, personnelId: owner.id, devicename: 'Bender' });

    // The users' side: the bound user still sees and uses it; the owner runs it; the admin reassigns it.
    expect((await get(`${DEV}/info?id=${id}`, bound.token)).body.code).toBe(1000);
    expect((await get(`${DEV}/currentDevice`, bound.token)).body.data.map((d: { id: number }) => d.id)).toEqual([id]);
    expect((await post(`${DEV}/update`, { id, devicename: 'Bender 2', personnelId: owner.id }, owner.token)).body.code).toBe(1000);
    expect((await post(`${DEV}/bind`, { id, userIds: [other.id] }, owner.token)).body.code).toBe(1000);
    expect((await post(`${DEV}/resetKey`, { id }, owner.token)).body.data.deviceKey).toMatch(/^awd_/);
    expect((await post(`${DEV}/update`, { id, personnelId: bound.id }, boss.token)).body.code).toBe(1000);
    expect((await post(`${DEV}/delete`, { ids: [id] }, other.token)).body).toEqual(DEVICE_OWNER);
    expect((await post(`${DEV}/delete`, { ids: [id] }, bound.token)).body.code).toBe(1000);
  });
});
