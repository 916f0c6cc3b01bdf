// Dictionaries: types with unique keys, entries in a tree, and the data call every user makes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, type TestServer } from './helpers.ts';
import { insertUser, opsServer } from './ops-helpers.ts';

let t: TestServer;
let admin: string;
let plain: string;
beforeAll(async () => ({ t, admin, plain } = await opsServer()));
afterAll(() => t.close());

const add = async (what: 'type' | 'info', body: Record<string, unknown>, token = admin) => {
  const res = await t.call('POST', `/admin/dict/${what}/add`, { token, lang: 'en', body });
  return res.body;
};

describe('dictionaries', () => {
  let colours: number;
  let wires: number;
  const ids = {} as Record<"red" | "blue" | "navy" | "sky" | "w08", number>;

  it('adds types with unique keys', async () => {
    colours = (await add('type', { name: 'Colours', key: 'colour' })).data.id;
    wires = (await add('type', { name: 'Wire sizes', key: 'wire' })).data.id;
    expect(await add('type', { name: 'Again', key: 'colour' })).toEqual({ code: 1001, message: 'A dictionary type with this key already exists' });
    expect(await add('type', { name: 'No key' })).toEqual({ code: 1002, message: 'key cannot be empty' });
    const list = await t.call('POST', '/admin/dict/type/list', { token: admin, body: {} });
    expect(list.body.data.map((r: any) => r.key)).toEqual(['colour', 'wire']);
  });

  it('adds entries with parents of the same type only, and no cycles', async () => {
    ids.red = (await add('info', { typeId: colours, name: 'Red', value: 'r', orderNum: 2 })).data.id;
    ids.blue = (await add('info', { typeId: colours, name: 'Blue', orderNum: 1 })).data.id;
    ids.navy = (await add('info', { typeId: colours, name: 'Navy', value: 'n', parentId: ids.blue, orderNum: 5 })).data.id;
    ids.sky = (await add('info', { typeId: colours, name: 'Sky', value: 's', parentId: ids.blue, orderNum: 3 })).data.id;
    ids.w08 = (await add('info', { typeId: wires, name: '0.8 mm', value: '0.8' })).data.id;

    expect(await add('info', { typeId: wires, name: 'Bad', parentId: ids.red })).toMatchObject({ code: 1001 });
    expect(await add('info', { typeId: 999, name: 'Nowhere' })).toEqual({ code: 1002, message: 'typeId is invalid' });
    expect(await add('info', { typeId: colours })).toEqual({ code: 1002, message: 'name cannot be empty' });
    // Blue under its own child Navy would make a loop.
    const loop = await t.call('POST', '/admin/dict/info/update', { token: admin, lang: 'en', body: { id: ids.blue, parentId: ids.navy } });
    expect(loop.body.code).toBe(1001);
    const self = await t.call('POST', '/admin/dict/info/update', { token: admin, body: { id: ids.blue, parentId: ids.blue } });
    expect(self.body.code).toBe(1001);
  });

  it('data answers trees by type key, sorted by orderNum, value defaulting to the id', async () => {
    const res = await t.call('POST', '/admin/dict/info/data', { token: admin, body: { types: ['colour', 'unknown'] } });
    expect(res.body.code).toBe(1000);
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual(['colour', 'unknown']);
    expect(data.unknown).toEqual([]);
    expect(data.colour.map((e: any) => [e.name, e.value])).toEqual([['Blue', ids.blue], ['Red', 'r']]);
    const blue = data.colour[0];
    expect(blue).toMatchObject({ id: ids.blue, parentId: null, orderNum: 1 });
    expect(blue.children.map((e: any) => [e.name, e.parentId])).toEqual([['Sky', ids.blue], ['Navy', ids.blue]]);
    expect(data.colour[1].children).toEqual([]);

    const all = await t.call('POST', '/admin/dict/info/data', { token: admin, body: {} });
    expect(Object.keys(all.body.data).sort()).toEqual(['colour', 'wire']);
    expect(all.body.data.wire.map((e: any) => e.value)).toEqual(['0.8']);

    const bad = await t.call('POST', '/admin/dict/info/data', { token: admin, lang: 'en', body: { types: 'colour' } });
    expect(bad.body).toEqual({ code: 1002, message: 'types is invalid' });
  });

  it('data is open to every logged-in user; the rest needs permissions', async () => {
    const res = await t.call('POST', '/admin/dict/info/data', { token: plain, body: { types: ['wire'] } });
    expect(res.status).toBe(200);
    expect(res.body.data.wire).toHaveLength(1);
    expect((await t.call('POST', '/admin/dict/info/data', { body: {} })).status).toBe(401);
    expect((await t.call('POST', '/admin/dict/info/page', { token: plain, body: {} })).status).toBe(403);
    expect((await t.call('POST', '/admin/dict/type/add', { token: plain, body: { name: 'x', key: 'x' } })).status).toBe(403);

    const roleId = await createRole(t.ctx, 'dict-reader', ['dict:info:page']);
    const reader = await insertUser(t, 'dictreader', 'reader-pass', [roleId]);
    const page = await t.call('POST', '/admin/dict/info/page', { token: reader, body: { typeId: colours, order: 'orderNum', sort: 'asc' } });
    expect(page.body.data.list.map((e: any) => e.name)).toEqual(['Blue', 'Red', 'Sky', 'Navy']);
    expect((await t.call('POST', '/admin/dict/info/delete', { token: reader, body: { ids: [ids.red] } })).status).toBe(403);
  });

  it('deleting an entry takes its children; deleting a type takes its entries', async () => {
    await t.call('POST', '/admin/dict/info/delete', { token: admin, body: { ids: [ids.blue] } });
    let data = (await t.call('POST', '/admin/dict/info/data', { token: admin, body: { types: ['colour'] } })).body.data;
    expect(data.colour.map((e: any) => e.name)).toEqual(['Red']);
    expect(await t.ctx.db.selectFrom('dict_info').select('id').where('id', 'in', [ids.navy, ids.sky]).execute()).toEqual([]);

    await t.call('POST', '/admin/dict/type/delete', { token: admin, body: { ids: [colours] } });
    data = (await t.call('POST', '/admin/dict/info/data', { token: admin, body: {} })).body.data;
    expect(Object.keys(data)).toEqual(['wire']);
    expect(await t.ctx.db.selectFrom('dict_info').select('id').where('typeId', '=', colours).execute()).toEqual([]);
  });
});
