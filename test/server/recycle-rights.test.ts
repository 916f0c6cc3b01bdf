// The recycle bin must not be a back door: deleted users, roles, menus and departments come back
// only through a superadmin, deleted orders only for whoever sees all orders, and an entry comes
// back only for someone who may add that kind of data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cubeStl } from '../fixtures/stl.ts';
import { ADMIN_PASSWORD, addUser, createRole, setup, type TestServer } from './helpers.ts';
import { uploadOne } from './space-helpers.ts';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await setup();
  admin = (await t.login('admin', ADMIN_PASSWORD)).token;
});
afterAll(() => t.close());

const RECYCLE = ['recycle:data:page', 'recycle:data:restore'];

async function userWith(name: string, perms: string[]) {
  const roleId = await createRole(t.ctx, name, perms);
  await addUser(t, admin, { username: name, password: 'pw-secret-1', roleIdList: [roleId] });
  return (await t.login(name, 'pw-secret-1')).token;
}
const page = async (token: string) =>
  (await t.call('POST', '/admin/recycle/data/page', { token, body: { size: 100 } })).body.data.list as { id: number; tableName: string; rowId: number }[];
const entryOf = async (table: string, rowId: number) => (await page(admin)).find((e) => e.tableName === table && e.rowId === rowId)!;

describe('recycle bin rights', () => {
  it('a user administrator with the bin cannot bring back a deleted supervisor, see it, or purge it', async () => {
    const supervisorRole = await createRole(t.ctx, 'supervisor', ['order:info:all', 'order:info:page']);
    const supervisor = await addUser(t, admin, { username: 'supervisor', password: 'pw-secret-1', roleIdList: [supervisorRole] });
    expect((await t.call('POST', '/admin/base/sys/user/delete', { token: admin, body: { ids: [supervisor] } })).body.code).toBe(1000);
    const entry = await entryOf('base_sys_user', supervisor);
    expect(entry).toBeDefined();

    const clerk = await userWith('clerk', [...RECYCLE, 'recycle:data:delete', 'base:sys:user:add', 'base:sys:user:page']);
    expect((await page(clerk)).some((e) => e.tableName === 'base_sys_user')).toBe(false);
    expect((await t.call('GET', `/admin/recycle/data/info?id=${entry.id}`, { token: clerk })).body.code).toBe(1001);
    const restore = await t.call('POST', '/admin/recycle/data/restore', { token: clerk, lang: 'en', body: { ids: [entry.id] } });
    expect(restore.body).toMatchObject({ code: 1001, message: 'Data does not exist' });
    await t.call('POST', '/admin/recycle/data/delete', { token: clerk, body: { ids: [entry.id] } });
    // Still deleted, still in the bin; the superadmin restores it.
    expect((await t.login('supervisor', 'pw-secret-1').catch(() => null))).toBeNull();
    expect((await t.call('POST', '/admin/recycle/data/restore', { token: admin, body: { ids: [entry.id] } })).body.code).toBe(1000);
    expect((await t.login('supervisor', 'pw-secret-1')).token).toBeTruthy();
  });

  it('deleted roles and menus stay out of reach of a role editor', async () => {
    const roleId = await createRole(t.ctx, 'wide-role', ['order:info:all']);
    expect((await t.call('POST', '/admin/base/sys/role/delete', { token: admin, body: { ids: [roleId] } })).body.code).toBe(1000);
    const entry = await entryOf('base_sys_role', roleId);
    const editor = await userWith('role-editor', [...RECYCLE, 'base:sys:role:add', 'base:sys:role:page']);
    expect((await page(editor)).map((e) => e.id)).not.toContain(entry.id);
    expect((await t.call('POST', '/admin/recycle/data/restore', { token: editor, body: { ids: [entry.id] } })).body.code).toBe(1001);
  });

  it('orders come back only for whoever sees all orders', async () => {
    const designer = await userWith('bin-designer', [...RECYCLE, 'order:info:add', 'order:info:page', 'order:info:delete', 'order:info:info']);
    const upper = await uploadOne(t, designer, { name: 'upper.stl', bytes: cubeStl() }, { kind: 'model' });
    const add = await t.call('POST', '/admin/order/info/add', { token: designer, body: { patientName: 'Bin patient', upper: upper.id } });
    expect(add.body).toMatchObject({ code: 1000 });
    const orderId = add.body.data.id as number;
    expect((await t.call('POST', '/admin/order/info/delete', { token: designer, body: { ids: [orderId] } })).body.code).toBe(1000);
    const entry = await entryOf('order_info', orderId);
    expect((await page(designer)).map((e) => e.id)).not.toContain(entry.id);

    const orderAdmin = await userWith('bin-order-admin', [...RECYCLE, 'order:info:add', 'order:info:page', 'order:info:all']);
    expect((await page(orderAdmin)).map((e) => e.id)).toContain(entry.id);
    expect((await t.call('POST', '/admin/recycle/data/restore', { token: orderAdmin, body: { ids: [entry.id] } })).body.code).toBe(1000);
    expect((await t.call('GET', `/admin/order/info/info?id=${orderId}`, { token: designer })).body.data.patientName).toBe('Bin patient');
  });

  it('an entry one may read but not add is shown and refused with a reason', async () => {
    const add = await t.call('POST', '/admin/dict/type/add', { token: admin, body: { name: 'Bin colours', key: 'binColours' } });
    expect(add.body.code).toBe(1000);
    const typeId = add.body.data.id as number;
    expect((await t.call('POST', '/admin/dict/type/delete', { token: admin, body: { ids: [typeId] } })).body.code).toBe(1000);
    const entry = await entryOf('dict_type', typeId);
    const reader = await userWith('dict-reader', [...RECYCLE, 'dict:type:page']);
    expect((await page(reader)).map((e) => e.id)).toContain(entry.id);
    const refused = await t.call('POST', '/admin/recycle/data/restore', { token: reader, lang: 'en', body: { ids: [entry.id] } });
    expect(refused.body).toMatchObject({ code: 1001, message: `"DictType" (#${typeId}) cannot be restored: you may not add this kind of data` });
    const writer = await userWith('dict-writer', [...RECYCLE, 'dict:type:page', 'dict:type:add']);
    expect((await t.call('POST', '/admin/recycle/data/restore', { token: writer, body: { ids: [entry.id] } })).body.code).toBe(1000);
  });
});
