import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFRESH_GRACE_MS } from '../../server/core/tokens.ts';
import { ADMIN_PASSWORD, addUser, setup, type TestServer } from './helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await setup();
});
afterAll(() => t.close());

const LOGIN = '/admin/base/open/login';
const REFRESH = '/admin/base/open/refreshToken';
const PERSON = '/admin/base/comm/person';

describe('login', () => {
  it('answers a token pair for the right password', async () => {
    const res = await t.call('POST', LOGIN, { body: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(1000);
    expect(res.body.data).toMatchObject({ expire: 7200, refreshExpire: 15 * 24 * 3600 });
    expect(res.body.data.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(typeof res.body.data.refreshToken).toBe('string');
    const person = await t.call('GET', PERSON, { token: res.body.data.token });
    expect(person.body.code).toBe(1000);
    expect(person.body.data).toMatchObject({ username: 'admin' });
    expect(person.body.data).not.toHaveProperty('password');
    expect(person.body.data).not.toHaveProperty('passwordVersion');
  });

  it('refuses a wrong password with 1001 and the localised message', async () => {
    const res = await t.call('POST', LOGIN, { lang: 'en', ip: '10.0.0.1', body: { username: 'admin', password: 'nope' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 1001, message: 'Account or Password incorrect' });
  });

  it('refuses an unknown user with the same answer', async () => {
    const res = await t.call('POST', LOGIN, { lang: 'en', body: { username: 'ghost', password: ADMIN_PASSWORD } });
    expect(res.body).toEqual({ code: 1001, message: 'Account or Password incorrect' });
  });

  it('names the missing field with 1002', async () => {
    const noPassword = await t.call('POST', LOGIN, { lang: 'en', body: { username: 'admin' } });
    expect(noPassword.status).toBe(200);
    expect(noPassword.body).toEqual({ code: 1002, message: 'password cannot be empty' });
    const noUser = await t.call('POST', LOGIN, { lang: 'en', body: { username: '', password: 'x' } });
    expect(noUser.body).toEqual({ code: 1002, message: 'username cannot be empty' });
    const wrongType = await t.call('POST', LOGIN, { lang: 'en', body: { username: 'admin', password: 42 } });
    expect(wrongType.body).toEqual({ code: 1002, message: 'password is invalid' });
  });

  it('answers 1002 for a body that is not JSON', async () => {
    const res = await t.app.request(LOGIN, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en' },
      body: '{not json',
    });
    expect(await res.json()).toEqual({ code: 1002, message: 'Request body is invalid' });
  });
});

describe('captcha', () => {
  let c: TestServer;
  beforeAll(async () => {
    c = await setup({ CAPTCHA: 'on' });
  });
  afterAll(() => c.close());

  async function captcha() {
    const res = await c.call('GET', '/admin/base/open/captcha');
    expect(res.body.code).toBe(1000);
    expect(res.body.data.data).toMatch(/^data:image\/svg\+xml;base64,/);
    const answer = c.captchaAnswers.get(res.body.data.captchaId);
    expect(answer).toBeTruthy();
    return { captchaId: res.body.data.captchaId as string, answer: answer! };
  }

  it('answers the captcha endpoint even with CAPTCHA off', async () => {
    const res = await t.call('GET', '/admin/base/open/captcha');
    expect(res.body.code).toBe(1000);
    expect(Object.keys(res.body.data).sort()).toEqual(['captchaId', 'data']);
  });

  it('refuses a wrong captcha with 1001', async () => {
    const { captchaId, answer } = await captcha();
    const res = await c.call('POST', LOGIN, {
      lang: 'en',
      body: { username: 'admin', password: ADMIN_PASSWORD, captchaId, verifyCode: answer + 'x' },
    });
    expect(res.body).toEqual({ code: 1001, message: 'Captcha incorrect' });
  });

  it('requires the captcha fields when on', async () => {
    const res = await c.call('POST', LOGIN, { lang: 'en', body: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(res.body).toEqual({ code: 1002, message: 'captchaId cannot be empty' });
  });

  it('accepts the right answer once, in any case', async () => {
    const { captchaId, answer } = await captcha();
    const body = { username: 'admin', password: ADMIN_PASSWORD, captchaId, verifyCode: answer.toUpperCase() };
    const first = await c.call('POST', LOGIN, { body });
    expect(first.body.code).toBe(1000);
    const again = await c.call('POST', LOGIN, { lang: 'en', body });
    expect(again.body).toEqual({ code: 1001, message: 'Captcha incorrect' });
  });

  it('expires captchas after 10 minutes', async () => {
    const { captchaId, answer } = await captcha();
    c.clock.advance(10 * 60 * 1000 + 1);
    const res = await c.call('POST', LOGIN, { lang: 'en', body: { username: 'admin', password: ADMIN_PASSWORD, captchaId, verifyCode: answer } });
    expect(res.body).toEqual({ code: 1001, message: 'Captcha incorrect' });
  });
});

describe('tokens', () => {
  it('answers 401 without a token, with a garbage token and with a forged one', async () => {
    const none = await t.call('GET', PERSON, { lang: 'en' });
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ code: 1001, message: 'Login status has expired, please log in again' });
    const garbage = await t.call('GET', PERSON, { token: 'garbage' });
    expect(garbage.status).toBe(401);
    expect(garbage.body.code).toBe(1001);
    const { token } = await t.login();
    const [h, p] = token.split('.');
    const forged = await t.call('GET', PERSON, { token: `${h}.${p}.AAAA` });
    expect(forged.status).toBe(401);
  });

  it('accepts the token raw or with a Bearer prefix', async () => {
    const { token } = await t.login();
    expect((await t.call('GET', PERSON, { token })).status).toBe(200);
    expect((await t.call('GET', PERSON, { token: `Bearer ${token}` })).status).toBe(200);
  });

  it('remembers only a signature: a token that checked out is refused once its session ends, and a changed one is checked afresh', async () => {
    const { token } = await t.login();
    expect((await t.call('GET', PERSON, { token })).status).toBe(200);
    const [h, p, sig] = token.split('.');
    const other = Buffer.from(p!, 'base64url').toString().replace('"typ":"access"', '"typ":"accesz"');
    expect((await t.call('GET', PERSON, { token: `${h}.${Buffer.from(other).toString('base64url')}.${sig}` })).status).toBe(401);
    expect((await t.call('POST', '/admin/base/comm/logout', { token })).status).toBe(200);
    expect((await t.call('GET', PERSON, { token })).status).toBe(401);
  });

  it('expires access tokens after TOKEN_EXPIRE by the clock', async () => {
    const { token } = await t.login();
    t.clock.advance(7200 * 1000 - 1000);
    expect((await t.call('GET', PERSON, { token })).status).toBe(200);
    t.clock.advance(1000);
    const expired = await t.call('GET', PERSON, { token });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe(1001);
  });

  it('rotates refresh tokens, each good once', async () => {
    const first = await t.login();
    const second = await t.call('POST', REFRESH, { body: { refreshToken: first.refreshToken } });
    expect(second.body.code).toBe(1000);
    expect(second.body.data).toMatchObject({ expire: 7200, refreshExpire: 1296000 });
    expect(second.body.data.refreshToken).not.toBe(first.refreshToken);
    // The old client form: GET with the token in the query.
    const third = await t.call('GET', `${REFRESH}?refreshToken=${encodeURIComponent(second.body.data.refreshToken)}`);
    expect(third.body.code).toBe(1000);
    expect((await t.call('GET', PERSON, { token: third.body.data.token })).status).toBe(200);
  });

  it('revokes the whole family when a spent refresh token comes back', async () => {
    const first = await t.login();
    const second = (await t.call('POST', REFRESH, { body: { refreshToken: first.refreshToken } })).body.data;
    // Past the grace a second presenter gets (two tabs at once): this is reuse.
    t.clock.advance(REFRESH_GRACE_MS + 1000);
    const reuse = await t.call('POST', REFRESH, { lang: 'en', body: { refreshToken: first.refreshToken } });
    expect(reuse.status).toBe(401);
    expect(reuse.body).toEqual({ code: 1001, message: 'This account has been logged in elsewhere' });
    // The newer refresh token and the access tokens of the family are dead too.
    const newer = await t.call('POST', REFRESH, { body: { refreshToken: second.refreshToken } });
    expect(newer.status).toBe(401);
    expect((await t.call('GET', PERSON, { token: second.token })).status).toBe(401);
    expect((await t.call('GET', PERSON, { token: first.token })).status).toBe(401);
    // Other sessions of the same user are untouched.
    const other = await t.login();
    expect((await t.call('GET', PERSON, { token: other.token })).status).toBe(200);
  });

  it('two tabs refreshing the same token at once both get the same new pair, and stay signed in', async () => {
    const first = await t.login();
    const [a, b] = await Promise.all([
      t.call('POST', REFRESH, { body: { refreshToken: first.refreshToken } }),
      t.call('POST', REFRESH, { body: { refreshToken: first.refreshToken } }),
    ]);
    expect([a.status, a.body.code, b.status, b.body.code]).toEqual([200, 1000, 200, 1000]);
    expect(b.body.data).toEqual(a.body.data);
    expect(a.body.data.refreshToken).not.toBe(first.refreshToken);
    expect((await t.call('GET', PERSON, { token: a.body.data.token })).status).toBe(200);
    // The shared new refresh token rotates once as usual; the session lives on.
    const next = await t.call('POST', REFRESH, { body: { refreshToken: b.body.data.refreshToken } });
    expect(next.body.code).toBe(1000);
    expect((await t.call('GET', PERSON, { token: next.body.data.token })).status).toBe(200);
    // Only hashes are stored: neither raw refresh token is in the table.
    const rows = await t.ctx.db.selectFrom('base_refresh_token').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(a.body.data.refreshToken);
  });

  it('a tab late within the grace gets the pair the first one got; a spent successor or a later reuse revokes', async () => {
    const first = await t.login();
    const a = (await t.call('POST', REFRESH, { body: { refreshToken: first.refreshToken } })).body.data;
    t.clock.advance(REFRESH_GRACE_MS - 1000);
    const late = await t.call('POST', REFRESH, { body: { refreshToken: first.refreshToken } });
    expect(late.body.data).toEqual(a);

    // Within the grace, but the pair it was rotated into is spent already: that is a copy.
    const other = await t.login();
    const o1 = (await t.call('POST', REFRESH, { body: { refreshToken: other.refreshToken } })).body.data;
    expect((await t.call('POST', REFRESH, { body: { refreshToken: o1.refreshToken } })).body.code).toBe(1000);
    const stale = await t.call('POST', REFRESH, { body: { refreshToken: other.refreshToken } });
    expect(stale.status).toBe(401);
    expect((await t.call('GET', PERSON, { token: o1.token })).status).toBe(401);

    // After the grace the first session's spent token is plain reuse.
    t.clock.advance(2000);
    expect((await t.call('POST', REFRESH, { body: { refreshToken: first.refreshToken } })).status).toBe(401);
    expect((await t.call('GET', PERSON, { token: a.token })).status).toBe(401);
  });

  it('refuses unknown and expired refresh tokens with 401', async () => {
    const unknown = await t.call('POST', REFRESH, { body: { refreshToken: 'not-a-token' } });
    expect(unknown.status).toBe(401);
    const missing = await t.call('POST', REFRESH, { lang: 'en', body: {} });
    expect(missing.body).toEqual({ code: 1002, message: 'refreshToken cannot be empty' });
    const pair = await t.login();
    t.clock.advance(15 * 24 * 3600 * 1000);
    const expired = await t.call('POST', REFRESH, { body: { refreshToken: pair.refreshToken } });
    expect(expired.status).toBe(401);
  });

  it('logout revokes the session: access and refresh token', async () => {
    const pair = await t.login();
    const out = await t.call('POST', '/admin/base/comm/logout', { token: pair.token });
    expect(out.body).toEqual({ code: 1000, message: 'success', data: null });
    expect((await t.call('GET', PERSON, { token: pair.token })).status).toBe(401);
    expect((await t.call('POST', REFRESH, { body: { refreshToken: pair.refreshToken } })).status).toBe(401);
  });
});

describe('personUpdate', () => {
  it('changes nickName and headImg', async () => {
    const { token } = await t.login();
    const res = await t.call('POST', '/admin/base/comm/personUpdate', { token, body: { nickName: 'Boss', headImg: '/a.png' } });
    expect(res.body.code).toBe(1000);
    const person = await t.call('GET', PERSON, { token });
    expect(person.body.data).toMatchObject({ nickName: 'Boss', headImg: '/a.png' });
  });

  it('refuses a wrong old password with 1001 and a missing one with 1002', async () => {
    const { token } = await t.login();
    const wrong = await t.call('POST', '/admin/base/comm/personUpdate', {
      token,
      lang: 'en',
      body: { oldPassword: 'wrong', password: 'new-secret-1' },
    });
    expect(wrong.body).toEqual({ code: 1001, message: 'The old password is incorrect' });
    const missing = await t.call('POST', '/admin/base/comm/personUpdate', { token, lang: 'en', body: { password: 'new-secret-1' } });
    expect(missing.body).toEqual({ code: 1002, message: 'oldPassword cannot be empty' });
    expect((await t.call('GET', PERSON, { token })).status).toBe(200);
  });

  it('disabling a user ends its sessions; enabling it again does not revive them', async () => {
    const { token: admin } = await t.login();
    const id = await addUser(t, admin, { username: 'paused', password: 'paused-pass' });
    const pair = await t.login('paused', 'paused-pass');
    const off = await t.call('POST', '/admin/base/sys/user/update', { token: admin, body: { id, status: 0 } });
    expect(off.body.code).toBe(1000);
    expect((await t.call('GET', PERSON, { token: pair.token })).status).toBe(401);
    const on = await t.call('POST', '/admin/base/sys/user/update', { token: admin, body: { id, status: 1 } });
    expect(on.body.code).toBe(1000);
    expect((await t.call('GET', PERSON, { token: pair.token })).status).toBe(401);
    expect((await t.call('POST', REFRESH, { body: { refreshToken: pair.refreshToken } })).status).toBe(401);
    // Enabled again, the user signs in afresh.
    const fresh = await t.login('paused', 'paused-pass');
    expect((await t.call('GET', PERSON, { token: fresh.token })).status).toBe(200);
  });

  it('a password change ends every earlier token of the user', async () => {
    const { token: admin } = await t.login();
    await addUser(t, admin, { username: 'changer', password: 'first-pass' });
    const a = await t.login('changer', 'first-pass');
    const b = await t.login('changer', 'first-pass');
    const res = await t.call('POST', '/admin/base/comm/personUpdate', {
      token: a.token,
      body: { oldPassword: 'first-pass', password: 'second-pass' },
    });
    expect(res.body.code).toBe(1000);
    for (const pair of [a, b]) {
      expect((await t.call('GET', PERSON, { token: pair.token })).status).toBe(401);
      expect((await t.call('POST', REFRESH, { body: { refreshToken: pair.refreshToken } })).status).toBe(401);
    }
    const old = await t.call('POST', LOGIN, { ip: '10.9.9.9', body: { username: 'changer', password: 'first-pass' } });
    expect(old.body.code).toBe(1001);
    const fresh = await t.login('changer', 'second-pass');
    expect((await t.call('GET', PERSON, { token: fresh.token })).status).toBe(200);
  });
});
