import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickLang, t as translate } from '../../server/core/i18n.ts';
import { ADMIN_PASSWORD, setup, type TestServer } from './helpers.ts';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await setup();
  admin = (await t.login()).token;
});
afterAll(() => t.close());

describe('eps and version', () => {
  it('lists the modules with prefixes, api and columns', async () => {
    const res = await t.call('GET', '/admin/base/open/eps');
    expect(res.body.code).toBe(1000);
    const eps = res.body.data as Record<string, any[]>;
    expect(Object.keys(eps)).toContain('base');
    const prefixes = eps.base!.map((e) => e.prefix);
    expect(prefixes).toEqual(expect.arrayContaining(['/admin/base/open', '/admin/base/comm', '/admin/base/sys/user', '/admin/base/sys/log']));
    const user = eps.base!.find((e) => e.prefix === '/admin/base/sys/user');
    expect(user.api.map((a: any) => `${a.method} ${a.path}`)).toEqual([
      'post /add', 'post /delete', 'post /update', 'get /info', 'post /list', 'post /page',
      'post /move', 'post /batchCreateUser', 'get /batchCreateUser', 'post /export', 'post /import', 'get /template',
    ]);
    expect(user.api[0]).toEqual({ method: 'post', path: '/add', summary: 'Add' });
    expect(user.columns.map((c: any) => c.propertyName)).toContain('username');
    expect(user.columns.map((c: any) => c.propertyName)).not.toContain('password');
    expect(user.columns[0]).toEqual({ propertyName: 'id', type: 'number', comment: 'ID', nullable: false });
  });

  it('answers version.json', async () => {
    const res = await t.app.request('/version.json?t=123');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ gn: '1.0.0' });
  });
});

describe('localised messages', () => {
  const wrong = (lang?: string) => t.call('POST', '/admin/base/open/login', { lang, body: { username: 'nobody', password: 'x' } });

  it('follow Accept-Language, zh by default', async () => {
    expect((await wrong('en-US,en;q=0.9')).body.message).toBe('Account or Password incorrect');
    expect((await wrong('de-DE')).body.message).toBe('Konto oder Passwort falsch');
    expect((await wrong('zh-CN')).body.message).toBe('账户或密码不正确');
    expect((await wrong()).body.message).toBe('账户或密码不正确');
    expect((await wrong('fr-FR,de;q=0.8,en;q=0.5')).body.message).toBe('Konto oder Passwort falsch');
  });

  it('localise 401, 403 and validation messages', async () => {
    expect((await t.call('GET', '/admin/base/comm/person', { lang: 'de' })).body.message).toBe(
      'Der Anmeldestatus ist abgelaufen, bitte melden Sie sich erneut an',
    );
    expect((await t.call('GET', '/admin/base/comm/person', { lang: 'zh' })).body.message).toBe('登录状态已失效，请重新登录');
    const missing = await t.call('POST', '/admin/base/open/login', { lang: 'de', body: { password: 'x' } });
    expect(missing.body).toEqual({ code: 1002, message: 'username darf nicht leer sein' });
    const invalid = await t.call('POST', '/admin/base/sys/user/add', { token: admin, lang: 'zh', body: { username: 'u1', password: 'abcdef', status: 7 } });
    expect(invalid.body).toEqual({ code: 1002, message: 'status 不合法' });
  });

  it('picks the language by q, then order', () => {
    expect(pickLang('en;q=0.5, de;q=0.9')).toBe('de');
    expect(pickLang('fr, it')).toBe('zh');
    expect(pickLang('EN')).toBe('en');
    expect(translate('en', 'fieldInvalid', { field: 'order' })).toBe('order is invalid');
  });
});

describe('errors', () => {
  it('answers unknown API routes with a 404 envelope', async () => {
    const res = await t.call('GET', '/admin/base/open/nothing', { lang: 'en' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 1001, message: 'Not found' });
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await t.call('POST', '/admin/base/open/login', { lang: 'en', body: { username: 'a', password: 'x'.repeat(3 * 1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 1001, message: 'Request body too large' });
  });

  it('hides internal errors behind 1003, without stack or SQL', async () => {
    const broken = await setup();
    try {
      await broken.ctx.db.schema.dropTable('base_captcha').execute();
      const res = await broken.call('GET', '/admin/base/open/captcha', { lang: 'en' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ code: 1003, message: 'Internal server error' });
      expect(broken.logger.lines.join('\n')).toMatch(/Unhandled error on GET \/admin\/base\/open\/captcha/);
    } finally {
      await broken.close();
    }
  });
});

describe('users resource', () => {
  it('adds, pages and reads users without ever returning the password', async () => {
    const add = await t.call('POST', '/admin/base/sys/user/add', {
      token: admin,
      body: { username: 'designer1', password: 'designer-pass', name: 'Dora', nickName: 'D', roleIdList: [1], status: 1 },
    });
    expect(add.body.code).toBe(1000);
    const id = add.body.data.id;
    expect(id).toBeTypeOf('number');

    const info = await t.call('GET', `/admin/base/sys/user/info?id=${id}`, { token: admin });
    expect(info.body.data).toMatchObject({ id, username: 'designer1', name: 'Dora', nickName: 'D', status: 1, roleIdList: [1] });
    expect(info.body.data).not.toHaveProperty('password');

    const page = await t.call('POST', '/admin/base/sys/user/page', { token: admin, body: { keyWord: 'Dora' } });
    expect(page.body.data.pagination).toEqual({ page: 1, size: 20, total: 1 });
    expect(page.body.data.list[0]).not.toHaveProperty('password');

    const stored = await t.ctx.db.selectFrom('base_sys_user').select('password').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.password).toMatch(/^\$argon2id\$/);
    expect((await t.login('designer1', 'designer-pass')).token).toBeTruthy();
  });

  it('filters by whitelisted fields', async () => {
    const res = await t.call('POST', '/admin/base/sys/user/page', { token: admin, body: { status: 0 } });
    expect(res.body.data.pagination.total).toBe(0);
  });

  it('refuses a taken username with 1001 and a bad role with 1002', async () => {
    const dup = await t.call('POST', '/admin/base/sys/user/add', { token: admin, lang: 'en', body: { username: 'admin', password: 'whatever1' } });
    expect(dup.body).toEqual({ code: 1001, message: 'Username already exists' });
    const role = await t.call('POST', '/admin/base/sys/user/add', { token: admin, lang: 'en', body: { username: 'r1', password: 'whatever1', roleIdList: [999] } });
    expect(role.body).toEqual({ code: 1002, message: 'roleIdList is invalid' });
  });

  it('answers 1001 for info of a missing record and 1002 for a bad id', async () => {
    expect((await t.call('GET', '/admin/base/sys/user/info?id=9999', { token: admin, lang: 'en' })).body).toEqual({ code: 1001, message: 'Data does not exist' });
    expect((await t.call('GET', '/admin/base/sys/user/info?id=abc', { token: admin, lang: 'en' })).body).toEqual({ code: 1002, message: 'id is invalid' });
  });

  it('a disabled user cannot log in', async () => {
    await t.call('POST', '/admin/base/sys/user/add', { token: admin, body: { username: 'off', password: 'off-pass', status: 0 } });
    const res = await t.call('POST', '/admin/base/open/login', { lang: 'en', body: { username: 'off', password: 'off-pass' } });
    expect(res.body).toEqual({ code: 1001, message: 'This account has been disabled' });
    expect(ADMIN_PASSWORD).toBeTruthy();
  });
});
