import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import { ADMIN_PASSWORD, setup, type TestServer } from './helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await setup({ TRUST_PROXY: 'on' });
});
afterAll(() => t.close());

const LOGIN = '/admin/base/open/login';
const attempt = (ip: string, password: string, lang = 'en') =>
  t.call('POST', LOGIN, { ip, lang, body: { username: 'admin', password } });

describe('login rate limit', () => {
  it('answers 429 from the 6th attempt after 5 failures, even with the right password, for 15 minutes', async () => {
    const ip = '203.0.113.1';
    for (let i = 0; i < 5; i++) {
      const res = await attempt(ip, `wrong-${i}`);
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(1001);
    }
    const sixth = await attempt(ip, ADMIN_PASSWORD);
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ code: 1001, message: 'Too many failed logins, try again in 15 minutes' });

    // Another IP is not blocked.
    expect((await attempt('203.0.113.2', ADMIN_PASSWORD)).body.code).toBe(1000);

    t.clock.advance(15 * 60 * 1000 - 1000);
    expect((await attempt(ip, ADMIN_PASSWORD)).status).toBe(429);
    t.clock.advance(1000);
    const free = await attempt(ip, ADMIN_PASSWORD);
    expect(free.status).toBe(200);
    expect(free.body.code).toBe(1000);
  });

  it('counts failures in a sliding 15-minute window and forgets them on success', async () => {
    const ip = '203.0.113.3';
    for (let i = 0; i < 4; i++) await attempt(ip, 'wrong');
    t.clock.advance(15 * 60 * 1000 + 1);
    // The four old failures fell out of the window.
    for (let i = 0; i < 4; i++) expect((await attempt(ip, 'wrong')).status).toBe(200);
    expect((await attempt(ip, ADMIN_PASSWORD)).body.code).toBe(1000);
    for (let i = 0; i < 4; i++) expect((await attempt(ip, 'wrong')).status).toBe(200);
    expect((await attempt(ip, ADMIN_PASSWORD)).status).toBe(200);
  });

  it('keeps the lock in the database, so a restarted app still refuses', async () => {
    const ip = '203.0.113.4';
    for (let i = 0; i < 5; i++) await attempt(ip, 'wrong');
    const restarted = createApp(t.ctx);
    const res = await restarted.request(LOGIN, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip, 'Accept-Language': 'de' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({
      code: 1001,
      message: 'Zu viele fehlgeschlagene Anmeldungen, bitte in 15 Minuten erneut versuchen',
    });
  });
});
