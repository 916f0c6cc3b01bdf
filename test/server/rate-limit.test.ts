import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import { ADMIN_PASSWORD, addUser, setup, type TestServer } from './helpers.ts';

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

/**
 * Counts the password verifications the app really runs (real and dummy), and the most that ran
 * at once. Each is held open until the next macrotask, so that checks overlap as they would with
 * production's argon2 cost.
 */
function countVerifications(): { readonly n: number; readonly most: number } {
  const counter = { n: 0, most: 0, running: 0 };
  const { verify, verifyDummy } = t.ctx.passwords;
  const watched =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      counter.n++;
      counter.most = Math.max(counter.most, ++counter.running);
      try {
        const good = await fn(...args);
        await new Promise((r) => setTimeout(r, 1));
        return good;
      } finally {
        counter.running--;
      }
    };
  t.ctx.passwords.verify = watched(verify);
  t.ctx.passwords.verifyDummy = watched(verifyDummy);
  return counter;
}

describe('login rate limit under concurrency', () => {
  it('evaluates at most 5 of 100 concurrent wrong logins; the rest, and a right password after them, get 429', async () => {
    const ip = '203.0.113.10';
    const verified = countVerifications();
    const burst = await Promise.all([
      ...Array.from({ length: 100 }, (_, i) => attempt(ip, `wrong-${i}`)),
      attempt(ip, ADMIN_PASSWORD),
    ]);
    const evaluated = burst.filter((r) => r.status === 200);
    expect(evaluated.length).toBeLessThanOrEqual(5);
    expect(verified.n).toBeLessThanOrEqual(5);
    for (const r of evaluated) expect(r.body.code).toBe(1001);
    for (const r of burst.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(429);
      expect(r.body.code).toBe(1001);
    }
    expect(burst.at(-1)!.status).toBe(429);
    expect(burst.at(-1)!.body.data).toBeUndefined();
    // Still locked afterwards, with the right password too.
    expect((await attempt(ip, ADMIN_PASSWORD)).status).toBe(429);
  });

  it('lets the owner in with a right password in a burst of their own before any lock', async () => {
    const ip = '203.0.113.11';
    const [a, b, good] = await Promise.all([attempt(ip, 'typo-1'), attempt(ip, 'typo-2'), attempt(ip, ADMIN_PASSWORD)]);
    expect([a.body.code, b.body.code]).toEqual([1001, 1001]);
    expect(good.body.code).toBe(1000);
    // A success forgets the failures already recorded (typos still being checked alongside it
    // count once they fail): after one more sign-in five more tries are evaluated.
    expect((await attempt(ip, ADMIN_PASSWORD)).body.code).toBe(1000);
    for (let i = 0; i < 5; i++) expect((await attempt(ip, 'wrong')).status).toBe(200);
    expect((await attempt(ip, 'wrong')).status).toBe(429);
  });

  it('limits one IP across usernames: of 40 usernames at most 20 are evaluated', async () => {
    const ip = '203.0.113.12';
    const verified = countVerifications();
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t.call('POST', LOGIN, { ip, lang: 'en', body: { username: `user${i}`, password: 'guess' } })),
    );
    expect(burst.filter((r) => r.status === 200).length).toBeLessThanOrEqual(20);
    expect(verified.n).toBeLessThanOrEqual(20);
    expect(burst.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(20);
    // The address is locked for the real account too; another address is not.
    expect((await attempt(ip, ADMIN_PASSWORD)).status).toBe(429);
    expect((await attempt('203.0.113.13', ADMIN_PASSWORD)).body.code).toBe(1000);
    t.clock.advance(15 * 60 * 1000);
    expect((await attempt(ip, ADMIN_PASSWORD)).body.code).toBe(1000);
  });
});

describe('a crowd signing in correctly from one address', () => {
  it('lets 120 concurrent right sign-ins of 30 accounts in; never more than 20 checked at once', async () => {
    const ip = '203.0.113.30';
    const { token } = await t.login('admin', ADMIN_PASSWORD, { ip: '203.0.113.31' });
    const names = Array.from({ length: 30 }, (_, i) => `crowd${i}`);
    for (const username of names) await addUser(t, token, { username, password: `pw-${username}-1` });
    const verified = countVerifications();
    const crowd = await Promise.all(
      Array.from({ length: 120 }, (_, i) => {
        const username = names[i % names.length]!;
        return t.call('POST', LOGIN, { ip, body: { username, password: `pw-${username}-1` } });
      }),
    );
    expect(crowd.map((r) => `${r.status} ${r.body.code}`)).toEqual(crowd.map(() => '200 1000'));
    expect(verified.n).toBe(120);
    expect(verified.most).toBeGreaterThan(1);
    expect(verified.most).toBeLessThanOrEqual(20);
  });

  it('still refuses guesses mixed into the crowd once 20 of them failed, and evaluates no more', async () => {
    const ip = '203.0.113.32';
    const verified = countVerifications();
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 2 === 0
          ? t.call('POST', LOGIN, { ip, body: { username: `nobody${i}`, password: 'guess' } })
          : t.call('POST', LOGIN, { ip, body: { username: 'admin', password: ADMIN_PASSWORD } }),
      ),
    );
    const failures = burst.filter((r) => r.status === 200 && r.body.code === 1001).length;
    expect(failures).toBeLessThanOrEqual(20);
    expect(verified.n - burst.filter((r) => r.body.code === 1000).length).toBeLessThanOrEqual(20);
    // Refused: every guess beyond the twentieth failure, whoever made it.
    expect(burst.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(10);
    expect((await t.call('POST', LOGIN, { ip, body: { username: 'nobody', password: 'guess' } })).status).toBe(429);
  });
});

describe('old-password check of personUpdate', () => {
  const PERSON = '/admin/base/comm/personUpdate';

  it('lets a user who mistyped once change the password', async () => {
    const { token } = await t.login('admin', ADMIN_PASSWORD, { ip: '203.0.113.20' });
    const typo = await t.call('POST', PERSON, { token, lang: 'en', body: { oldPassword: 'typo', password: 'new-secret-2' } });
    expect(typo.body).toEqual({ code: 1001, message: 'The old password is incorrect' });
    const res = await t.call('POST', PERSON, { token, body: { oldPassword: ADMIN_PASSWORD, password: ADMIN_PASSWORD } });
    expect(res.body.code).toBe(1000);
  });

  it('evaluates at most 5 of 50 concurrent wrong old passwords; then 429 even for the right one', async () => {
    const { token } = await t.login('admin', ADMIN_PASSWORD, { ip: '203.0.113.21' });
    const verified = countVerifications();
    const burst = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.call('POST', PERSON, { token, lang: 'en', body: { oldPassword: `guess-${i}`, password: 'taken-over-1' } }),
      ),
    );
    expect(verified.n).toBeLessThanOrEqual(5);
    expect(burst.filter((r) => r.status === 200).length).toBeLessThanOrEqual(5);
    const refused = burst.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(45);
    expect(refused[0]!.body).toEqual({ code: 1001, message: 'Too many wrong passwords, try again in 15 minutes' });
    const right = await t.call('POST', PERSON, { token, body: { oldPassword: ADMIN_PASSWORD, password: 'new-secret-3' } });
    expect(right.status).toBe(429);
    t.clock.advance(15 * 60 * 1000);
    const later = await t.call('POST', PERSON, { token, body: { oldPassword: ADMIN_PASSWORD, password: ADMIN_PASSWORD } });
    expect(later.body.code).toBe(1000);
  });
});
