// The AI coding helper through the real server: modules described by form, by one sentence (the
// rules of epsFieldType, a fake language model on a local port), created live, used through the
// generic routes (by a second app on the same database too: no restart, no in-memory registry),
// and removed; with the attacks on names, sizes, rights and scopes next to them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_FIELDS } from '../../common/ai-code.ts';
import type { ModuleInput } from '../../common/ai-code-schema.ts';
import { parseSentence } from '../../common/ai-code-rules.ts';
import { createApp } from '../../server/app.ts';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';

let t: TestServer;
let admin: string;

beforeEach(async () => {
  t = await setup();
  admin = (await t.login()).token;
});
afterEach(() => t.close());

const book: ModuleInput = {
  name: 'book',
  tableName: 'mod_book',
  label: 'Book',
  labels: { zh: '图书', de: 'Buch' },
  fields: [
    { name: 'title', label: 'Title', type: 'string', required: true, search: true },
    { name: 'price', label: 'Price', type: 'number' },
    { name: 'pages', label: 'Pages', type: 'integer' },
    { name: 'status', label: 'Status', type: 'enum', options: ['active', 'inactive'], search: true },
    { name: 'published', label: 'Published', type: 'date' },
    { name: 'remark', label: 'Remark', type: 'text', list: false },
  ],
};

const post = (url: string, body: unknown, token = admin, lang = 'en') => t.call('POST', url, { token, body, lang });

async function create(def: ModuleInput, token = admin) {
  return post('/admin/helper/aiCode/create', { definition: def }, token);
}

async function userWith(username: string, perms: string[]): Promise<{ token: string; id: number }> {
  const role = await createRole(t.ctx, `${username}-role`, perms);
  const id = await addUser(t, admin, { username, password: 'secret-pass-1' });
  await t.ctx.db.insertInto('base_sys_user_role').values({ userId: id, roleId: role }).execute();
  return { token: (await t.login(username, 'secret-pass-1')).token, id };
}

describe('a module from the form', () => {
  it('is created live, used through its generic routes and removed again', async () => {
    const made = await create(book);
    expect(made.body).toMatchObject({ code: 1000, data: { router: '/gen/book', granted: true } });
    // Its page, group and permission entries are in the superadmin's menu at once.
    const menu = (await t.call('GET', '/admin/base/comm/permmenu', { token: admin })).body.data;
    const page = menu.menus.find((m: { router: string }) => m.router === '/gen/book');
    expect(page).toMatchObject({ type: 1, viewPath: 'modules/helper/views/generated', name: 'Book' });
    expect(menu.perms).toContain('gen:book:add');

    const meta = await t.call('GET', '/admin/gen/book/meta', { token: admin });
    expect(meta.body.data).toMatchObject({ name: 'book', fields: expect.any(Array) });

    const a = await post('/admin/gen/book/add', { title: 'Dune', price: '9.5', pages: 412, status: 'active', published: '1965-08-01' });
    expect(a.body).toMatchObject({ code: 1000, data: { id: expect.any(Number) } });
    const b = await post('/admin/gen/book/add', { title: 'Solaris', price: 7, status: 'inactive', remark: 'classic' });
    expect(b.body.code).toBe(1000);
    // Values are checked against the fields.
    expect((await post('/admin/gen/book/add', { price: 3 })).body).toMatchObject({ code: 1002, message: expect.stringContaining('title') });
    expect((await post('/admin/gen/book/add', { title: 'x', status: 'lost' })).body.code).toBe(1002);
    expect((await post('/admin/gen/book/add', { title: 'x', pages: 1.5 })).body.code).toBe(1002);
    expect((await post('/admin/gen/book/add', { title: 'x', published: '1965-13-45' })).body.code).toBe(1002);

    const all = await post('/admin/gen/book/page', { page: 1, size: 10 });
    expect(all.body.data.pagination.total).toBe(2);
    const found = await post('/admin/gen/book/page', { page: 1, size: 10, keyWord: 'dun' });
    expect(found.body.data.list.map((r: { title: string }) => r.title)).toEqual(['Dune']);
    const filtered = await post('/admin/gen/book/page', { page: 1, size: 10, status: 'inactive' });
    expect(filtered.body.data.list.map((r: { title: string }) => r.title)).toEqual(['Solaris']);
    const sorted = await post('/admin/gen/book/page', { page: 1, size: 10, order: 'price', sort: 'asc' });
    expect(sorted.body.data.list.map((r: { title: string }) => r.title)).toEqual(['Solaris', 'Dune']);
    expect((await post('/admin/gen/book/page', { order: 'price; drop table base_sys_user' })).body.code).toBe(1002);

    const id = a.body.data.id;
    expect((await post('/admin/gen/book/update', { id, price: 11 })).body.code).toBe(1000);
    expect((await post('/admin/gen/book/update', { id, title: '' })).body.code).toBe(1002);
    expect((await t.call('GET', `/admin/gen/book/info?id=${id}`, { token: admin })).body.data).toMatchObject({ title: 'Dune', price: 11 });
    expect((await post('/admin/gen/book/delete', { ids: [id] })).body.code).toBe(1000);
    expect((await post('/admin/gen/book/page', {})).body.data.pagination.total).toBe(1);

    const list = (await post('/admin/helper/aiCode/list', {})).body.data;
    expect(list).toHaveLength(1);
    expect((await post('/admin/helper/aiCode/remove', { id: list[0].id, confirm: 'nope' })).body.code).toBe(1001);
    expect((await post('/admin/helper/aiCode/remove', { id: list[0].id, confirm: 'book' })).body.code).toBe(1000);
    const tables = await t.ctx.db.introspection.getTables();
    expect(tables.some((x) => x.name === 'mod_book')).toBe(false);
    expect(tables.some((x) => x.name === 'base_sys_user')).toBe(true);
    const after = (await t.call('GET', '/admin/base/comm/permmenu', { token: admin })).body.data;
    expect(after.menus.some((m: { router: string }) => m.router === '/gen/book')).toBe(false);
    expect(after.perms.some((p: string) => p.startsWith('gen:book:'))).toBe(false);
    expect((await post('/admin/gen/book/page', {})).body.code).toBe(1001);
    // The name is free again.
    expect((await create(book)).body.code).toBe(1000);
  });

  it('is served by another server process on the same database, without a restart', async () => {
    const second = createApp(t.ctx);
    // The second app is built before the module exists: it knows it only from the database.
    expect((await create(book)).body.code).toBe(1000);
    const add = await second.request('/admin/gen/book/add', { method: 'POST', headers: { Authorization: admin, 'Content-Type': 'application/json' }, body: JSON.stringify({ title: 'Emma' }) });
    expect(((await add.json()) as { code: number }).code).toBe(1000);
    const rows = await t.ctx.db.selectFrom('mod_book' as never).selectAll().execute();
    expect(rows).toHaveLength(1);
  });

  it('writes the server and page source of a checked module, without running it', async () => {
    const res = await post('/admin/helper/aiCode/source', { definition: book });
    expect(res.body.data.files).toEqual({ server: 'book.module.ts', page: 'book.list.tsx' });
    expect(res.body.data.server).toContain('table: "mod_book"');
    expect(res.body.data.server).toContain('z.enum(["active","inactive"])');
    expect(res.body.data.server).toContain("import { createCrud } from '../../core/crud.ts';");
    expect(res.body.data.page).toContain('<CrudPage service="/admin/gen/book"');
    // Labels are data in the text, never code.
    const sneaky = await post('/admin/helper/aiCode/source', { definition: { ...book, label: '*/ alert(1) /*', fields: [{ name: 'title', label: '"); drop table x; //', type: 'string' }] } });
    expect(sneaky.body.data.server).toContain('comment: "\\"); drop table x; //"');
    const bad = await post('/admin/helper/aiCode/source', { definition: { ...book, fields: [{ name: 'id', label: 'x', type: 'string' }] } });
    expect(bad.body).toMatchObject({ code: 1002, message: expect.stringContaining('definition.fields.0.name') });
    expect(await t.ctx.db.introspection.getTables().then((ts) => ts.some((x) => x.name === 'mod_book'))).toBe(false);
  });
});

describe('a module from one sentence', () => {
  it('is described by the rules of epsFieldType, in English and Chinese', async () => {
    const en = await post('/admin/helper/aiCode/parse', { sentence: 'A book with title, author, price, publish date, status and remark' });
    expect(en.body.data.via).toBe('rules');
    const def = en.body.data.definition;
    expect(def).toMatchObject({ name: 'book', tableName: 'mod_book' });
    const types = Object.fromEntries(def.fields.map((f: { name: string; type: string }) => [f.name, f.type]));
    expect(types).toEqual({ title: 'string', author: 'string', price: 'number', publishDate: 'date', status: 'enum', remark: 'text' });

    const zh = await post('/admin/helper/aiCode/parse', { sentence: '员工，包含名称、工资、入职时间、状态和备注' });
    const zdef = zh.body.data.definition;
    expect(zdef.name).toBe('employee');
    expect(zdef.fields.map((f: { name: string; type: string; label: string }) => [f.name, f.type, f.label])).toEqual([
      ['name', 'string', '名称'],
      ['wages', 'number', '工资'],
      ['time', 'datetime', '入职时间'],
      ['status', 'enum', '状态'],
      ['remark', 'text', '备注'],
    ]);
    // It is created as it was described.
    expect((await create(zdef)).body.code).toBe(1000);
    expect((await post('/admin/gen/employee/add', { name: '张三', wages: 8000, time: '2026-01-01 09:00:00', status: '启用' })).body.code).toBe(1000);
  });

  it('follows the rules admins edit in the params page', async () => {
    const param = await t.ctx.db.selectFrom('base_sys_param').select(['id', 'data']).where('keyName', '=', 'epsFieldType').executeTakeFirstOrThrow();
    const rules = JSON.parse(param.data!);
    rules.rules.unshift({ words: ['isbn'], type: 'string', search: true });
    rules.rules.unshift({ words: ['price'], type: 'integer' });
    expect((await post('/admin/base/sys/param/update', { id: param.id, data: JSON.stringify(rules) })).body.code).toBe(1000);
    const res = await post('/admin/helper/aiCode/parse', { sentence: 'A book with isbn and price' });
    expect(res.body.data.definition.fields.map((f: { type: string }) => f.type)).toEqual(['string', 'integer']);
    // Rules that are not a rule list: the defaults, and a note.
    await post('/admin/base/sys/param/update', { id: param.id, data: '{"number":"input-number"}' });
    const fallback = await post('/admin/helper/aiCode/parse', { sentence: 'A book with isbn and price' });
    expect(fallback.body.data.definition.fields.map((f: { type: string }) => f.type)).toEqual(['string', 'number']);
    expect(fallback.body.data.fallback).toContain('epsFieldType');
  });

  it('caps the sentence and refuses one without fields', async () => {
    expect((await post('/admin/helper/aiCode/parse', { sentence: `A book with ${'title, '.repeat(100)}` })).body.code).toBe(1002);
    expect((await post('/admin/helper/aiCode/parse', { sentence: 'hello' })).body.code).toBe(1001);
    expect(() => parseSentence('x'.repeat(301))).toThrow();
  });

  describe('by a language model', () => {
    let server: http.Server;
    let answer: (body: { messages: { content: string }[] }) => { status: number; body: unknown };
    let seen: { authorization?: string; body: any }[];

    beforeEach(async () => {
      seen = [];
      server = http.createServer((req, res) => {
        let text = '';
        req.on('data', (c) => (text += c));
        req.on('end', () => {
          const body = JSON.parse(text);
          seen.push({ authorization: req.headers.authorization, body });
          const reply = answer(body);
          res.writeHead(reply.status, { 'Content-Type': 'application/json' });
          res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      const entry = await post('/admin/device/apiConfig/add', { name: 'Fake model', url: `http://127.0.0.1:${port}/v1/chat/completions`, key: 'sk-test-key', kind: 'llm', remark: 'fake-model' });
      expect(entry.body.code).toBe(1000);
    });
    afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const chat = (content: string) => ({ status: 200, body: { choices: [{ message: { role: 'assistant', content } }] } });

    it('describes the module when its answer is a valid module', async () => {
      answer = () => chat('```json\n' + JSON.stringify({ ...book, name: 'novel', tableName: 'mod_novel' }) + '\n```');
      const res = await post('/admin/helper/aiCode/parse', { sentence: 'A novel with a title and a price' });
      expect(res.body.data).toMatchObject({ via: 'llm', definition: { name: 'novel', fields: expect.any(Array) } });
      expect(seen[0]).toMatchObject({ authorization: 'Bearer sk-test-key', body: { model: 'fake-model' } });
      expect(seen[0]!.body.messages[1].content).toBe('A novel with a title and a price');
      // useModel false: the rules only.
      expect((await post('/admin/helper/aiCode/parse', { sentence: 'A novel with a title', useModel: false })).body.data.via).toBe('rules');
      expect(seen).toHaveLength(1);
    });

    it('falls back to the rules with a message when the answer is unusable', async () => {
      for (const reply of [
        chat(JSON.stringify({ ...book, tableName: 'base_sys_user' })),
        chat(JSON.stringify({ ...book, fields: [{ name: 'id', label: 'x', type: 'string' }] })),
        chat('I cannot do that'),
        chat('x'.repeat(300 * 1024)),
        { status: 500, body: 'boom' },
      ]) {
        answer = () => reply;
        const res = await post('/admin/helper/aiCode/parse', { sentence: 'A book with title and price' });
        expect(res.body.data).toMatchObject({ via: 'rules', definition: { name: 'book' }, fallback: expect.stringContaining('language model') });
      }
      expect(t.logger.lines.join('\n')).not.toContain('sk-test-key');
    });
  });
});

describe('attacks', () => {
  it('refuses table and field names that are not the helper’s own', async () => {
    const bad: ModuleInput[] = [
      { ...book, tableName: 'base_sys_user' },
      { ...book, tableName: 'mod_x; drop table base_sys_user' },
      { ...book, tableName: 'x; drop table' },
      { ...book, name: 'base', tableName: 'mod_base' },
      { ...book, name: 'Book"; --' },
      { ...book, fields: [{ name: 'select', label: 'x', type: 'string' }] },
      { ...book, fields: [{ name: 'id', label: 'x', type: 'string' }] },
      { ...book, fields: [{ name: 'keyWord', label: 'x', type: 'string' }] },
      { ...book, fields: [{ name: 'a"b', label: 'x', type: 'string' }] },
      { ...book, fields: [{ name: 'title', label: 'x', type: 'string' }, { name: 'Title', label: 'y', type: 'string' }] },
      { ...book, fields: Array.from({ length: 1000 }, (_, i) => ({ name: `f${i}`, label: `F${i}`, type: 'string' as const })) },
      { ...book, fields: Array.from({ length: MAX_FIELDS + 1 }, (_, i) => ({ name: `f${i}`, label: `F${i}`, type: 'string' as const })) },
      { ...book, fields: [{ name: 'kind', label: 'x', type: 'enum' }] },
      { ...book, name: 'a'.repeat(31) },
    ];
    for (const def of bad) expect((await create(def)).body.code, JSON.stringify(def).slice(0, 80)).toBe(1002);
    expect((await t.ctx.db.selectFrom('helper_module').selectAll().execute()).length).toBe(0);
    expect((await t.ctx.db.introspection.getTables()).some((x) => x.name.startsWith('mod_'))).toBe(false);
  });

  it('never takes an existing table or name', async () => {
    await t.ctx.db.schema.createTable('mod_kept').addColumn('id', 'integer').execute();
    expect((await create({ ...book, name: 'kept', tableName: 'mod_kept' })).body).toMatchObject({ code: 1001, message: 'The table mod_kept already exists' });
    expect((await create(book)).body.code).toBe(1000);
    expect((await create({ ...book, tableName: 'mod_book2' })).body.code).toBe(1001);
    expect((await create({ ...book, name: 'book2' })).body.code).toBe(1001);
  });

  it('lets only holders of the helper’s right create and remove modules', async () => {
    const plain = await userWith('plain', ['helper:aiCode:list']);
    expect((await create(book, plain.token)).status).toBe(403);
    expect((await create(book)).body.code).toBe(1000);
    const id = (await post('/admin/helper/aiCode/list', {}, plain.token)).body.data[0].id;
    expect((await post('/admin/helper/aiCode/remove', { id, confirm: 'book' }, plain.token)).status).toBe(403);
  });

  it('grants the new rights to the creator’s roles only when the creator may grant rights', async () => {
    const builder = await userWith('builder', ['helper:aiCode:create']);
    expect((await create(book, builder.token)).body.data.granted).toBe(false);
    // Without the module's rights its routes are refused, also to the one who made it.
    expect((await post('/admin/gen/book/page', {}, builder.token)).status).toBe(403);
    expect((await post('/admin/gen/book/add', { title: 'x' }, builder.token)).status).toBe(403);

    const granter = await userWith('granter', ['helper:aiCode:create', 'base:sys:role:update']);
    expect((await create({ ...book, name: 'film', tableName: 'mod_film' }, granter.token)).body.data.granted).toBe(true);
    expect((await post('/admin/gen/film/add', { title: 'Alien' }, granter.token)).body.code).toBe(1000);
    expect((await post('/admin/gen/book/page', {}, granter.token)).status).toBe(403);
  });

  it('keeps each department to its rows, and removing a module leaves the others’ data alone', async () => {
    expect((await create(book)).body.code).toBe(1000);
    const dept = await t.ctx.db.insertInto('base_sys_department').values({ name: 'Lab B', parentId: null, orderNum: 9, createTime: '2026-01-01 00:00:00', updateTime: '2026-01-01 00:00:00' } as never).returning('id').executeTakeFirstOrThrow();
    // A role that uses the module (granted its entries, as the role page would).
    const role = await createRole(t.ctx, 'reader', []);
    const menus = await t.ctx.db.selectFrom('base_sys_menu').select('id').where((eb) => eb.or([eb('perms', 'like', 'gen:book:%'), eb('router', '=', '/gen/book')])).execute();
    for (const m of menus) await t.ctx.db.insertInto('base_sys_role_menu').values({ roleId: role, menuId: m.id }).execute();
    const uid = await addUser(t, admin, { username: 'reader', password: 'secret-pass-1', roleIdList: [role] } as never);
    await t.ctx.db.updateTable('base_sys_user').set({ departmentId: dept.id }).where('id', '=', uid).execute();
    const reader = (await t.login('reader', 'secret-pass-1')).token;

    expect((await post('/admin/gen/book/add', { title: 'Admin book' })).body.code).toBe(1000);
    expect((await post('/admin/gen/book/add', { title: 'Reader book' }, reader)).body.code).toBe(1000);
    const seen = (await post('/admin/gen/book/page', {}, reader)).body.data.list.map((r: { title: string }) => r.title);
    expect(seen).toEqual(['Reader book']);
    expect((await post('/admin/gen/book/page', {})).body.data.pagination.total).toBe(2);

    const usersBefore = (await t.ctx.db.selectFrom('base_sys_user').selectAll().execute()).length;
    const id = (await post('/admin/helper/aiCode/list', {})).body.data[0].id;
    expect((await post('/admin/helper/aiCode/remove', { id, confirm: 'book' })).body.code).toBe(1000);
    const menu = (await t.call('GET', '/admin/base/comm/permmenu', { token: reader })).body.data;
    expect(menu.menus.some((m: { router: string }) => m.router === '/gen/book')).toBe(false);
    expect(menu.perms).toEqual([]);
    expect((await post('/admin/gen/book/page', {}, reader)).status).toBe(403);
    expect((await t.ctx.db.selectFrom('base_sys_user').selectAll().execute()).length).toBe(usersBefore);
    expect(await t.ctx.db.selectFrom('base_sys_role').select('id').where('id', '=', role).executeTakeFirst()).toBeTruthy();
  });
});
