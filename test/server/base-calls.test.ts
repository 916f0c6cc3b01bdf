// The base calls that answered 404: preferences kept on the server (updateHabby), one-time
// sign-in codes (redirect), public parameters, users created by GET batchCreateUser, and files
// registered in a folder (space/info/add); each with the attacks next to the use.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';
import { uploadOne } from './space-helpers.ts';

let t: TestServer;
let admin: string;

beforeEach(async () => {
  t = await setup();
  admin = (await t.login()).token;
});
afterEach(() => t.close());

describe('updateHabby', () => {
  it('keeps the preferences on the server: a fresh sign-in (another browser) reads them with the person', async () => {
    await addUser(t, admin, { username: 'ann', password: 'secret-pass-1' });
    const first = (await t.login('ann', 'secret-pass-1')).token;
    const saved = await t.call('POST', '/admin/base/comm/updateHabby', { token: first, body: { theme: 'guolv', language: 'de', toothNumbering: 'universal', editor: { snap: true } } });
    expect(saved.body.code).toBe(1000);
    // Later changes merge with the stored ones, editor settings key by key.
    await t.call('POST', '/admin/base/comm/updateHabby', { token: first, body: { transition: false, editor: { gridMm: 2 } } });

    const second = (await t.login('ann', 'secret-pass-1')).token;
    const person = await t.call('GET', '/admin/base/comm/person', { token: second });
    expect(person.body.data.habby).toEqual({ theme: 'guolv', language: 'de', toothNumbering: 'universal', transition: false, editor: { snap: true, gridMm: 2 } });
    // Another user's preferences are their own.
    expect((await t.call('GET', '/admin/base/comm/person', { token: admin })).body.data.habby).toEqual({});
  });

  it('refuses unknown keys, bad values, too many editor settings, and callers without a session', async () => {
    for (const body of [{ language: 'fr' }, { theme: '<script>' }, { isSuper: true }, { editor: { 'a b': 1 } }, { editor: { x: 'y'.repeat(65) } }]) {
      expect((await t.call('POST', '/admin/base/comm/updateHabby', { token: admin, body })).body.code, JSON.stringify(body)).toBe(1002);
    }
    const many = (from: number) => Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${from + i}`, i]));
    expect((await t.call('POST', '/admin/base/comm/updateHabby', { token: admin, body: { editor: many(0) } })).body.code).toBe(1000);
    // Together with the 20 stored ones, 20 more pass the limit of 32.
    expect((await t.call('POST', '/admin/base/comm/updateHabby', { token: admin, body: { editor: many(100) } })).body.code).toBe(1002);
    expect((await t.call('POST', '/admin/base/comm/updateHabby', { body: { theme: 'default' } })).status).toBe(401);
  });
});

describe('redirect', () => {
  it('a one-time code signs the same user in elsewhere and names the path to open, once', async () => {
    const issued = await t.call('POST', '/admin/base/comm/redirect', { token: admin, body: { target: '/bend?orderId=7' } });
    expect(issued.body.code).toBe(1000);
    const { code, expire, url } = issued.body.data;
    expect(expire).toBe(60);
    expect(url).toBe(`/transfer?code=${encodeURIComponent(code)}`);

    const taken = await t.call('POST', '/admin/base/open/redirect', { body: { code } });
    expect(taken.body.code).toBe(1000);
    expect(taken.body.data.target).toBe('/bend?orderId=7');
    const person = await t.call('GET', '/admin/base/comm/person', { token: taken.body.data.token });
    expect(person.body.data.username).toBe('admin');

    const again = await t.call('POST', '/admin/base/open/redirect', { body: { code }, lang: 'en' });
    expect(again.body).toMatchObject({ code: 1001, message: 'This sign-in link is invalid, used or expired' });
  });

  it('refuses an expired or unknown code, a disabled user, outside targets, and issuing without a session', async () => {
    const { code } = (await t.call('POST', '/admin/base/comm/redirect', { token: admin, body: {} })).body.data;
    t.clock.advance(61_000);
    expect((await t.call('POST', '/admin/base/open/redirect', { body: { code } })).body.code).toBe(1001);
    expect((await t.call('POST', '/admin/base/open/redirect', { body: { code: 'x'.repeat(43) } })).body.code).toBe(1001);

    const id = await addUser(t, admin, { username: 'bob', password: 'secret-pass-1' });
    const bob = (await t.login('bob', 'secret-pass-1')).token;
    const bobs = (await t.call('POST', '/admin/base/comm/redirect', { token: bob, body: { target: '/' } })).body.data.code;
    await t.ctx.db.updateTable('base_sys_user').set({ status: 0 }).where('id', '=', id).execute();
    expect((await t.call('POST', '/admin/base/open/redirect', { body: { code: bobs } })).body.code).toBe(1001);

    // A password change voids the codes issued before it.
    await t.ctx.db.updateTable('base_sys_user').set({ status: 1 }).where('id', '=', id).execute();
    const bob2 = (await t.login('bob', 'secret-pass-1')).token;
    const before = (await t.call('POST', '/admin/base/comm/redirect', { token: bob2, body: {} })).body.data.code;
    expect((await t.call('POST', '/admin/base/comm/personUpdate', { token: bob2, body: { oldPassword: 'secret-pass-1', password: 'secret-pass-2' } })).body.code).toBe(1000);
    expect((await t.call('POST', '/admin/base/open/redirect', { body: { code: before } })).body.code).toBe(1001);

    for (const target of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      expect((await t.call('POST', '/admin/base/comm/redirect', { token: admin, body: { target } })).body.code, target).toBe(1002);
    }
    expect((await t.call('POST', '/admin/base/comm/redirect', { body: {} })).status).toBe(401);
  });

  it('refuses guesses from an address beyond the sign-in limit, also when they arrive together', async () => {
    const guesses = await Promise.all(Array.from({ length: 30 }, (_, i) => t.call('POST', '/admin/base/open/redirect', { body: { code: `guess-${i}`.padEnd(43, 'x') } })));
    const refused = guesses.filter((r) => r.status === 429).length;
    expect(guesses.filter((r) => r.status === 200).length).toBeLessThanOrEqual(20);
    expect(refused).toBeGreaterThanOrEqual(10);
    // Even a good code waits for the window's end.
    const { code } = (await t.call('POST', '/admin/base/comm/redirect', { token: admin, body: {} })).body.data;
    expect((await t.call('POST', '/admin/base/open/redirect', { body: { code } })).status).toBe(429);
    t.clock.advance(15 * 60_000 + 1);
    const fresh = (await t.call('POST', '/admin/base/comm/redirect', { token: (await t.login()).token, body: {} })).body.data.code;
    expect((await t.call('POST', '/admin/base/open/redirect', { body: { code: fresh } })).body.code).toBe(1000);
  });
});

describe('public params', () => {
  beforeEach(async () => {
    // epsFieldType is seeded (the AI coding helper's rules): set its value; add the other.
    const seeded = await t.ctx.db.selectFrom('base_sys_param').select('id').where('keyName', '=', 'epsFieldType').executeTakeFirstOrThrow();
    const set = await t.call('POST', '/admin/base/sys/param/update', { token: admin, body: { id: seeded.id, data: '{"number":"input-number"}' } });
    expect(set.body.code).toBe(1000);
    const res = await t.call('POST', '/admin/base/sys/param/add', { token: admin, body: { name: 'smtpPassword', keyName: 'smtpPassword', data: 'hunter2' } });
    expect(res.body.code).toBe(1000);
  });

  it('answers an allow-listed key without a token (app) and to any signed-in user (admin)', async () => {
    expect((await t.call('GET', '/app/base/comm/param?key=epsFieldType')).body).toMatchObject({ code: 1000, data: { number: 'input-number' } });
    await addUser(t, admin, { username: 'plain', password: 'secret-pass-1' });
    const plain = (await t.login('plain', 'secret-pass-1')).token;
    expect((await t.call('GET', '/admin/base/comm/param?key=epsFieldType', { token: plain })).body.data).toEqual({ number: 'input-number' });
  });

  it('refuses every other key alike, set or not, even to the superadmin', async () => {
    for (const key of ['smtpPassword', 'nothingHere']) {
      const res = await t.call('GET', `/app/base/comm/param?key=${key}`, { lang: 'en' });
      expect(res.body).toEqual({ code: 1001, message: 'This parameter is not public' });
      expect((await t.call('GET', `/admin/base/comm/param?key=${key}`, { token: admin })).body.code).toBe(1001);
    }
    expect((await t.call('GET', '/app/base/comm/param')).body.code).toBe(1002);
  });
});

describe('GET batchCreateUser', () => {
  it('creates the named users, each with a generated password answered once, skipping taken names', async () => {
    const res = await t.call('GET', '/admin/base/sys/user/batchCreateUser?usernames=cara,dan,admin,cara');
    expect(res.status).toBe(401);
    const made = await t.call('GET', '/admin/base/sys/user/batchCreateUser?usernames=cara,dan,admin,cara', { token: admin, lang: 'en' });
    expect(made.body.code).toBe(1000);
    expect(made.body.data.created.map((u: { username: string }) => u.username)).toEqual(['cara', 'dan']);
    expect(made.body.data.skipped).toEqual([
      { row: 3, reason: 'Username already exists' },
      { row: 4, reason: 'Username appears twice in this import' },
    ]);
    const cara = made.body.data.created[0];
    expect(cara.password).toMatch(/^[\w-]{16}$/);
    expect((await t.login('cara', cara.password)).token).toBeTruthy();
  });

  it('needs the import right and hands out no role beyond the caller', async () => {
    const importer = await createRole(t.ctx, 'importer', ['base:sys:user:batchCreateUser', 'base:sys:user:page']);
    const strong = await createRole(t.ctx, 'strong', ['base:sys:role:page']);
    await t.ctx.db.insertInto('base_sys_user_role').values({ userId: await addUser(t, admin, { username: 'imp', password: 'secret-pass-1' }), roleId: importer }).execute();
    await addUser(t, admin, { username: 'none', password: 'secret-pass-1' });
    const imp = (await t.login('imp', 'secret-pass-1')).token;
    const none = (await t.login('none', 'secret-pass-1')).token;
    expect((await t.call('GET', '/admin/base/sys/user/batchCreateUser?usernames=x1', { token: none })).status).toBe(403);
    const res = await t.call('GET', `/admin/base/sys/user/batchCreateUser?usernames=x2&roleIdList=${strong}`, { token: imp });
    expect(res.body.data.created).toEqual([]);
    expect(res.body.data.skipped).toHaveLength(1);
    expect((await t.call('GET', '/admin/base/sys/user/batchCreateUser?usernames=x3&roleIdList=1,abc', { token: admin })).body.code).toBe(1002);
  });
});

describe('space/info/add', () => {
  const file = { name: 'notes.txt', bytes: new TextEncoder().encode('hello'), type: 'text/plain' };

  it('files the caller own upload into the caller own folder, by id or by url, and renames it', async () => {
    const role = await createRole(t.ctx, 'files', ['space:info:add', 'space:info:page', 'space:type:add']);
    await t.ctx.db.insertInto('base_sys_user_role').values({ userId: await addUser(t, admin, { username: 'fay', password: 'secret-pass-1' }), roleId: role }).execute();
    const fay = (await t.login('fay', 'secret-pass-1')).token;
    const up = await uploadOne(t, fay, file);
    const folder = (await t.call('POST', '/admin/space/type/add', { token: fay, body: { name: 'Scans' } })).body.data.id;

    const res = await t.call('POST', '/admin/space/info/add', { token: fay, body: { fileId: up.id, classifyId: folder, name: 'scan notes.txt' } });
    expect(res.body).toMatchObject({ code: 1000, data: { id: up.id } });
    const row = await t.ctx.db.selectFrom('space_info').select(['classifyId', 'name']).where('id', '=', up.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ classifyId: folder, name: 'scan notes.txt' });
    expect((await t.call('POST', '/admin/space/info/add', { token: fay, body: { url: up.url, classifyId: null } })).body.code).toBe(1000);
    expect((await t.ctx.db.selectFrom('space_info').select('classifyId').where('id', '=', up.id).executeTakeFirstOrThrow()).classifyId).toBeNull();
  });

  it('refuses another user file or folder alike, and callers without the right', async () => {
    const role = await createRole(t.ctx, 'files', ['space:info:add', 'space:type:add']);
    for (const name of ['gus', 'hal']) {
      await t.ctx.db.insertInto('base_sys_user_role').values({ userId: await addUser(t, admin, { username: name, password: 'secret-pass-1' }), roleId: role }).execute();
    }
    const gus = (await t.login('gus', 'secret-pass-1')).token;
    const hal = (await t.login('hal', 'secret-pass-1')).token;
    const gusFile = await uploadOne(t, gus, file);
    const halFile = await uploadOne(t, hal, file);
    const gusFolder = (await t.call('POST', '/admin/space/type/add', { token: gus, body: { name: 'Mine' } })).body.data.id;

    expect((await t.call('POST', '/admin/space/info/add', { token: hal, body: { id: gusFile.id, classifyId: null } })).body).toMatchObject({ code: 1002 });
    expect((await t.call('POST', '/admin/space/info/add', { token: hal, body: { url: gusFile.url } })).body.code).toBe(1002);
    expect((await t.call('POST', '/admin/space/info/add', { token: hal, body: { id: halFile.id, classifyId: gusFolder } })).body.code).toBe(1002);
    expect((await t.call('POST', '/admin/space/info/add', { token: hal, body: { classifyId: gusFolder } })).body.code).toBe(1002);
    // A files admin may file anything anywhere.
    expect((await t.call('POST', '/admin/space/info/add', { token: admin, body: { id: halFile.id, classifyId: gusFolder } })).body.code).toBe(1000);

    await addUser(t, admin, { username: 'ida', password: 'secret-pass-1' });
    const ida = (await t.login('ida', 'secret-pass-1')).token;
    expect((await t.call('POST', '/admin/space/info/add', { token: ida, body: { id: halFile.id } })).status).toBe(403);
  });
});
