import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../server/core/crypto.ts';
import { findDeviceByKey } from '../../server/modules/device/keys.ts';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';

let t: TestServer;
let admin: string;
let dora: string;
let doraId: number;
let emilId: number;
const DEVICE_PERMS = ['device:info:add', 'device:info:delete', 'device:info:update', 'device:info:info', 'device:info:list', 'device:info:page', 'device:info:resetKey', 'device:info:diameterList', 'device:info:currentDevice', 'device:config:add', 'device:config:page'];

beforeAll(async () => {
  t = await setup();
  admin = (await t.login()).token;
  const role = await createRole(t.ctx, 'operator', DEVICE_PERMS);
  doraId = await addUser(t, admin, { username: 'dora', password: 'dora-pass', roleIdList: [role] });
  emilId = await addUser(t, admin, { username: 'emil', password: 'emil-pass', roleIdList: [role] });
  dora = (await t.login('dora', 'dora-pass')).token;
});
afterAll(() => t.close());

const device = { devicename: 'Bender 1', diameters: [0.9, 0.7, 0.8, 1.0], memory: 2000, remark: 'lab A', enableAI: true };

describe('devices', () => {
  it('round trip; the key is shown once and the database holds only its sha256', async () => {
    const add = await t.call('POST', '/admin/device/info/add', { token: admin, body: device });
    expect(add.body.code).toBe(1000);
    const { id, deviceKey } = add.body.data;
    expect(deviceKey).toMatch(/^awd_[A-Za-z0-9_-]{43}$/);
    const info = (await t.call('GET', `/admin/device/info/info?id=${id}`, { token: admin })).body.data;
    expect(info).toMatchObject({ devicename: 'Bender 1', diameters: '0.7,0.8,0.9,1', diameterList: [0.7, 0.8, 0.9, 1], memory: 2000, status: 0, enableAI: 1 });
    expect(JSON.stringify(info)).not.toContain(deviceKey);
    expect(info).not.toHaveProperty('keyHash');
    expect(info.keyHint).toBe(`awd_…${deviceKey.slice(-4)}`);
    const page = await t.call('POST', '/admin/device/info/page', { token: admin, body: {} });
    expect(JSON.stringify(page.body)).not.toContain(deviceKey);

    const stored = await t.ctx.db.selectFrom('device_info').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(deviceKey);
    expect(stored.keyHash).toBe(await sha256Hex(deviceKey));

    const reset = await t.call('POST', '/admin/device/info/resetKey', { token: admin, body: { id } });
    expect(reset.body.data.deviceKey).not.toBe(deviceKey);
    const after = await t.ctx.db.selectFrom('device_info').select('keyHash').where('id', '=', id).executeTakeFirstOrThrow();
    expect(after.keyHash).toBe(await sha256Hex(reset.body.data.deviceKey));

    // The hub finds a device by its current key only.
    expect(await findDeviceByKey(t.ctx.db, reset.body.data.deviceKey)).toEqual({ id, devicename: 'Bender 1' });
    expect(await findDeviceByKey(t.ctx.db, deviceKey)).toBeUndefined();
    expect((await t.call('POST', '/admin/device/info/update', { token: admin, body: { id, status: 1, diameters: '0.8, 1.0' } })).body.code).toBe(1000);
    // online/offline is the hub's: a status sent with the form is ignored.
    expect((await t.call('GET', `/admin/device/info/info?id=${id}`, { token: admin })).body.data).toMatchObject({ status: 0, diameters: '0.8,1' });
    expect((await t.call('POST', '/admin/device/info/delete', { token: admin, body: { ids: [id] } })).body.code).toBe(1000);
    expect((await t.call('GET', `/admin/device/info/info?id=${id}`, { token: admin })).body.code).toBe(1001);
  });

  it('validates diameters and memory', async () => {
    const bad = await t.call('POST', '/admin/device/info/add', { token: admin, lang: 'en', body: { ...device, diameters: [] } });
    expect(bad.body).toEqual({ code: 1002, message: 'diameters is invalid' });
    const mem = await t.call('POST', '/admin/device/info/add', { token: admin, lang: 'en', body: { ...device, memory: 0 } });
    expect(mem.body).toEqual({ code: 1002, message: 'memory is invalid' });
  });

  it('non-admins see the devices bound to them; binding lists users', async () => {
    const a = (await t.call('POST', '/admin/device/info/add', { token: admin, body: { ...device, devicename: 'Bound' } })).body.data.id;
    const b = (await t.call('POST', '/admin/device/info/add', { token: admin, body: { ...device, devicename: 'Other', diameters: [1.2] } })).body.data.id;
    expect((await t.call('POST', '/admin/device/info/bind', { token: admin, body: { id: a, userIds: [doraId, emilId] } })).body.code).toBe(1000);
    const users = await t.call('GET', `/admin/device/info/userList?id=${a}`, { token: admin });
    expect(users.body.data.map((u: any) => u.username)).toEqual(['dora', 'emil']);
    expect((await t.call('POST', '/admin/device/info/unbind', { token: admin, body: { id: a, userIds: [emilId] } })).body.code).toBe(1000);
    expect((await t.call('GET', `/admin/device/info/userList?id=${a}`, { token: admin })).body.data.map((u: any) => u.username)).toEqual(['dora']);

    const page = await t.call('POST', '/admin/device/info/page', { token: dora, body: {} });
    expect(page.body.data.list.map((d: any) => d.devicename)).toEqual(['Bound']);
    expect((await t.call('GET', `/admin/device/info/info?id=${b}`, { token: dora })).body.code).toBe(1001);
    expect((await t.call('POST', '/admin/device/info/resetKey', { token: dora, body: { id: b } })).body.code).toBe(1001);
    expect((await t.call('GET', '/admin/device/info/diameterList', { token: dora })).body.data).toEqual([0.7, 0.8, 0.9, 1]);
    expect((await t.call('GET', '/admin/device/info/diameterList', { token: admin })).body.data).toEqual([0.7, 0.8, 0.9, 1, 1.2]);
    // The editor's call: only the caller's own devices, even for an admin.
    const current = await t.call('GET', '/admin/device/info/currentDevice', { token: dora });
    expect(current.body.data.map((d: any) => d.devicename)).toEqual(['Bound']);
    expect(current.body.data[0].diameterList).toEqual([0.7, 0.8, 0.9, 1]);
    expect((await t.call('GET', '/admin/device/info/currentDevice', { token: admin })).body.data).toEqual([]);
    // Binding needs the "Bind users" grant, which the operator role lacks.
    expect((await t.call('POST', '/admin/device/info/bind', { token: dora, body: { id: b, userIds: [doraId] } })).status).toBe(403);
  });

  it('calibration: a springback table per supported diameter, validated', async () => {
    const id = (await t.call('POST', '/admin/device/info/add', { token: admin, body: { ...device, devicename: 'Cal' } })).body.data.id;
    const rows = [[0, 0], [45, 2.5], [90, 4.1], [160, 6]];
    const add = await t.call('POST', '/admin/device/config/add', { token: admin, body: { deviceId: id, diameter: 0.8, springback: rows } });
    expect(add.body.code).toBe(1000);
    const info = await t.call('GET', `/admin/device/config/info?id=${add.body.data.id}`, { token: admin });
    expect(info.body.data).toMatchObject({ deviceId: id, diameter: 0.8, springback: rows });
    const again = await t.call('POST', '/admin/device/config/add', { token: admin, lang: 'en', body: { deviceId: id, diameter: 0.8, springback: rows } });
    expect(again.body).toEqual({ code: 1002, message: 'diameter is invalid' });
    const unsupported = await t.call('POST', '/admin/device/config/add', { token: admin, lang: 'en', body: { deviceId: id, diameter: 1.5, springback: rows } });
    expect(unsupported.body).toEqual({ code: 1001, message: 'The device does not support a wire diameter of 1.5 mm' });
    const falling = await t.call('POST', '/admin/device/config/add', { token: admin, lang: 'en', body: { deviceId: id, diameter: 0.7, springback: [[90, 1], [45, 1]] } });
    expect(falling.body).toEqual({ code: 1002, message: 'springback is invalid' });
    // 45° bends to 55°, 90° would bend to 50°: the machine could not tell them apart.
    const folding = await t.call('POST', '/admin/device/config/add', { token: admin, lang: 'en', body: { deviceId: id, diameter: 0.7, springback: [[0, 0], [45, 10], [90, -40]] } });
    expect(folding.body).toEqual({ code: 1002, message: 'springback is invalid' });
    const page = await t.call('POST', '/admin/device/config/page', { token: admin, body: { deviceId: id } });
    expect(page.body.data.list[0].springback).toEqual(rows);
    // Dora is not bound to this device: neither its tables nor adding one.
    expect((await t.call('POST', '/admin/device/config/page', { token: dora, body: { deviceId: id } })).body.data.list).toEqual([]);
    const foreign = await t.call('POST', '/admin/device/config/add', { token: dora, lang: 'en', body: { deviceId: id, diameter: 0.9, springback: rows } });
    expect(foreign.body).toEqual({ code: 1002, message: 'deviceId is invalid' });
  });

  it('die radius: 1 mm unless set, bounded, and given to the editor with the device', async () => {
    const plain = (await t.call('POST', '/admin/device/info/add', { token: admin, body: { ...device, devicename: 'Die default' } })).body.data.id;
    const wide = (await t.call('POST', '/admin/device/info/add', { token: admin, body: { ...device, devicename: 'Die 2.5', dieRadius: 2.5 } })).body.data.id;
    const tiny = await t.call('POST', '/admin/device/info/add', { token: admin, lang: 'en', body: { ...device, devicename: 'Die 0', dieRadius: 0 } });
    expect(tiny.body).toEqual({ code: 1002, message: 'dieRadius is invalid' });
    expect((await t.call('GET', `/admin/device/info/info?id=${plain}`, { token: admin })).body.data.dieRadius).toBe(1);
    await t.call('POST', '/admin/device/info/update', { token: admin, body: { id: plain, dieRadius: 1.2 } });
    const usable = (await t.call('POST', '/admin/design/userDeviceList', { token: admin, body: {} })).body.data as { id: number; dieRadius: number }[];
    expect(usable.find((d) => d.id === plain)?.dieRadius).toBe(1.2);
    expect(usable.find((d) => d.id === wide)?.dieRadius).toBe(2.5);
  });

  it('api config: the key is written but never read back in full', async () => {
    const add = await t.call('POST', '/admin/device/apiConfig/add', { token: admin, body: { name: 'AI', url: 'https://ai.example.com/v1', key: 'sk-very-secret-1234' } });
    expect(add.body.code).toBe(1000);
    const id = add.body.data.id;
    const info = (await t.call('GET', `/admin/device/apiConfig/info?id=${id}`, { token: admin })).body.data;
    expect(info).toMatchObject({ name: 'AI', url: 'https://ai.example.com/v1', enabled: 1, keyHint: '••••1234' });
    expect(JSON.stringify(info)).not.toContain('very-secret');
    const page = await t.call('POST', '/admin/device/apiConfig/page', { token: admin, body: {} });
    expect(JSON.stringify(page.body)).not.toContain('very-secret');
    // An empty key keeps the stored one.
    await t.call('POST', '/admin/device/apiConfig/update', { token: admin, body: { id, name: 'AI 2', key: '' } });
    expect((await t.ctx.db.selectFrom('device_api_config').select('key').where('id', '=', id).executeTakeFirstOrThrow()).key).toBe('sk-very-secret-1234');
    await t.ctx.db.insertInto('base_sys_department').values({ name: 'Lab Berlin', parentId: null, createTime: '2026-01-01 00:00:00', updateTime: '2026-01-01 00:00:00' }).execute();
    const departments = await t.call('GET', '/admin/device/apiConfig/departmentList', { token: admin });
    expect(departments.body.data).toEqual([expect.objectContaining({ name: 'Lab Berlin', parentId: null })]);
    const bad = await t.call('POST', '/admin/device/apiConfig/add', { token: admin, lang: 'en', body: { name: 'x', url: 'javascript:alert(1)' } });
    expect(bad.body).toEqual({ code: 1002, message: 'url is invalid' });
  });

  it('403 without the permission', async () => {
    await addUser(t, admin, { username: 'nobody', password: 'nobody-pass' });
    const nobody = (await t.login('nobody', 'nobody-pass')).token;
    expect((await t.call('POST', '/admin/device/info/page', { token: nobody, body: {} })).status).toBe(403);
    expect((await t.call('POST', '/admin/device/info/add', { token: nobody, body: device })).status).toBe(403);
    expect((await t.call('POST', '/admin/device/apiConfig/page', { token: dora, body: {} })).status).toBe(403);
  });
});
