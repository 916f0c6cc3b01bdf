// The plugin demo pages' calls: the in-memory demo list (search, subData, validation, cap),
// delivery addresses (own data only, region checked, the order's address) and the editors'
// texts (stored sanitised).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cubeStl } from '../fixtures/stl.ts';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';
import { uploadOne } from './space-helpers.ts';

let t: TestServer;
let admin: string;
let alice: string;
let bob: string;
let aliceId: number;
let bobId: number;

const DONGCHENG = ['11', '1101', '110101'];

beforeAll(async () => {
  t = await setup();
  admin = (await t.login()).token;
  const role = await createRole(t.ctx, 'plugin-user', [
    'user:address:add', 'user:address:delete', 'user:address:update', 'user:address:page',
    'demo:sample:page', 'demo:sample:add', 'demo:sample:update', 'demo:sample:delete',
    'demo:article:add', 'demo:article:page', 'order:info:add', 'order:info:update',
  ]);
  aliceId = await addUser(t, admin, { username: 'alice', password: 'alice-secret-1', roleIdList: [role] });
  bobId = await addUser(t, admin, { username: 'bob', password: 'bob-secret-1', roleIdList: [role] });
  alice = (await t.login('alice', 'alice-secret-1')).token;
  bob = (await t.login('bob', 'bob-secret-1')).token;
});
afterAll(() => t.close());

describe('demo list (in memory)', () => {
  it('pages the seeded records with the wages sum of all matches in subData', async () => {
    const res = await t.call('POST', '/admin/demo/sample/page', { token: alice, body: { page: 1, size: 10 } });
    expect(res.body.code).toBe(1000);
    const { list, pagination, subData } = res.body.data;
    expect(list).toHaveLength(10);
    expect(pagination.total).toBe(25);
    const all = await t.call('POST', '/admin/demo/sample/list', { token: alice, body: {} });
    const sum = all.body.data.reduce((s: number, r: { wages: number }) => s + r.wages, 0);
    expect(subData.wages).toBe(sum);
    expect(Object.keys(list[0]).sort()).toEqual(['account', 'avatar', 'createTime', 'id', 'name', 'occupation', 'phone', 'status', 'wages']);
  });

  it('searches keyWord over phone and name, phone and name by substring, the rest exactly', async () => {
    const page = (body: object) => t.call('POST', '/admin/demo/sample/page', { token: alice, body: { size: 100, ...body } });
    const all = (await page({})).body.data.list as { id: number; name: string; phone: string; status: number; occupation: number; createTime: string }[];
    const byName = (await page({ keyWord: 'müller' })).body.data;
    expect(byName.list.length).toBeGreaterThan(0);
    expect(byName.list.every((r: { name: string }) => r.name.includes('Müller'))).toBe(true);
    const phone = all[3]!.phone;
    const byPhone = (await page({ keyWord: phone.slice(-4) })).body.data.list;
    expect(byPhone.map((r: { id: number }) => r.id)).toContain(all[3]!.id);
    expect((await page({ phone: phone.slice(2, 9) })).body.data.list.length).toBe(all.filter((r) => r.phone.includes(phone.slice(2, 9))).length);
    const status = (await page({ status: 0 })).body.data;
    expect(status.list.every((r: { status: number }) => r.status === 0)).toBe(true);
    expect(status.subData.wages).toBe(status.list.reduce((s: number, r: { wages: number }) => s + r.wages, 0));
    expect((await page({ occupation: 2 })).body.data.list.every((r: { occupation: number }) => r.occupation === 2)).toBe(true);
    const exact = (await page({ createTime: all[5]!.createTime })).body.data.list;
    expect(exact.map((r: { id: number }) => r.id)).toEqual([all[5]!.id]);
    // createTime is exact: a prefix finds nothing.
    expect((await page({ createTime: all[5]!.createTime.slice(0, 10) })).body.data.list).toEqual([]);
    const sorted = (await page({ order: 'wages', sort: 'asc' })).body.data.list.map((r: { wages: number }) => r.wages);
    expect(sorted).toEqual([...sorted].sort((a, b) => a - b));
  });

  it('adds, updates and deletes; refuses bad input and unknown sort columns', async () => {
    const add = await t.call('POST', '/admin/demo/sample/add', {
      token: alice,
      body: { name: 'Probe', wages: 1234.5, status: 1, account: 'probe', occupation: 3, phone: '13912345678' },
    });
    expect(add.body.code).toBe(1000);
    const id = add.body.data.id;
    await t.call('POST', '/admin/demo/sample/update', { token: alice, body: { id, wages: 99 } });
    const info = await t.call('GET', `/admin/demo/sample/info?id=${id}`, { token: admin });
    expect(info.body.data).toMatchObject({ name: 'Probe', wages: 99, occupation: 3 });
    expect((await t.call('POST', '/admin/demo/sample/delete', { token: alice, body: { ids: [id] } })).body.code).toBe(1000);
    expect((await t.call('GET', `/admin/demo/sample/info?id=${id}`, { token: admin })).body.code).toBe(1001);

    const bad = [
      { name: '', wages: 1, status: 1, account: 'a', occupation: 1, phone: '13912345678' },
      { name: 'x', wages: 1, status: 2, account: 'a', occupation: 1, phone: '13912345678' },
      { name: 'x', wages: 1, status: 1, account: 'a', occupation: 6, phone: '13912345678' },
      { name: 'x', wages: -1, status: 1, account: 'a', occupation: 1, phone: '13912345678' },
      { name: 'x', wages: 1, status: 1, account: 'a', occupation: 1, phone: '<script>' },
      { name: 'x', wages: 1, status: 1, account: 'a', occupation: 1, phone: '13912345678', avatar: 'javascript:alert(1)' },
    ];
    for (const body of bad) expect((await t.call('POST', '/admin/demo/sample/add', { token: alice, body })).body.code).toBe(1002);
    expect((await t.call('POST', '/admin/demo/sample/page', { token: alice, body: { order: 'avatar; drop' } })).body.code).toBe(1002);
  });

  it('needs the permission', async () => {
    const role = await createRole(t.ctx, 'no-demo', ['user:address:page']);
    await addUser(t, admin, { username: 'carol', password: 'carol-secret-1', roleIdList: [role] });
    const carol = (await t.login('carol', 'carol-secret-1')).token;
    expect((await t.call('POST', '/admin/demo/sample/page', { token: carol, body: {} })).status).toBe(403);
  });
});

describe('user addresses', () => {
  const address = (over: object = {}) => ({ name: 'Alice', phone: '13800001111', region: { codes: DONGCHENG }, detail: 'Road 1', ...over });

  it('stores the region with the names from the division data, the first address as default', async () => {
    const add = await t.call('POST', '/admin/user/address/add', { token: alice, body: address({ region: { codes: DONGCHENG, names: ['fake', 'fake', 'fake'] } }) });
    expect(add.body.code).toBe(1000);
    const info = await t.call('GET', `/admin/user/address/info?id=${add.body.data.id}`, { token: alice });
    expect(info.body.data).toMatchObject({ userId: aliceId, isDefault: 1, regionNames: '北京市,市辖区,东城区', region: { codes: DONGCHENG, names: ['北京市', '市辖区', '东城区'] } });
    // A second default takes the flag from the first.
    const second = await t.call('POST', '/admin/user/address/add', { token: alice, body: address({ detail: 'Road 2', isDefault: true }) });
    const list = (await t.call('POST', '/admin/user/address/page', { token: alice, body: {} })).body.data.list;
    expect(list.filter((r: { isDefault: number }) => r.isDefault === 1).map((r: { id: number }) => r.id)).toEqual([second.body.data.id]);
  });

  it('refuses regions that are not a province, city and district path, and bad fields', async () => {
    for (const codes of [['11', '1101'], ['11', '3101', '310101'], ['99', '9901', '990101'], ['11', '1101', '110101', '1']]) {
      const res = await t.call('POST', '/admin/user/address/add', { token: alice, body: address({ region: { codes } }) });
      expect(res.body.code).not.toBe(1000);
    }
    expect((await t.call('POST', '/admin/user/address/add', { token: alice, body: address({ phone: 'call me' }) })).body.code).toBe(1002);
    expect((await t.call('POST', '/admin/user/address/add', { token: alice, body: address({ detail: '' }) })).body.code).toBe(1002);
  });

  it("keeps each user to their own addresses: another user's address id is refused", async () => {
    const mine = await t.call('POST', '/admin/user/address/add', { token: bob, body: address({ name: 'Bob' }) });
    const bobAddress = mine.body.data.id as number;
    const alicePage = (await t.call('POST', '/admin/user/address/page', { token: alice, body: {} })).body.data.list;
    expect(alicePage.every((r: { userId: number }) => r.userId === aliceId)).toBe(true);
    // Reading, changing or deleting Bob's address as Alice: not found, nothing changes.
    expect((await t.call('GET', `/admin/user/address/info?id=${bobAddress}`, { token: alice })).body.code).toBe(1001);
    expect((await t.call('POST', '/admin/user/address/update', { token: alice, body: { id: bobAddress, detail: 'stolen' } })).body.code).toBe(1001);
    await t.call('POST', '/admin/user/address/delete', { token: alice, body: { ids: [bobAddress] } });
    expect((await t.call('GET', `/admin/user/address/info?id=${bobAddress}`, { token: bob })).body.data.detail).toBe('Road 1');
    // Adding one for Bob, or moving one to him: refused.
    expect((await t.call('POST', '/admin/user/address/add', { token: alice, body: address({ userId: bobId }) })).body.code).toBe(1002);
    // The admin sees both users' addresses.
    const all = (await t.call('POST', '/admin/user/address/page', { token: admin, body: { size: 100 } })).body.data.list;
    expect(new Set(all.map((r: { userId: number }) => r.userId))).toEqual(new Set([aliceId, bobId]));
  });

  it("takes an order's delivery address only from the order creator's addresses", async () => {
    const bobAddress = (await t.call('POST', '/admin/user/address/page', { token: bob, body: {} })).body.data.list[0].id;
    const aliceAddress = (await t.call('POST', '/admin/user/address/page', { token: alice, body: {} })).body.data.list[0].id;
    const stl = await uploadStl(alice);
    const refused = await t.call('POST', '/admin/order/info/add', { token: alice, body: { patientName: 'P', upperFileId: stl, addressId: bobAddress } });
    expect(refused.body.code).toBe(1001);
    const made = await t.call('POST', '/admin/order/info/add', { token: alice, body: { patientName: 'P', upperFileId: stl, addressId: aliceAddress } });
    expect(made.body.code).toBe(1000);
    const id = made.body.data.id;
    expect((await t.call('POST', '/admin/order/info/update', { token: alice, body: { id, addressId: bobAddress } })).body.code).toBe(1001);
    const order = await t.ctx.db.selectFrom('order_info').select('addressId').where('id', '=', id).executeTakeFirstOrThrow();
    expect(order.addressId).toBe(aliceAddress);
  });
});

describe('editor texts', () => {
  it('stores rich text sanitised, and markdown with its sanitised HTML', async () => {
    const rich = await t.call('POST', '/admin/demo/article/add', {
      token: alice,
      body: { title: 'rich', format: 'html', content: '<p>ok<img src="/x.png" onerror="alert(1)"><script>alert(2)</script></p>' },
    });
    expect(rich.body.code).toBe(1000);
    const md = await t.call('POST', '/admin/demo/article/add', {
      token: alice,
      body: { title: 'md', format: 'markdown', content: '# Hi\n\n[x](javascript:alert(1))\n\n<script>alert(3)</script>' },
    });
    const rows = (await t.call('POST', '/admin/demo/article/page', { token: alice, body: {} })).body.data.list;
    const r = rows.find((x: { id: number }) => x.id === rich.body.data.id);
    expect(r.content).toBe('<p>ok<img src="/x.png" /></p>');
    expect(r.html).toBe(r.content);
    const m = rows.find((x: { id: number }) => x.id === md.body.data.id);
    expect(m.content).toContain('<script>');
    expect(m.html).toContain('<h1>Hi</h1>');
    expect(m.html).not.toMatch(/script|javascript:/);
    // Bob does not see Alice's texts.
    expect((await t.call('POST', '/admin/demo/article/page', { token: bob, body: {} })).body.data.list).toEqual([]);
  });

  it("keeps rich text within the plugin's maxLength and refuses a text while its editor's plugin is disabled", async () => {
    const add = (format: string, content: string) => t.call('POST', '/admin/demo/article/add', { token: alice, body: { title: 'p', format, content } });
    expect((await t.call('POST', '/admin/plugin/info/config', { token: admin, body: { key: 'richText', settings: { maxLength: 100 } } })).body.code).toBe(1000);
    expect((await add('html', `<p>${'a'.repeat(90)}</p>`)).body.code).toBe(1000);
    const long = await add('html', `<p>${'a'.repeat(120)}</p>`);
    expect(long.body.code).toBe(1001);
    expect(long.body.message).toContain('100');
    expect((await t.call('POST', '/admin/plugin/info/enable', { token: admin, body: { key: 'markdown', status: 0 } })).body.code).toBe(1000);
    expect((await add('markdown', '# off')).body.code).toBe(1001);
    expect((await t.call('POST', '/admin/plugin/info/enable', { token: admin, body: { key: 'markdown', status: 1 } })).body.code).toBe(1000);
    expect((await add('markdown', '# on')).body.code).toBe(1000);
  });
});

async function uploadStl(token: string): Promise<number> {
  return (await uploadOne(t, token, { name: 'jaw.stl', bytes: cubeStl() }, { kind: 'model' })).id;
}
