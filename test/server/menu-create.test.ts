// Menu create (a page with its rights from a resource's eps description) and parse (a checked
// import of a menu file), by a superadmin and by a menu manager who may grant only what they hold.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';

let t: TestServer;
let admin: string;

beforeEach(async () => {
  t = await setup();
  admin = (await t.login()).token;
});
afterEach(() => t.close());

async function groupId(name: string): Promise<number> {
  return (await t.ctx.db.selectFrom('base_sys_menu').select('id').where('type', '=', 0).where('name', '=', name).executeTakeFirstOrThrow()).id;
}

/** A user holding the given seeded rights. */
async function userWith(username: string, perms: string[]): Promise<string> {
  const role = await createRole(t.ctx, `${username}-role`, perms);
  const id = await addUser(t, admin, { username, password: 'secret-pass-1' });
  await t.ctx.db.insertInto('base_sys_user_role').values({ userId: id, roleId: role }).execute();
  return (await t.login(username, 'secret-pass-1')).token;
}

async function parseFile(token: string, content: string, lang = 'en') {
  const form = new FormData();
  form.append('file', new File([content], 'menus.json', { type: 'application/json' }));
  const res = await t.app.request('/admin/base/sys/menu/parse', { method: 'POST', headers: { Authorization: token, 'Accept-Language': lang }, body: form });
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data?: any } };
}

const page = (router: string, perms: string[], extra: object = {}) => ({
  name: `Page ${router}`,
  type: 1,
  router,
  viewPath: 'modules/x/views/y',
  ...extra,
  children: perms.map((p) => ({ name: p, type: 2, perms: p })),
});

describe('menu create', () => {
  it('makes a page with Add, Delete, Update, Query and one entry per other call of the resource', async () => {
    const parentId = await groupId('System management');
    const res = await t.call('POST', '/admin/base/sys/menu/create', { token: admin, body: { prefix: '/admin/base/sys/param', name: 'Params again', router: '/sys/param2', parentId } });
    expect(res.body.code).toBe(1000);
    expect(res.body.data.entries.map((e: { name: string; perms: string }) => [e.name, e.perms])).toEqual([
      ['Add', 'base:sys:param:add'],
      ['Delete', 'base:sys:param:delete'],
      ['Update', 'base:sys:param:update'],
      ['Query', 'base:sys:param:info,base:sys:param:list,base:sys:param:page'],
      ['html', 'base:sys:param:html'],
    ]);
    const menus = (await t.call('GET', '/admin/base/comm/permmenu', { token: admin })).body.data.menus;
    expect(menus.find((m: { router: string }) => m.router === '/sys/param2')).toMatchObject({ type: 1, parentId });
  });

  it('refuses an unknown or unguarded resource, a taken route, a bad parent', async () => {
    const create = (body: object) => t.call('POST', '/admin/base/sys/menu/create', { token: admin, body: { name: 'X', router: '/x/new', ...body }, lang: 'en' });
    expect((await create({ prefix: '/admin/nothing/here' })).body).toEqual({ code: 1001, message: 'No resource with permissions is described at /admin/nothing/here' });
    expect((await create({ prefix: '/admin/base/comm' })).body.code).toBe(1001);
    expect((await create({ prefix: '/admin/base/sys/param', router: '/sys/param' })).body).toEqual({ code: 1001, message: 'A page with route /sys/param already exists' });
    expect((await create({ prefix: '/admin/base/sys/param', parentId: 999_999 })).body.code).toBe(1002);
    expect((await create({ prefix: 'https://evil/x' })).body.code).toBe(1002);
  });

  it('a menu manager may not create pages whose rights they lack, nor any without the right to write permissions', async () => {
    const manager = await userWith('mm', ['base:sys:menu:create', 'base:sys:menu:perms', 'base:sys:param:add']);
    const res = await t.call('POST', '/admin/base/sys/menu/create', { token: manager, body: { prefix: '/admin/base/sys/param', name: 'P', router: '/p' }, lang: 'en' });
    expect(res.body).toEqual({ code: 1001, message: 'You can only grant menus and permissions you hold yourself' });
    const noPerms = await userWith('np', ['base:sys:menu:create']);
    expect((await t.call('POST', '/admin/base/sys/menu/create', { token: noPerms, body: { prefix: '/admin/base/sys/param', name: 'P', router: '/p' } })).status).toBe(403);
    const nobody = await userWith('nb', ['base:sys:log:page']);
    expect((await t.call('POST', '/admin/base/sys/menu/create', { token: nobody, body: { prefix: '/admin/base/sys/param', name: 'P', router: '/p' } })).status).toBe(403);
    expect(await t.ctx.db.selectFrom('base_sys_menu').select('id').where('router', '=', '/p').executeTakeFirst()).toBeUndefined();
  });
});

describe('menu parse', () => {
  it('imports a good file (an export) and merges it', async () => {
    const file = JSON.stringify({ menus: [{ name: 'Lab tools', type: 0, children: [page('/lab/params', ['base:sys:param:page', 'base:sys:param:html'])] }] });
    const res = await parseFile(admin, file);
    expect(res.body).toMatchObject({ code: 1000, data: { created: 4, matched: 0, skipped: [] } });
    // The same file again: everything matches.
    expect((await parseFile(admin, file)).body.data).toMatchObject({ created: 0, matched: 4 });
    // An export of this installation parses as well.
    const exported = (await t.call('POST', '/admin/base/sys/menu/export', { token: admin, body: {} })).body.data;
    expect((await t.call('POST', '/admin/base/sys/menu/parse', { token: admin, body: { menus: exported } })).body.code).toBe(1000);
  });

  it('refuses the whole file when one entry is too deep, unknown, malformed, or when it is too large', async () => {
    let deep: object = { name: 'leaf', type: 0 };
    for (let i = 0; i < 5; i++) deep = { name: `level ${5 - i}`, type: 0, children: [deep] };
    const tooDeep = await parseFile(admin, JSON.stringify([deep]));
    expect(tooDeep.body).toEqual({ code: 1001, message: 'Menu file, level 1 / level 2 / level 3 / level 4 / level 5 / leaf: nested deeper than 5 levels' });

    const unknown = await parseFile(admin, JSON.stringify([{ name: 'G', type: 0, children: [page('/g/x', ['base:sys:param:page', 'base:sys:everything:grant'])] }]));
    expect(unknown.body).toEqual({ code: 1001, message: 'Menu file, G / Page /g/x / base:sys:everything:grant: unknown permission base:sys:everything:grant' });
    expect((await parseFile(admin, JSON.stringify([{ name: 'P', type: 2, perms: 'base:sys:param:page', children: [{ name: 'c', type: 0 }] }]))).body.code).toBe(1001);
    expect((await parseFile(admin, JSON.stringify([{ name: 'no type' }]))).body.code).toBe(1001);
    expect((await parseFile(admin, 'not json')).body.code).toBe(1001);
    expect((await parseFile(admin, JSON.stringify({ menus: [{ name: 'x'.repeat(600 * 1024), type: 0 }] }))).body.code).toBe(1001);
    const many = Array.from({ length: 2001 }, (_, i) => ({ name: `g${i}`, type: 0 }));
    expect((await t.call('POST', '/admin/base/sys/menu/parse', { token: admin, body: many, lang: 'en' })).body.message).toContain('more than 2000 entries');
    // Nothing of the refused files was written.
    expect(await t.ctx.db.selectFrom('base_sys_menu').select('id').where('name', 'in', ['G', 'level 1', 'P']).execute()).toEqual([]);
  });

  it('a menu manager cannot import rights they lack; without the right to write permissions it is 403', async () => {
    const manager = await userWith('mm', ['base:sys:menu:parse', 'base:sys:menu:perms', 'base:sys:param:page']);
    const own = await parseFile(manager, JSON.stringify([page('/mine', ['base:sys:param:page'])]));
    expect(own.body.code).toBe(1000);
    const beyond = await parseFile(manager, JSON.stringify([page('/theirs', ['base:sys:user:delete'])]));
    expect(beyond.body).toEqual({ code: 1001, message: 'Menu file, Page /theirs / base:sys:user:delete: You can only grant menus and permissions you hold yourself' });
    const limited = await userWith('lim', ['base:sys:menu:parse']);
    expect((await parseFile(limited, JSON.stringify([page('/x1', ['base:sys:param:page'])]))).status).toBe(403);
    // Groups and pages without rights are no grant.
    expect((await parseFile(limited, JSON.stringify([{ name: 'Just a group', type: 0 }]))).body.code).toBe(1000);
  });
});
