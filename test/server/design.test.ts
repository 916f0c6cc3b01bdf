import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cubeStl } from '../fixtures/stl.ts';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';
import { uploadOne } from './space-helpers.ts';

let t: TestServer;
let admin: string;
let anna: string;
let ben: string;
let olga: string;
const ORDER_PERMS = ['order:info:add', 'order:info:info', 'order:info:page'];
const DESIGN_PERMS = ['design:save', 'design:getDesignData'];

beforeAll(async () => {
  t = await setup();
  admin = (await t.login()).token;
  const designer = await createRole(t.ctx, 'designer', [...ORDER_PERMS, ...DESIGN_PERMS]);
  const orderOnly = await createRole(t.ctx, 'order clerk', ORDER_PERMS);
  await addUser(t, admin, { username: 'anna', password: 'anna-pass', roleIdList: [designer] });
  await addUser(t, admin, { username: 'ben', password: 'ben-pass', roleIdList: [designer] });
  await addUser(t, admin, { username: 'olga', password: 'olga-pass', roleIdList: [orderOnly] });
  anna = (await t.login('anna', 'anna-pass')).token;
  ben = (await t.login('ben', 'ben-pass')).token;
  olga = (await t.login('olga', 'olga-pass')).token;
});
afterAll(() => t.close());

async function order(token: string): Promise<number> {
  const upper = await uploadOne(t, token, { name: 'upper.stl', bytes: cubeStl() }, { kind: 'model' });
  const res = await t.call('POST', '/admin/order/info/add', { token, body: { patientName: 'P', upperFileId: upper.id } });
  expect(res.body.code).toBe(1000);
  return res.body.data.id;
}
const save = (token: string, body: unknown, lang = 'en') => t.call('POST', '/admin/design/save', { token, lang, body });
const load = (token: string, orderId: number | string, lang = 'en') =>
  t.call('GET', `/admin/design/getDesignData?orderId=${orderId}`, { token, lang });

const doc = (n: number) => ({ schemaVersion: 1, measurements: [{ id: `m${n}`, a: [0, 0, 0], b: [n, 0, 0] }] });

describe('design documents', () => {
  it('round trip: nothing before the first save, then the latest document with its version and time', async () => {
    const id = await order(anna);
    expect((await load(anna, id)).body).toEqual({ code: 1000, message: 'success', data: null });
    const first = await save(anna, { orderId: id, data: doc(1), baseVersion: 0 });
    expect(first.body).toMatchObject({ code: 1000, data: { orderId: id, version: 1, updateTime: '2026-01-01 08:00:00' } });
    t.clock.advance(60_000);
    const second = await save(anna, { orderId: id, data: doc(2), baseVersion: 1 });
    expect(second.body.data).toMatchObject({ version: 2, updateTime: '2026-01-01 08:01:00' });
    expect((await load(anna, id)).body.data).toEqual({ orderId: id, version: 2, schemaVersion: 1, data: doc(2), updateTime: '2026-01-01 08:01:00', aiReport: null });
  });

  it('a save based on an older version is refused with a clear message and changes nothing', async () => {
    const id = await order(anna);
    expect((await save(anna, { orderId: id, data: doc(1), baseVersion: 0 })).body.code).toBe(1000);
    // Two tabs both based on version 1: the first wins, the second is told to reload.
    expect((await save(anna, { orderId: id, data: doc(2), baseVersion: 1 })).body.code).toBe(1000);
    const stale = await save(anna, { orderId: id, data: doc(3), baseVersion: 1 });
    expect(stale.body).toEqual({
      code: 1001,
      message: 'The design was changed elsewhere (another tab or user saved version 2); reload the design before saving again',
    });
    // A second "first save" is stale too.
    expect((await save(anna, { orderId: id, data: doc(4), baseVersion: 0 })).body.code).toBe(1001);
    // A version from the future as well.
    expect((await save(anna, { orderId: id, data: doc(5), baseVersion: 7 })).body.code).toBe(1001);
    expect((await load(anna, id)).body.data).toMatchObject({ version: 2, data: doc(2) });
    const zh = await save(anna, { orderId: id, data: doc(3), baseVersion: 1 }, 'zh');
    expect(zh.body.message).toBe('设计已在别处被修改（另一个标签页或用户保存了版本 2），请重新加载设计后再保存');
  });

  it('a designer reads and saves only the designs of their own orders; an orders admin all', async () => {
    const annas = await order(anna);
    expect((await save(anna, { orderId: annas, data: doc(1), baseVersion: 0 })).body.code).toBe(1000);
    const notYours = { code: 1001, message: 'The order does not exist or you may not design it' };
    expect((await load(ben, annas)).body).toEqual(notYours);
    expect((await save(ben, { orderId: annas, data: doc(9), baseVersion: 1 })).body).toEqual(notYours);
    expect((await load(anna, 999_999)).body).toEqual(notYours);
    expect((await load(anna, annas)).body.data.data).toEqual(doc(1));
    // The superadmin sees every order.
    expect((await load(admin, annas)).body.data.data).toEqual(doc(1));
    expect((await save(admin, { orderId: annas, data: doc(7), baseVersion: 1 })).body.code).toBe(1000);
    expect((await load(anna, annas)).body.data).toMatchObject({ version: 2, data: doc(7) });
  });

  it('refuses bad input with the field it concerns', async () => {
    const id = await order(anna);
    expect((await save(anna, { orderId: id, data: { measurements: [] }, baseVersion: 0 })).body).toEqual({
      code: 1002,
      message: 'data.schemaVersion cannot be empty',
    });
    expect((await save(anna, { orderId: id, data: 'text', baseVersion: 0 })).body.code).toBe(1002);
    expect((await save(anna, { orderId: id, data: doc(1) })).body).toEqual({ code: 1002, message: 'baseVersion cannot be empty' });
    expect((await save(anna, { orderId: id, data: doc(1), baseVersion: -1 })).body.code).toBe(1002);
    expect((await save(anna, { data: doc(1), baseVersion: 0 })).body).toEqual({ code: 1002, message: 'orderId cannot be empty' });
    expect((await load(anna, 'abc')).body.code).toBe(1002);
    expect((await save(anna, { orderId: id, data: { schemaVersion: 99 }, baseVersion: 0 })).body).toEqual({
      code: 1001,
      message: 'This design was made by a newer version of the editor (format 99); please reload the page',
    });
    const huge = { schemaVersion: 1, blob: 'x'.repeat(1_100_000) };
    expect((await save(anna, { orderId: id, data: huge, baseVersion: 0 })).body).toEqual({
      code: 1001,
      message: 'The design is too large to save (1075 KB, at most 1024 KB)',
    });
    expect((await load(anna, id)).body.data).toBeNull();
  });

  it('refuses a document with a wire of a type outside the product list (common/wires.ts); stores the known ones as sent', async () => {
    const id = await order(anna);
    const wire = (type: unknown) => ({ id: 'w1', type, jaw: 'upper', diameter: 0.8, clearance: 0.1, points: [], anchors: [] });
    const bad = await save(anna, { orderId: id, data: { ...doc(1), wires: [wire('labialBow'), wire('hyraxScrew')] }, baseVersion: 0 });
    expect(bad.body).toEqual({ code: 1002, message: 'data.wires.1.type is invalid' });
    expect((await save(anna, { orderId: id, data: { ...doc(1), wires: [wire(null)] }, baseVersion: 0 })).body).toEqual({
      code: 1002,
      message: 'data.wires.0.type cannot be empty',
    });
    expect((await load(anna, id)).body.data).toBeNull();
    const good = { ...doc(1), wires: ['labialBow', 'singleArmClasp', 'arrowClasp', 'wraparoundBow'].map(wire) };
    expect((await save(anna, { orderId: id, data: good, baseVersion: 0 })).body.code).toBe(1000);
    expect((await load(anna, id)).body.data.data).toEqual(good);
  });

  it('needs the design permissions (403) and a session (401)', async () => {
    const id = await order(olga);
    expect((await save(olga, { orderId: id, data: doc(1), baseVersion: 0 })).status).toBe(403);
    expect((await load(olga, id)).status).toBe(403);
    expect((await t.call('GET', `/admin/design/getDesignData?orderId=${id}`)).status).toBe(401);
  });
});
