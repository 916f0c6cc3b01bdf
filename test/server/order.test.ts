import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asciiStl, cubeStl, sphereStl, sphereTriangles } from '../fixtures/stl.ts';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';
import { download, upload, uploadOne } from './space-helpers.ts';

let t: TestServer;
let admin: string;
let anna: string;
let ben: string;
let annaId: number;
let benId: number;
const ORDER_PERMS = ['order:info:add', 'order:info:delete', 'order:info:update', 'order:info:info', 'order:info:list', 'order:info:page', 'order:info:retryAI'];

beforeAll(async () => {
  t = await setup();
  admin = (await t.login()).token;
  const designer = await createRole(t.ctx, 'designer', ORDER_PERMS);
  annaId = await addUser(t, admin, { username: 'anna', password: 'anna-pass', roleIdList: [designer] });
  benId = await addUser(t, admin, { username: 'ben', password: 'ben-pass', roleIdList: [designer] });
  anna = (await t.login('anna', 'anna-pass')).token;
  ben = (await t.login('ben', 'ben-pass')).token;
});
afterAll(() => t.close());

const model = (token: string, name = 'upper.stl', bytes: Uint8Array = cubeStl()) => uploadOne(t, token, { name, bytes }, { kind: 'model' });
const addOrder = (token: string, body: Record<string, unknown>) => t.call('POST', '/admin/order/info/add', { token, lang: 'en', body });

describe('orders', () => {
  it('round trip: add with generated case number, info with files and designer, update, page, delete', async () => {
    const upper = await model(anna);
    const lower = await model(anna, 'lower.stl', asciiStl(sphereTriangles(4, 12, 6)));
    const add = await addOrder(anna, { patientName: 'Max Muster', remark: 'rush', deliveryTime: '2026-01-09', enableAI: true, upperFileId: upper.id, lowerFileId: lower.id });
    expect(add.body.code).toBe(1000);
    const id = add.body.data.id;
    const info = (await t.call('GET', `/admin/order/info/info?id=${id}`, { token: anna })).body.data;
    expect(info).toMatchObject({
      caseNo: 'AW-20260101-0001',
      patientName: 'Max Muster',
      remark: 'rush',
      deliveryTime: '2026-01-09 00:00:00',
      enableAI: 1,
      aiStatus: 4,
      status: 0,
      designerId: annaId,
      creatorId: annaId,
      designerName: 'anna',
      designStartTime: '2026-01-01 08:00:00',
      upperFile: { id: upper.id, name: 'upper.stl', url: upper.url },
      lowerFile: { id: lower.id, name: 'lower.stl' },
      occlusionFile: null,
    });
    const second = await addOrder(anna, { patientName: 'Eva', lowerFileId: lower.id });
    expect((await t.call('GET', `/admin/order/info/info?id=${second.body.data.id}`, { token: anna })).body.data.caseNo).toBe('AW-20260101-0002');

    // The status is no longer written by update: the one it has is accepted (clients send the
    // record back), another is refused and nothing changes (the lifecycle's calls move it).
    const moved = await t.call('POST', '/admin/order/info/update', { token: anna, lang: 'en', body: { id, patientName: 'Moved', status: 1 } });
    expect(moved.body).toMatchObject({ code: 1001, message: expect.stringMatching(/cannot be set directly/) });
    const upd = await t.call('POST', '/admin/order/info/update', { token: anna, body: { id, patientName: 'Max Mustermann', enableAI: false, status: 0 } });
    expect(upd.body.code).toBe(1000);
    const after = (await t.call('GET', `/admin/order/info/info?id=${id}`, { token: anna })).body.data;
    expect(after).toMatchObject({ patientName: 'Max Mustermann', enableAI: 0, aiStatus: 0, status: 0, caseNo: 'AW-20260101-0001', biteJob: null, baseFileId: null, drc: null });

    const page = await t.call('POST', '/admin/order/info/page', { token: anna, body: { keyWord: 'Muster' } });
    expect(page.body.data.list.map((r: any) => r.id)).toEqual([id]);
    expect(page.body.data.list[0].designerName).toBe('anna');

    expect((await t.call('POST', '/admin/order/info/delete', { token: anna, body: { ids: [id] } })).body.code).toBe(1000);
    expect((await t.call('GET', `/admin/order/info/info?id=${id}`, { token: anna })).body.code).toBe(1001);
    // Deleted orders wait in the recycle bin.
    const bin = await t.ctx.db.selectFrom('recycle_data').select(['tableName', 'rowId']).where('tableName', '=', 'order_info').execute();
    expect(bin).toEqual([{ tableName: 'order_info', rowId: id }]);
  });

  it('needs the patient name and the upper or lower model; an occlusion model needs both', async () => {
    const upper = await model(anna);
    const occlusion = await model(anna, 'bite.stl', sphereStl({ segments: 8, rings: 4 }));
    expect((await addOrder(anna, { upperFileId: upper.id })).body).toEqual({ code: 1002, message: 'patientName cannot be empty' });
    expect((await addOrder(anna, { patientName: 'P' })).body).toEqual({ code: 1001, message: 'Please upload the upper or lower model' });
    expect((await addOrder(anna, { patientName: 'P', occlusionFileId: occlusion.id, upperFileId: upper.id })).body).toEqual({
      code: 1001,
      message: 'Bite registration needs both the upper and the lower model',
    });
    const zh = await t.call('POST', '/admin/order/info/add', { token: anna, lang: 'zh', body: { patientName: 'P' } });
    expect(zh.body.message).toBe('请上传上颌或下颌模型');
    const ok = await addOrder(anna, { patientName: 'P', upperFileId: upper.id });
    // Removing the last model on update is refused as well.
    const cleared = await t.call('POST', '/admin/order/info/update', { token: anna, lang: 'en', body: { id: ok.body.data.id, upperFileId: null } });
    expect(cleared.body.message).toBe('Please upload the upper or lower model');
  });

  it('takes only STL files as models', async () => {
    const text = (await upload(t, anna, [{ name: 'notes.txt', bytes: new TextEncoder().encode('hello') }])).body.data[0];
    const res = await addOrder(anna, { patientName: 'P', upperFileId: text.id });
    expect(res.body).toEqual({ code: 1001, message: 'Only STL files are accepted for the models (upperFileId)' });
    expect((await addOrder(anna, { patientName: 'P', upperFileId: 999999 })).body).toEqual({ code: 1002, message: 'upperFileId is invalid' });
  });

  it('retries a failed AI design, and only that', async () => {
    const upper = await model(anna);
    const id = (await addOrder(anna, { patientName: 'AI', upperFileId: upper.id, enableAI: 1 })).body.data.id;
    const retry = () => t.call('POST', '/admin/order/info/retryAI', { token: anna, lang: 'en', body: { id } });
    expect((await retry()).body).toEqual({ code: 1001, message: 'Only a failed AI design can be retried' });
    await t.ctx.db.updateTable('order_info').set({ aiStatus: 3 }).where('id', '=', id).execute();
    expect((await t.call('POST', '/admin/order/info/retryAI', { token: ben, lang: 'en', body: { id } })).body).toEqual({ code: 1001, message: 'Data does not exist' });
    expect((await retry()).body.code).toBe(1000);
    expect((await t.call('GET', `/admin/order/info/info?id=${id}`, { token: anna })).body.data.aiStatus).toBe(4);
  });

  it("takes the specification's upper/lower/occlusion, each a file id or the upload reply, and info answers them", async () => {
    const upper = await model(anna);
    const lower = await model(anna, 'lower.stl', cubeStl({ size: 9 }));
    const bite = await model(anna, 'bite.stl', cubeStl({ size: 7 }));
    // The upload reply object as it came back, and a bare id.
    const add = await addOrder(anna, { patientName: 'Spec', upper, lower: lower.id });
    expect(add.body.code).toBe(1000);
    const id = add.body.data.id;
    const info = (await t.call('GET', `/admin/order/info/info?id=${id}`, { token: anna })).body.data;
    expect(info).toMatchObject({ upperFileId: upper.id, lowerFileId: lower.id, upper: { id: upper.id, name: 'upper.stl', url: upper.url }, lower: { id: lower.id }, occlusion: null });

    // Update with the same names. A client sends back the record info answered with one name
    // changed: the name that differs from the stored model is the change, in either direction.
    expect((await t.call('POST', '/admin/order/info/update', { token: anna, body: { ...info, occlusion: bite, patientName: 'Spec 2' } })).body.code).toBe(1000);
    const mid = (await t.call('GET', `/admin/order/info/info?id=${id}`, { token: anna })).body.data;
    expect(mid).toMatchObject({ patientName: 'Spec 2', upperFileId: upper.id, occlusionFileId: bite.id, occlusion: { id: bite.id, name: 'bite.stl' } });
    const lower2 = await model(anna, 'lower2.stl', cubeStl({ size: 11 }));
    expect((await t.call('POST', '/admin/order/info/update', { token: anna, body: { ...mid, lowerFileId: lower2.id } })).body.code).toBe(1000);
    expect((await t.call('GET', `/admin/order/info/info?id=${id}`, { token: anna })).body.data).toMatchObject({ lowerFileId: lower2.id, lower: { id: lower2.id } });
    expect((await t.call('POST', '/admin/order/info/update', { token: anna, body: { id, lower: { id: lower.id } } })).body.code).toBe(1000);
    expect((await t.call('GET', `/admin/order/info/info?id=${id}`, { token: anna })).body.data.lowerFileId).toBe(lower.id);
    // Clearing the last needed model by the new name is refused like by the old.
    expect((await t.call('POST', '/admin/order/info/update', { token: anna, lang: 'en', body: { id, upper: null, lower: '' } })).body.code).toBe(1001);

    // Errors name the field as sent; two names for one model must agree.
    expect((await addOrder(anna, { patientName: 'P', upper: { name: 'x' } })).body).toEqual({ code: 1002, message: 'upper is invalid' });
    expect((await addOrder(anna, { patientName: 'P', upper: upper.id, upperFileId: lower.id })).body).toEqual({ code: 1002, message: 'upper is invalid' });
    expect((await addOrder(anna, { patientName: 'P', upper: upper.id, upperFileId: upper.id })).body.code).toBe(1000);
    expect((await addOrder(anna, { patientName: 'P', lower: { id: 999999 } })).body).toEqual({ code: 1002, message: 'lower is invalid' });
    // Someone else's file by the new names is refused as by the old.
    expect((await addOrder(ben, { patientName: 'Mine', upper })).body).toEqual({ code: 1002, message: 'upper is invalid' });
  });

  it('validates the delivery time', async () => {
    const upper = await model(anna);
    const res = await addOrder(anna, { patientName: 'P', upperFileId: upper.id, deliveryTime: 'tomorrow' });
    expect(res.body).toEqual({ code: 1002, message: 'deliveryTime is invalid' });
  });
});

describe('non-admins see only their own orders, on every call', () => {
  it('page, list, info, update, delete and the model files of another designer give nothing', async () => {
    const upper = await model(anna, 'anna-upper.stl', cubeStl({ size: 13 }));
    const id = (await addOrder(anna, { patientName: 'Secret Patient', upperFileId: upper.id })).body.data.id as number;

    const page = await t.call('POST', '/admin/order/info/page', { token: ben, body: { size: 100 } });
    expect(page.body.code).toBe(1000);
    expect(page.body.data.list.map((r: any) => r.id)).not.toContain(id);
    expect(page.body.data.list.every((r: any) => r.designerId === benId)).toBe(true);
    const list = await t.call('POST', '/admin/order/info/list', { token: ben, body: { designerId: annaId } });
    expect(list.body.data).toEqual([]);
    const info = await t.call('GET', `/admin/order/info/info?id=${id}`, { token: ben, lang: 'en' });
    expect(info.body).toEqual({ code: 1001, message: 'Data does not exist' });
    const update = await t.call('POST', '/admin/order/info/update', { token: ben, lang: 'en', body: { id, patientName: 'Hacked' } });
    expect(update.body).toEqual({ code: 1001, message: 'Data does not exist' });
    await t.call('POST', '/admin/order/info/delete', { token: ben, body: { ids: [id] } });
    const still = await t.call('GET', `/admin/order/info/info?id=${id}`, { token: anna });
    expect(still.body.data.patientName).toBe('Secret Patient');

    // The file: not by URL, not by putting its id on one's own order.
    const file = await download(t, ben, upper.url);
    expect(file.status).toBe(404);
    expect(new TextDecoder().decode(file.bytes)).not.toContain('solid');
    const borrow = await addOrder(ben, { patientName: 'Mine', upperFileId: upper.id });
    expect(borrow.body).toEqual({ code: 1002, message: 'upperFileId is invalid' });
    // A non-admin cannot hand an order to someone else either.
    const own = await model(ben);
    const handed = await addOrder(ben, { patientName: 'X', upperFileId: own.id, designerId: annaId });
    expect((await t.call('GET', `/admin/order/info/info?id=${handed.body.data.id}`, { token: ben })).body.data.designerId).toBe(benId);
    expect((await download(t, anna, upper.url)).status).toBe(200);
  });

  it('an admin sees every order, assigns designers, and the designer can then read the models', async () => {
    const upper = await model(admin, 'admin-upper.stl', cubeStl({ size: 21 }));
    const res = await addOrder(admin, { patientName: 'Assigned', upperFileId: upper.id, designerId: benId });
    const id = res.body.data.id;
    const seen = await t.call('GET', `/admin/order/info/info?id=${id}`, { token: ben });
    expect(seen.body.data).toMatchObject({ designerId: benId, creatorId: 1, designerName: 'ben' });
    expect((await download(t, ben, upper.url)).status).toBe(200);
    expect((await download(t, anna, upper.url)).status).toBe(404);
    const all = await t.call('POST', '/admin/order/info/page', { token: admin, body: { size: 100 } });
    expect(new Set(all.body.data.list.map((r: any) => r.designerId))).toEqual(new Set([annaId, benId]));
    expect((await addOrder(admin, { patientName: 'Nobody', upperFileId: upper.id, designerId: 4242 })).body.code).toBe(1002);
  });

  it('a role with order:info:all sees every order', async () => {
    const role = await createRole(t.ctx, 'order-admin', [...ORDER_PERMS, 'order:info:all']);
    await addUser(t, admin, { username: 'olga', password: 'olga-pass', roleIdList: [role] });
    const olga = (await t.login('olga', 'olga-pass')).token;
    const page = await t.call('POST', '/admin/order/info/page', { token: olga, body: { size: 100 } });
    expect(new Set(page.body.data.list.map((r: any) => r.designerId))).toEqual(new Set([annaId, benId]));
  });

  it('a file an order uses cannot be deleted', async () => {
    const upper = await model(anna);
    await addOrder(anna, { patientName: 'Keep', upperFileId: upper.id });
    const del = await t.call('POST', '/admin/space/info/delete', { token: admin, lang: 'en', body: { ids: [upper.id] } });
    expect(del.body.message).toMatch(/^The file is used by order AW-20260101-\d{4} and cannot be deleted$/);
    expect((await download(t, anna, upper.url)).status).toBe(200);
  });

  it('403 without the permission', async () => {
    await addUser(t, admin, { username: 'nobody', password: 'nobody-pass' });
    const nobody = (await t.login('nobody', 'nobody-pass')).token;
    for (const [method, path] of [['POST', '/admin/order/info/page'], ['POST', '/admin/order/info/add'], ['GET', '/admin/order/info/info?id=1']] as const) {
      expect((await t.call(method, path, { token: nobody, body: method === 'POST' ? {} : undefined })).status).toBe(403);
    }
  });
});
