// Deleted params, releases (with who read them), help articles and dictionary types (with their
// entry trees) go to the recycle bin and come back whole.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setup, type TestServer } from './helpers.ts';
import { insertUser } from './ops-helpers.ts';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await setup();
  admin = (await t.login()).token;
});
afterAll(() => t.close());

const post = async (url: string, body: unknown, token = admin) => (await t.call('POST', url, { token, lang: 'en', body })).body;

async function restore(prefix: string, rowId: number) {
  const page = await post('/admin/recycle/data/page', { prefix });
  const entry = page.data.list.find((e: any) => e.rowId === rowId);
  expect(entry, `${prefix} ${rowId} in the recycle bin`).toBeTruthy();
  expect((await post('/admin/recycle/data/restore', { ids: [entry.id] })).code).toBe(1000);
}

it('restores a dictionary type with its entry tree', async () => {
  const typeId = (await post('/admin/dict/type/add', { name: 'Colours', key: 'colour' })).data.id;
  const blue = (await post('/admin/dict/info/add', { typeId, name: 'Blue', orderNum: 1 })).data.id;
  await post('/admin/dict/info/add', { typeId, name: 'Navy', parentId: blue });
  await post('/admin/dict/info/add', { typeId, name: 'Red', orderNum: 2 });
  const before = (await post('/admin/dict/info/data', { types: ['colour'] })).data;

  expect((await post('/admin/dict/type/delete', { ids: [typeId] })).code).toBe(1000);
  expect((await post('/admin/dict/info/data', { types: ['colour'] })).data).toEqual({ colour: [] });
  await restore('/admin/dict/type', typeId);
  expect((await post('/admin/dict/info/data', { types: ['colour'] })).data).toEqual(before);
});

it('restores a param, an article, and a release with its read marks', async () => {
  const paramId = (await post('/admin/base/sys/param/add', { name: 'Phone', keyName: 'phone', data: '123' })).data.id;
  const articleId = (await post('/admin/base/sys/article/add', { title: 'Guide', content: '# Hi', status: 1 })).data.id;
  const releaseId = (await post('/admin/base/sys/release/add', { version: '1.0.0', title: 'First', releaseTime: '2025-12-01' })).data.id;
  const reader = await insertUser(t, 'reader', 'reader-pass');
  await t.call('GET', '/admin/base/sys/release/toReaded', { token: reader });

  await post('/admin/base/sys/param/delete', { ids: [paramId] });
  await post('/admin/base/sys/article/delete', { ids: [articleId] });
  await post('/admin/base/sys/release/delete', { ids: [releaseId] });
  expect((await t.call('GET', '/admin/base/open/release', { token: reader })).body.data).toBeNull();

  await restore('/admin/base/sys/param', paramId);
  await restore('/admin/base/sys/article', articleId);
  await restore('/admin/base/sys/release', releaseId);
  expect((await t.call('GET', `/admin/base/sys/param/info?id=${paramId}`, { token: admin })).body.data).toMatchObject({ keyName: 'phone', data: '123' });
  expect((await t.call('GET', `/admin/base/sys/article/doc?id=${articleId}`, { token: reader })).body.data).toMatchObject({ title: 'Guide' });
  expect((await t.call('GET', '/admin/base/open/release', { token: reader })).body.data).toMatchObject({ version: '1.0.0', readed: true });
});
