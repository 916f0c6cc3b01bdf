// Departments, users, roles and menus through the real app on a real SQLite file.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';
import { ROLE_KINDS, templateMenuIds } from '../../common/role-templates.ts';

let t: TestServer;
let admin: string;
const post = (url: string, body: unknown, token = admin) => t.call('POST', url, { token, lang: 'en', body });
const get = (url: string, token = admin) => t.call('GET', url, { token, lang: 'en' });
const D = '/admin/base/sys/department';
const U = '/admin/base/sys/user';
const R = '/admin/base/sys/role';
const M = '/admin/base/sys/menu';

async function dept(name: string, parentId: number | null = null, orderNum = 0): Promise<number> {
  const res = await post(`${D}/add`, { name, parentId, orderNum });
  expect(res.body.code, JSON.stringify(res.body)).toBe(1000);
  return res.body.data.id;
}

beforeAll(async () => {
  t = await setup();
  admin = (await t.login()).token;
});
afterAll(() => t.close());

describe('departments', () => {
  it('builds a tree, reorders and reparents a batch, and refuses cycles', async () => {
    const hq = await dept('HQ');
    const lab = await dept('Lab', hq, 1);
    const design = await dept('Design', hq, 2);
    const wires = await dept('Wires', lab, 1);
    const list = (await post(`${D}/list`, {})).body.data as any[];
    expect(list.map((d) => [d.name, d.parentId]).sort()).toEqual([['Design', hq], ['HQ', null], ['Lab', hq], ['Wires', lab]]);
    expect(list.find((d) => d.id === wires)).toMatchObject({ name: 'Wires', parentId: lab, orderNum: 1 });

    // Design before Lab, and Wires moves under Design.
    const order = await post(`${D}/order`, [
      { id: design, parentId: hq, orderNum: 1 },
      { id: lab, parentId: hq, orderNum: 2 },
      { id: wires, parentId: design, orderNum: 1 },
    ]);
    expect(order.body.code).toBe(1000);
    const after = (await post(`${D}/list`, { order: 'orderNum', sort: 'asc' })).body.data as any[];
    expect(after.find((d) => d.id === wires).parentId).toBe(design);
    const hqChildren = after.filter((d) => d.parentId === hq).map((d) => d.name);
    expect(hqChildren).toEqual(['Design', 'Lab']);

    // A department cannot go below itself or its descendants.
    expect((await post(`${D}/order`, [{ id: design, parentId: wires, orderNum: 0 }])).body).toEqual({ code: 1002, message: 'parentId is invalid' });
    expect((await post(`${D}/update`, { id: hq, parentId: wires })).body).toEqual({ code: 1002, message: 'parentId is invalid' });
    expect((await post(`${D}/update`, { id: hq, parentId: hq })).body.code).toBe(1002);
    expect((await post(`${D}/add`, { name: 'Orphan', parentId: 999_999 })).body).toEqual({ code: 1002, message: 'parentId is invalid' });
    expect((await post(`${D}/order`, [{ id: 999_999, orderNum: 0 }])).body.code).toBe(1001);
    expect((await post(`${D}/list`, {})).body.data.find((d: any) => d.id === design).parentId).toBe(hq);
  });

  it('on delete moves child departments and users up to the parent', async () => {
    const root = await dept('Root');
    const mid = await dept('Mid', root);
    const leaf = await dept('Leaf', mid);
    const u1 = await addUser(t, admin, { username: 'mid-user', password: 'secret-1', departmentId: mid } as any);
    expect((await post(`${D}/delete`, { ids: [mid] })).body.code).toBe(1000);
    const list = (await post(`${D}/list`, {})).body.data as any[];
    expect(list.find((d) => d.id === mid)).toBeUndefined();
    expect(list.find((d) => d.id === leaf).parentId).toBe(root);
    expect((await get(`${U}/info?id=${u1}`)).body.data.departmentId).toBe(root);
    // A root: its users end in no department.
    await post(`${D}/delete`, { ids: [root, leaf] });
    expect((await get(`${U}/info?id=${u1}`)).body.data.departmentId).toBeNull();
  });
});

describe('users', () => {
  let labId: number;
  let subId: number;
  beforeAll(async () => {
    labId = await dept('User lab');
    subId = await dept('User lab sub', labId);
  });

  it('updates with an optional password, replaces roles, and ends sessions on a new password', async () => {
    const roleId = await createRole(t.ctx, 'viewer-1', ['base:sys:user:page']);
    const id = await addUser(t, admin, { username: 'carol', password: 'carol-pass' });
    const carol = (await t.login('carol', 'carol-pass')).token;
    expect((await post(`${U}/update`, { id, nickName: 'Caro', password: '', roleIdList: [roleId], departmentId: labId })).body.code).toBe(1000);
    const info = (await get(`${U}/info?id=${id}`)).body.data;
    expect(info).toMatchObject({ username: 'carol', nickName: 'Caro', roleIdList: [roleId], departmentId: labId, departmentName: 'User lab' });
    expect(info).not.toHaveProperty('password');
    // The old password still works: an empty one means "keep".
    expect((await get('/admin/base/comm/person', carol)).status).toBe(200);
    expect((await post(`${U}/update`, { id, password: 'carol-new-pass' })).body.code).toBe(1000);
    expect((await get('/admin/base/comm/person', carol)).status).toBe(401);
    await t.login('carol', 'carol-new-pass');
    expect((await post(`${U}/update`, { id, password: '123' })).body).toEqual({ code: 1002, message: 'password is invalid' });
    expect((await post(`${U}/update`, { id, username: 'admin' })).body).toEqual({ code: 1001, message: 'Username already exists' });
    expect((await post(`${U}/update`, { id, departmentId: 999_999 })).body).toEqual({ code: 1002, message: 'departmentId is invalid' });
  });

  it('refuses to delete yourself or the superadmin, and deletes others into the recycle bin', async () => {
    const adminId = (await get('/admin/base/comm/person')).body.data.id;
    expect((await post(`${U}/delete`, { ids: [adminId] })).body).toEqual({ code: 1001, message: 'You cannot delete yourself' });
    const roleId = await createRole(t.ctx, 'user-admin', ['base:sys:user:delete']);
    await addUser(t, admin, { username: 'deleter', password: 'deleter-pass', roleIdList: [roleId] });
    const deleter = (await t.login('deleter', 'deleter-pass')).token;
    // Outside the deleter's data scope the admin is simply not there to delete.
    expect((await post(`${U}/delete`, { ids: [adminId] }, deleter)).body.code).toBe(1000);
    expect((await get(`${U}/info?id=${adminId}`)).body.data.username).toBe('admin');
    const superRoleId = ((await post(`${R}/list`, { keyWord: 'superadmin' })).body.data as any[])[0].id;
    const super2 = await addUser(t, admin, { username: 'super2', password: 'super2-pass', roleIdList: [superRoleId] });
    expect((await post(`${U}/delete`, { ids: [super2] })).body).toEqual({ code: 1001, message: 'The super administrator cannot be deleted' });
    const victim = await addUser(t, admin, { username: 'victim', password: 'victim-pass', roleIdList: [roleId] });
    expect((await post(`${U}/delete`, { ids: [victim] })).body.code).toBe(1000);
    expect((await get(`${U}/info?id=${victim}`)).body.code).toBe(1001);
    const bin = (await post('/admin/recycle/data/page', { keyWord: 'BaseSysUser' })).body.data.list as any[];
    const entry = bin.find((e) => e.rowId === victim);
    expect(entry.data.username).toBe('victim');
    expect(entry.data).not.toHaveProperty('password');
    expect((await post('/admin/recycle/data/restore', { ids: [entry.id] })).body.code).toBe(1000);
    expect((await get(`${U}/info?id=${victim}`)).body.data).toMatchObject({ id: victim, username: 'victim', roleIdList: [roleId] });
    await t.login('victim', 'victim-pass');
  });

  it('filters by a department and its subtree, and moves users', async () => {
    const a = await addUser(t, admin, { username: 'in-lab', password: 'secret-1', departmentId: labId } as any);
    const b = await addUser(t, admin, { username: 'in-sub', password: 'secret-1', departmentId: subId } as any);
    const c = await addUser(t, admin, { username: 'nowhere', password: 'secret-1' });
    const ids = async (body: object) => ((await post(`${U}/page`, body)).body.data.list as any[]).map((u) => u.id);
    expect(await ids({ departmentId: labId, keyWord: 'in-' })).toEqual([b, a]);
    expect(await ids({ departmentId: subId })).toEqual([b]);
    expect((await post(`${U}/page`, { departmentId: { $gt: 0 } })).body.code).toBe(1002);
    expect((await post(`${U}/move`, { userIds: [a, c], departmentId: subId })).body.code).toBe(1000);
    expect(await ids({ departmentId: subId, keyWord: 'n' })).toEqual([c, b, a]);
    expect((await post(`${U}/move`, { userIds: [a], departmentId: 999_999 })).body).toEqual({ code: 1002, message: 'departmentId is invalid' });
    const row = ((await post(`${U}/page`, { keyWord: 'nowhere' })).body.data.list as any[])[0];
    expect(row).toMatchObject({ departmentName: 'User lab sub', roleIdList: [] });
    expect(row).not.toHaveProperty('password');
  });

  it('creates users in a batch, skipping bad rows with their row numbers and reasons', async () => {
    const role = await createRole(t.ctx, 'batch-role', ['base:sys:user:page']);
    const res = await post(`${U}/batchCreateUser`, {
      password: 'default-pass',
      departmentId: labId,
      list: [
        { username: 'batch1', name: 'One' },
        { username: 'admin' },
        { username: 'batch2', password: 'x' },
        { username: 'batch1' },
        { username: 'batch3', roles: 'batch-role', department: 'User lab sub' },
        { username: 'batch4', department: 'No such' },
        { name: 'nameless' },
      ],
    });
    expect(res.body.code).toBe(1000);
    expect(res.body.data.created.map((c: any) => [c.row, c.username])).toEqual([[1, 'batch1'], [5, 'batch3']]);
    expect(res.body.data.skipped).toEqual([
      { row: 2, reason: 'Username already exists' },
      { row: 3, reason: 'Password is invalid' },
      { row: 4, reason: 'Username appears twice in this import' },
      { row: 6, reason: 'Unknown department "No such"' },
      { row: 7, reason: 'Username cannot be empty' },
    ]);
    const b3 = (await get(`${U}/info?id=${res.body.data.created[1].id}`)).body.data;
    expect(b3).toMatchObject({ departmentId: subId, roleIdList: [role] });
    await t.login('batch1', 'default-pass');
  });

  it('exports the filtered list as xlsx without password hashes and imports it back', async () => {
    const res = await t.app.request(`${U}/export`, {
      method: 'POST',
      headers: { Authorization: admin, 'Content-Type': 'application/json', 'Accept-Language': 'en' },
      body: JSON.stringify({ departmentId: labId }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const sheet = wb.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(['ID', 'Username', 'Name', 'Nickname', 'Phone', 'Email', 'Department', 'Roles', 'Status', 'Remark', 'Created']);
    const names: string[] = [];
    sheet.eachRow((r, n) => { if (n > 1) names.push(String(r.getCell(2).value)); });
    expect(names.sort()).toEqual(['batch1', 'batch3', 'carol', 'in-lab', 'in-sub', 'nowhere']);
    const everything = JSON.stringify(sheet.getSheetValues());
    expect(everything).not.toMatch(/argon2|\$argon/);

    // Import: a zh-headed sheet with good and bad rows.
    const up = new ExcelJS.Workbook();
    const s = up.addWorksheet('u');
    s.addRow(['用户名', '密码', '姓名', '部门', '角色', '状态']);
    s.addRow(['imp1', 'imp-pass-1', 'Imp One', 'User lab', '', '启用']);
    s.addRow(['imp2', 'short', '', '', '', '']);
    s.addRow(['', '', '', '', '', '']);
    s.addRow(['imp3', 'imp-pass-3', '', '', 'no-such-role', '']);
    s.addRow(['imp4', '', '', '', '', 'disabled']);
    s.addRow(['imp1', 'imp-pass-1', '', '', '', '']);
    const form = new FormData();
    form.append('file', new Blob([await up.xlsx.writeBuffer()]), 'users.xlsx');
    form.append('password', 'fallback-pass');
    const imp = await t.app.request(`${U}/import`, { method: 'POST', headers: { Authorization: admin, 'Accept-Language': 'en' }, body: form });
    const body = await imp.json();
    expect(body.code).toBe(1000);
    expect(body.data.created.map((c: any) => [c.row, c.username])).toEqual([[2, 'imp1'], [6, 'imp4']]);
    expect(body.data.skipped).toEqual([
      { row: 3, reason: 'Password is invalid' },
      { row: 5, reason: 'Unknown role "no-such-role"' },
      { row: 7, reason: 'Username appears twice in this import' },
    ]);
    const imp4 = ((await post(`${U}/page`, { keyWord: 'imp4' })).body.data.list as any[])[0];
    expect(imp4.status).toBe(0);
    await t.login('imp1', 'imp-pass-1');

    const junk = new FormData();
    junk.append('file', new Blob(['not a workbook']), 'x.xlsx');
    const bad = await t.app.request(`${U}/import`, { method: 'POST', headers: { Authorization: admin, 'Accept-Language': 'en' }, body: junk });
    expect(await bad.json()).toEqual({ code: 1001, message: 'The file is not a readable Excel (xlsx) workbook' });
  });

  it('re-importing an export says the users exist, and names fields by their column header', async () => {
    const res = await t.app.request(`${U}/export`, {
      method: 'POST',
      headers: { Authorization: admin, 'Content-Type': 'application/json', 'Accept-Language': 'zh' },
      body: JSON.stringify({ departmentId: labId }),
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    // A new row without a password, in the exported (zh) layout, which has no password column.
    wb.worksheets[0]!.addRow([null, 'reimp-new', 'Neu']);
    const form = new FormData();
    form.append('file', new Blob([await wb.xlsx.writeBuffer()]), 'users.xlsx');
    const imp = await t.app.request(`${U}/import`, { method: 'POST', headers: { Authorization: admin, 'Accept-Language': 'zh' }, body: form });
    const body = await imp.json();
    expect(body.code).toBe(1000);
    expect(body.data.created).toEqual([]);
    const reasons = (body.data.skipped as { reason: string }[]).map((s) => s.reason);
    expect(reasons.slice(0, -1).every((r) => r === '用户名已存在')).toBe(true);
    expect(reasons.at(-1)).toBe('密码 不能为空');
  });
});

describe('roles and data scope', () => {
  it('grants the union of its roles to a user, effective on the next call', async () => {
    const menus = (await post(`${M}/list`, {})).body.data as any[];
    const byPerm = (p: string) => menus.find((m) => m.type === 2 && (m.perms ?? '').split(',').includes(p)).id;
    const userPage = menus.find((m) => m.router === '/sys/user').id;
    const r1 = await post(`${R}/add`, { name: 'r-users', label: 'Users', menuIdList: [userPage, byPerm('base:sys:user:page')], relevance: 0 });
    const r2 = await post(`${R}/add`, { name: 'r-menus', label: 'Menus', menuIdList: [byPerm('base:sys:menu:page')] });
    expect(r1.body.code).toBe(1000);
    expect((await post(`${R}/add`, { name: 'r-users', label: 'Again' })).body).toEqual({ code: 1001, message: 'Role name already exists' });
    expect((await post(`${R}/add`, { name: 'r-bad', label: 'Bad', menuIdList: [999_999] })).body).toEqual({ code: 1002, message: 'menuIdList is invalid' });
    const role1 = r1.body.data.id;
    expect((await get(`${R}/info?id=${role1}`)).body.data).toMatchObject({ name: 'r-users', relevance: 0, menuIdList: [userPage, byPerm('base:sys:user:page')].sort((a, b) => a - b), departmentIdList: [] });

    await addUser(t, admin, { username: 'dora', password: 'dora-pass', roleIdList: [role1, r2.body.data.id] });
    const dora = (await t.login('dora', 'dora-pass')).token;
    const pm = (await get('/admin/base/comm/permmenu', dora)).body.data;
    expect(pm.perms).toEqual(expect.arrayContaining(['base:sys:user:page', 'base:sys:menu:page']));
    expect(pm.perms).not.toContain('base:sys:user:delete');
    expect(pm.menus.map((m: any) => m.router).filter(Boolean)).toEqual(['/sys/user', '/sys/menu']);
    expect((await post(`${M}/page`, {}, dora)).status).toBe(200);

    // Take the menu grant away: the next call is refused, the next permmenu no longer lists it.
    expect((await post(`${R}/update`, { id: r2.body.data.id, menuIdList: [] })).body.code).toBe(1000);
    expect((await post(`${M}/page`, {}, dora)).status).toBe(403);
    expect((await get('/admin/base/comm/permmenu', dora)).body.data.perms).not.toContain('base:sys:menu:page');
  });

  it("lists a page only when the user may load its list, not for another of the page's rights", async () => {
    // A designer's role: the editor's device rights (under "Device list") and the order list.
    const menus = (await post(`${M}/list`, {})).body.data as any[];
    const entry = (page: string, name: string) => menus.find((m) => m.type === 2 && m.name === name && m.parentId === menus.find((p) => p.router === page).id).id;
    const role = await post(`${R}/add`, {
      name: 'r-designer',
      label: 'Designer',
      menuIdList: [entry('/device/list', 'Editor devices'), entry('/order/list', 'Query'), entry('/order/list', 'Design')],
    });
    expect(role.body.code).toBe(1000);
    await addUser(t, admin, { username: 'dexter', password: 'dexter-pass', roleIdList: [role.body.data.id] });
    const dexter = (await t.login('dexter', 'dexter-pass')).token;
    const pm = (await get('/admin/base/comm/permmenu', dexter)).body.data;
    // The rights still count for the editor's calls ...
    expect(pm.perms).toEqual(expect.arrayContaining(['device:info:diameterList', 'device:info:currentDevice', 'order:info:page']));
    expect(pm.perms).not.toContain('device:info:page');
    // ... but the device list and its group are not in the menu; the order list is.
    const names = pm.menus.map((m: any) => m.name);
    expect(pm.menus.map((m: any) => m.router).filter(Boolean)).toEqual(['/order/list']);
    expect(names).not.toContain('Device management');
    expect(names).not.toContain('Editor devices');
    expect(names).toEqual(expect.arrayContaining(['Order management', 'Order list', 'Query', 'Design']));

    // Granting the device list's Query brings the page back.
    await post(`${R}/update`, { id: role.body.data.id, menuIdList: [entry('/device/list', 'Editor devices'), entry('/device/list', 'Query')] });
    const again = (await get('/admin/base/comm/permmenu', dexter)).body.data;
    expect(again.menus.map((m: any) => m.router).filter(Boolean)).toEqual(['/device/list']);
  });

  it('starts roles from the user kinds: a designer designs and bends orders without the device list', async () => {
    const menus = (await post(`${M}/list`, {})).body.data as any[];
    const perms = (ids: number[]) => new Set(menus.filter((m) => ids.includes(m.id)).flatMap((m) => String(m.perms ?? '').split(',').filter(Boolean)));
    const designer = templateMenuIds('designer', menus);
    const held = perms(designer);
    for (const p of ['order:info:page', 'order:info:update', 'order:info:history', 'design:save', 'design:bend', 'design:submit', 'design:getOcclusalModelData', 'design:changeOrderList', 'device:info:currentDevice', 'base:sys:article:docs']) expect(held, p).toContain(p);
    for (const p of ['order:info:add', 'order:info:delete', 'order:info:all', 'device:info:page', 'base:sys:user:page']) expect(held, p).not.toContain(p);
    const manufacturer = perms(templateMenuIds('manufacturer', menus));
    for (const p of ['order:info:add', 'order:info:history', 'design:designer', 'design:copyOrder', 'device:info:page', 'device:info:bind', 'device:apiConfig:page', 'dashboard:info:deviceProcessTime', 'space:info:page']) expect(manufacturer, p).toContain(p);
    expect(manufacturer).not.toContain('base:sys:role:page');
    expect(templateMenuIds('administrator', menus)).toHaveLength(menus.length);
    expect(ROLE_KINDS).toEqual(['designer', 'manufacturer', 'administrator']);

    // Saved as a role, the designer's menu has orders and help, no device list.
    const role = await post(`${R}/add`, { name: 'from-designer-kind', label: 'Designer', menuIdList: designer });
    expect(role.body.code).toBe(1000);
    await addUser(t, admin, { username: 'dina', password: 'dina-pass-1', roleIdList: [role.body.data.id] });
    const pm = (await get('/admin/base/comm/permmenu', (await t.login('dina', 'dina-pass-1')).token)).body.data;
    expect(pm.menus.map((m: any) => m.router).filter(Boolean).sort()).toEqual(['/help/doc', '/order/list', '/order/time']);
  });

  it('lets a non-superadmin grant only what they hold, and protects the superadmin role', async () => {
    const menus = (await post(`${M}/list`, {})).body.data as any[];
    const roleAdd = menus.find((m) => m.type === 2 && m.perms === 'base:sys:role:add').id;
    const roleUpd = menus.find((m) => m.type === 2 && m.perms === 'base:sys:role:update').id;
    const userDel = menus.find((m) => m.type === 2 && m.perms === 'base:sys:user:delete').id;
    const own = await post(`${R}/add`, { name: 'role-editor', label: 'Role editor', menuIdList: [roleAdd, roleUpd] });
    await addUser(t, admin, { username: 'eve', password: 'eve-pass-1', roleIdList: [own.body.data.id] });
    const eve = (await t.login('eve', 'eve-pass-1')).token;
    expect((await post(`${R}/add`, { name: 'eve-sub', label: 'Sub', menuIdList: [roleAdd] }, eve)).body.code).toBe(1000);
    const beyond = { code: 1001, message: 'You can only grant menus and permissions you hold yourself' };
    expect((await post(`${R}/add`, { name: 'eve-up', label: 'Up', menuIdList: [userDel] }, eve)).body).toEqual(beyond);
    expect((await post(`${R}/update`, { id: own.body.data.id, menuIdList: [roleAdd, roleUpd, userDel] }, eve)).body).toEqual(beyond);
    const superRole = ((await post(`${R}/list`, { keyWord: 'superadmin' })).body.data as any[])[0];
    expect((await post(`${R}/update`, { id: superRole.id, label: 'x' })).body).toEqual({ code: 1001, message: 'The superadmin role cannot be changed or deleted' });
    expect((await post(`${R}/delete`, { ids: [superRole.id] })).body).toEqual({ code: 1001, message: 'The superadmin role cannot be changed or deleted' });
  });

  it('lets a non-superadmin hand out only roles within their own grants', async () => {
    const d = await dept('Hand-out');
    const menus = (await post(`${M}/list`, {})).body.data as any[];
    const find = (perms: string) => menus.find((m) => m.type === 2 && (m.perms ?? '').startsWith(perms)).id;
    const [query, upd, del] = [find('base:sys:user:info'), find('base:sys:user:update'), find('base:sys:user:delete')];
    const role = async (name: string, menuIdList: number[]) => (await post(`${R}/add`, { name, label: name, menuIdList })).body.data.id as number;
    const editor = await role('hand-editor', [query, upd]);
    const small = await role('hand-small', [query]);
    const big = await role('hand-big', [query, del]);
    const self = await addUser(t, admin, { username: 'handy', password: 'handy-pass', roleIdList: [editor], departmentId: d } as any);
    const target = await addUser(t, admin, { username: 'hand-target', password: 'secret-1', departmentId: d } as any);
    const handy = (await t.login('handy', 'handy-pass')).token;
    const beyond = { code: 1001, message: 'You can only hand out roles within your own permissions' };
    expect((await post(`${U}/update`, { id: target, roleIdList: [big] }, handy)).body).toEqual(beyond);
    expect((await post(`${U}/update`, { id: self, roleIdList: [editor, big] }, handy)).body).toEqual(beyond);
    const superRoleId = ((await post(`${R}/list`, { keyWord: 'superadmin' })).body.data as any[])[0].id;
    expect((await post(`${U}/update`, { id: target, roleIdList: [superRoleId] }, handy)).status).toBe(403);
    expect((await post(`${U}/update`, { id: target, roleIdList: [small] }, handy)).body.code).toBe(1000);
    expect((await post(`${U}/update`, { id: self, roleIdList: [editor], nickName: 'Handy' }, handy)).body.code).toBe(1000);
    expect((await get(`${U}/info?id=${target}`)).body.data.roleIdList).toEqual([small]);
  });

  it("limits a role's users to their department subtree when relevance is 1", async () => {
    const top = await dept('Scope top');
    const child = await dept('Scope child', top);
    const other = await dept('Scope other');
    const menus = (await post(`${M}/list`, {})).body.data as any[];
    const userQuery = menus.find((m) => m.type === 2 && (m.perms ?? '').startsWith('base:sys:user:info')).id;
    const userUpd = menus.find((m) => m.type === 2 && m.perms === 'base:sys:user:update').id;
    const wide = (await post(`${R}/add`, { name: 'scope-wide', label: 'Wide', relevance: 1, menuIdList: [userQuery, userUpd] })).body.data.id;
    const narrow = (await post(`${R}/add`, { name: 'scope-narrow', label: 'Narrow', relevance: 0, menuIdList: [userQuery, userUpd] })).body.data.id;
    await addUser(t, admin, { username: 'boss', password: 'boss-pass', roleIdList: [wide], departmentId: top } as any);
    await addUser(t, admin, { username: 'clerk', password: 'clerk-pass', roleIdList: [narrow], departmentId: top } as any);
    const inChild = await addUser(t, admin, { username: 'scoped-child', password: 'secret-1', departmentId: child } as any);
    const inOther = await addUser(t, admin, { username: 'scoped-other', password: 'secret-1', departmentId: other } as any);
    const boss = (await t.login('boss', 'boss-pass')).token;
    const clerk = (await t.login('clerk', 'clerk-pass')).token;
    const names = async (token: string) => ((await post(`${U}/list`, {}, token)).body.data as any[]).map((u) => u.username).sort();
    expect(await names(boss)).toEqual(['boss', 'clerk', 'scoped-child']);
    expect(await names(clerk)).toEqual(['boss', 'clerk']);
    expect((await get(`${U}/info?id=${inOther}`, boss)).body.code).toBe(1001);
    expect((await post(`${U}/update`, { id: inOther, nickName: 'x' }, boss)).body.code).toBe(1001);
    expect((await post(`${U}/update`, { id: inChild, nickName: 'Kid' }, boss)).body.code).toBe(1000);
    expect((await post(`${U}/update`, { id: inChild, nickName: 'x' }, clerk)).body.code).toBe(1001);
    // A department grant widens the narrow role.
    await post(`${R}/update`, { id: narrow, departmentIdList: [other] });
    expect(await names(clerk)).toEqual(['boss', 'clerk', 'scoped-other']);
  });
});

describe('menus', () => {
  it('keeps the tree whole: a parent goes only with its children, and no entry below itself', async () => {
    const group = await post(`${M}/add`, { name: 'Tools', type: 0, orderNum: 9 });
    const page = await post(`${M}/add`, { name: 'Tool page', type: 1, parentId: group.body.data.id, router: '/tools/x', viewPath: 'modules/tools/views/x', keepAlive: false });
    const perm = await post(`${M}/add`, { name: 'Tool add', type: 2, parentId: page.body.data.id, perms: ' tools:x:add , tools:x:page ' });
    expect(perm.body.code).toBe(1000);
    expect((await get(`${M}/info?id=${perm.body.data.id}`)).body.data).toMatchObject({ perms: 'tools:x:add,tools:x:page', isShow: true });
    expect((await get(`${M}/info?id=${page.body.data.id}`)).body.data.keepAlive).toBe(false);
    expect((await post(`${M}/add`, { name: 'Under perm', type: 2, parentId: perm.body.data.id, perms: 'a:b:c' })).body).toEqual({ code: 1002, message: 'parentId is invalid' });
    expect((await post(`${M}/add`, { name: 'Bad type', type: 7 })).body).toEqual({ code: 1002, message: 'type is invalid' });
    expect((await post(`${M}/update`, { id: group.body.data.id, parentId: page.body.data.id })).body).toEqual({ code: 1002, message: 'parentId is invalid' });
    expect((await post(`${M}/delete`, { ids: [group.body.data.id] })).body).toEqual({ code: 1001, message: 'Menu "Tools" has sub-menus: delete them too or move them first' });
    expect((await post(`${M}/delete`, { ids: [group.body.data.id, page.body.data.id, perm.body.data.id] })).body.code).toBe(1000);
    expect((await get(`${M}/info?id=${page.body.data.id}`)).body.code).toBe(1001);
  });

  it('exports the tree as JSON and merges an import by router and perms, skipping bad entries', async () => {
    const tree = (await post(`${M}/export`, {})).body.data as any[];
    const system = tree.find((n) => n.name === 'System management');
    expect(system.children.length).toBeGreaterThan(0);
    expect(JSON.stringify(tree)).not.toContain('"id"');
    const before = (await post(`${M}/list`, {})).body.data.length;

    // Re-importing the export changes nothing.
    const same = await post(`${M}/import`, { menus: tree });
    expect(same.body.data.created).toBe(0);
    expect(same.body.data.skipped).toEqual([]);
    expect((await post(`${M}/list`, {})).body.data.length).toBe(before);

    const res = await post(`${M}/import`, {
      menus: [
        {
          name: 'System management', type: 0,
          children: [
            { name: 'Renamed users page', type: 1, router: '/sys/user', children: [{ name: 'Audit', type: 2, perms: 'base:sys:user:audit' }] },
            { name: 'Broken page', type: 1 },
            { name: 'Bad', type: 'x' },
          ],
        },
        { type: 0 },
      ],
    });
    expect(res.body.data).toEqual({
      created: 1,
      matched: 2,
      skipped: [
        { path: 'System management / Broken page', reason: 'router cannot be empty' },
        { path: 'System management / Bad', reason: 'type is invalid' },
        { path: '#2', reason: 'name cannot be empty' },
      ],
    });
    const list = (await post(`${M}/list`, {})).body.data as any[];
    const users = list.find((m) => m.router === '/sys/user');
    expect(users.name).toBe('User list');
    expect(list.find((m) => m.perms === 'base:sys:user:audit').parentId).toBe(users.id);
  });
});

describe('recycle bin restore conflicts', () => {
  it('name the user by username when the username was taken again', async () => {
    const first = (await post(`${U}/add`, { username: 'twin', password: 'twin-pass-1' })).body.data.id as number;
    expect((await post(`${U}/delete`, { ids: [first] })).body.code).toBe(1000);
    expect((await post(`${U}/add`, { username: 'twin', password: 'twin-pass-2' })).body.code).toBe(1000);
    const entry = ((await post('/admin/recycle/data/page', { entity: 'BaseSysUser' })).body.data.list as any[]).find((e) => e.rowId === first);
    const res = await t.call('POST', '/admin/recycle/data/restore', { token: admin, lang: 'de', body: { ids: [entry.id] } });
    expect(res.body).toEqual({
      code: 1001,
      message: `„twin“ (#${first}) kann nicht wiederhergestellt werden: ein Wert ist wieder vergeben oder referenzierte Daten fehlen`,
    });
  });
});
