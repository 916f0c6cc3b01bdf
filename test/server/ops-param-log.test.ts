// Params (CRUD, unique key, the html page) and the request log's keep days, clear and purge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeRequestLog } from '../../server/modules/base/sys-log.ts';
import { createRole, type TestServer } from './helpers.ts';
import { insertUser, opsServer } from './ops-helpers.ts';

let t: TestServer;
let admin: string;
let plain: string;
beforeAll(async () => ({ t, admin, plain } = await opsServer()));
afterAll(() => t.close());

async function html(key: string, token = admin, lang = 'en') {
  const res = await t.app.request(`/admin/base/sys/param/html?key=${encodeURIComponent(key)}`, {
    headers: { Authorization: token, 'Accept-Language': lang },
  });
  return { status: res.status, type: res.headers.get('content-type'), csp: res.headers.get('content-security-policy'), text: await res.text() };
}

describe('params', () => {
  it('adds, finds, updates and deletes a param; keys are unique', async () => {
    const add = await t.call('POST', '/admin/base/sys/param/add', {
      token: admin,
      body: { name: 'Support phone', keyName: 'supportPhone', data: '+49 30 123', dataType: 0, remark: 'shown in help' },
    });
    expect(add.body.code).toBe(1000);
    const id = add.body.data.id;
    const again = await t.call('POST', '/admin/base/sys/param/add', { token: admin, lang: 'en', body: { name: 'x', keyName: 'supportPhone' } });
    expect(again.body).toEqual({ code: 1001, message: 'A param with this key already exists' });

    const page = await t.call('POST', '/admin/base/sys/param/page', { token: admin, body: { keyWord: 'phone' } });
    expect(page.body.data.list.map((p: any) => p.keyName)).toEqual(['supportPhone']);
    expect((await t.call('POST', '/admin/base/sys/param/update', { token: admin, body: { id, data: '+49 30 999' } })).body.code).toBe(1000);
    expect((await t.call('GET', `/admin/base/sys/param/info?id=${id}`, { token: admin })).body.data).toMatchObject({
      name: 'Support phone',
      data: '+49 30 999',
      dataType: 0,
    });
    // Renaming onto another param's key is refused too.
    const other = await t.call('POST', '/admin/base/sys/param/add', { token: admin, body: { name: 'Other', keyName: 'other' } });
    const clash = await t.call('POST', '/admin/base/sys/param/update', { token: admin, lang: 'en', body: { id: other.body.data.id, keyName: 'supportPhone' } });
    expect(clash.body.code).toBe(1001);
    expect((await t.call('POST', '/admin/base/sys/param/delete', { token: admin, body: { ids: [other.body.data.id] } })).body.code).toBe(1000);
    expect((await t.call('GET', `/admin/base/sys/param/info?id=${other.body.data.id}`, { token: admin })).body.code).toBe(1001);
  });

  it('rejects bad input with the field named', async () => {
    const noKey = await t.call('POST', '/admin/base/sys/param/add', { token: admin, lang: 'en', body: { name: 'x' } });
    expect(noKey.body).toEqual({ code: 1002, message: 'keyName cannot be empty' });
    const badType = await t.call('POST', '/admin/base/sys/param/add', { token: admin, lang: 'en', body: { name: 'x', keyName: 'k', dataType: 7 } });
    expect(badType.body).toEqual({ code: 1002, message: 'dataType is invalid' });
    const spaces = await t.call('POST', '/admin/base/sys/param/add', { token: admin, lang: 'en', body: { name: 'x', keyName: 'has space' } });
    expect(spaces.body.code).toBe(1002);
  });

  it('serves text escaped and rich text as given, both under a sandboxing CSP', async () => {
    await t.call('POST', '/admin/base/sys/param/add', {
      token: admin,
      body: { name: 'Plain <b>', keyName: 'plainHtml', data: 'a < b & <script>alert(1)</script>', dataType: 0 },
    });
    await t.call('POST', '/admin/base/sys/param/add', {
      token: admin,
      body: { name: 'Terms', keyName: 'terms', data: '<h1>Terms</h1><p>Be <em>nice</em>.</p>', dataType: 1 },
    });
    const plainPage = await html('plainHtml');
    expect(plainPage.status).toBe(200);
    expect(plainPage.type).toMatch(/^text\/html/);
    expect(plainPage.text).toContain('a &#60; b &#38; &#60;script&#62;alert(1)&#60;/script&#62;');
    expect(plainPage.text).not.toContain('<script>');
    expect(plainPage.text).toContain('<title>Plain &#60;b&#62;</title>');
    expect(plainPage.csp).toContain('sandbox');
    expect(plainPage.csp).toContain("default-src 'none'");

    const rich = await html('terms');
    expect(rich.text).toContain('<h1>Terms</h1><p>Be <em>nice</em>.</p>');
    expect(rich.csp).toContain('sandbox');

    const missing = await html('nope');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('No param with the key');
  });

  it('needs the permission for every call, html included', async () => {
    expect((await t.call('POST', '/admin/base/sys/param/page', { token: plain, body: {} })).status).toBe(403);
    expect((await t.call('POST', '/admin/base/sys/param/add', { token: plain, body: { name: 'x', keyName: 'y' } })).status).toBe(403);
    expect((await html('terms', plain)).status).toBe(403);
    expect((await html('terms', '')).status).toBe(401);
  });
});

describe('request log keep days, clear and purge', () => {
  it('keeps 30 days by default; setKeep changes it within 1..3650', async () => {
    expect((await t.call('GET', '/admin/base/sys/log/getKeep', { token: admin })).body.data).toBe(30);
    expect((await t.call('POST', '/admin/base/sys/log/setKeep', { token: admin, body: { value: 7 } })).body.code).toBe(1000);
    expect((await t.call('GET', '/admin/base/sys/log/getKeep', { token: admin })).body.data).toBe(7);
    for (const value of [0, -1, 3651, 'x', 1.5]) {
      const bad = await t.call('POST', '/admin/base/sys/log/setKeep', { token: admin, lang: 'en', body: { value } });
      expect(bad.body).toEqual({ code: 1002, message: 'value is invalid' });
    }
    const missing = await t.call('POST', '/admin/base/sys/log/setKeep', { token: admin, lang: 'en', body: {} });
    expect(missing.body).toEqual({ code: 1002, message: 'value cannot be empty' });
    expect((await t.call('GET', '/admin/base/sys/log/getKeep', { token: admin })).body.data).toBe(7);
  });

  it('purges entries older than the keep days and keeps the rest', async () => {
    await t.call('POST', '/admin/base/sys/log/setKeep', { token: admin, body: { value: 7 } });
    const count = async () => Number((await t.ctx.db.selectFrom('base_sys_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    expect(before).toBeGreaterThan(0);
    t.clock.advance(8 * 24 * 3600 * 1000);
    admin = (await t.login()).token;
    plain = (await t.login('plain', 'plain-pass')).token;
    // New entries (the two logins, one page call), written at the later time, stay.
    await t.call('POST', '/admin/base/sys/log/page', { token: admin, body: {} });
    expect(await purgeRequestLog(t.ctx)).toBe(before);
    expect(await count()).toBe(3);
  });

  it('clear deletes every entry (only the clear call itself is logged after)', async () => {
    await t.call('POST', '/admin/base/sys/log/page', { token: admin, body: {} });
    expect((await t.call('POST', '/admin/base/sys/log/clear', { token: admin })).body.code).toBe(1000);
    const page = await t.call('POST', '/admin/base/sys/log/page', { token: admin, body: {} });
    expect(page.body.data.list.map((r: any) => r.action)).toEqual(['/admin/base/sys/log/clear']);
  });

  it('keep days and clear need their permissions', async () => {
    expect((await t.call('POST', '/admin/base/sys/log/clear', { token: plain })).status).toBe(403);
    expect((await t.call('POST', '/admin/base/sys/log/setKeep', { token: plain, body: { value: 3 } })).status).toBe(403);
    expect((await t.call('GET', '/admin/base/sys/log/getKeep', { token: plain })).status).toBe(403);
    const roleId = await createRole(t.ctx, 'log-keeper', ['base:sys:log:getKeep']);
    const keeper = await insertUser(t, 'keeper', 'keeper-pass', [roleId]);
    expect((await t.call('GET', '/admin/base/sys/log/getKeep', { token: keeper })).body.data).toBe(7);
    expect((await t.call('POST', '/admin/base/sys/log/clear', { token: keeper })).status).toBe(403);
  });
});
