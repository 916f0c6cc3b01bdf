import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redact } from '../../server/core/request-log.ts';
import { ADMIN_PASSWORD, addUser, setup, type TestServer } from './helpers.ts';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await setup({ TRUST_PROXY: 'on' });
  admin = (await t.login('admin', ADMIN_PASSWORD, { ip: '198.51.100.7' })).token;
});
afterAll(() => t.close());

const allRows = () => t.ctx.db.selectFrom('base_sys_log').selectAll().orderBy('id', 'asc').execute();

describe('request log', () => {
  it('records who, route, method, status, time and IP', async () => {
    await t.call('GET', '/admin/base/comm/person', { token: admin, ip: '198.51.100.7' });
    const row = (await allRows()).at(-1)!;
    expect(row).toMatchObject({ action: '/admin/base/comm/person', method: 'GET', status: 200, ip: '198.51.100.7', username: 'admin' });
    expect(row.userId).toBeTypeOf('number');
    expect(row.timeMs).toBeGreaterThanOrEqual(0);
    expect(row.createTime).toBe('2026-01-01 08:00:00');
  });

  it('stores every one of 250 concurrent calls, each with its own parameters, before its reply', async () => {
    const before = (await allRows()).length;
    const replies = await Promise.all(
      Array.from({ length: 250 }, async (_, i) => {
        const res = await t.call('GET', `/admin/base/comm/person?note=burst-${i}`, { token: admin, ip: '198.51.100.9' });
        // Its own entry is there when the reply arrives, whatever else is being written.
        const mine = await t.ctx.db.selectFrom('base_sys_log').select('id').where('params', 'like', `%burst-${i}"%`).execute();
        return { status: res.status, stored: mine.length };
      }),
    );
    expect(replies.filter((r) => r.status !== 200 || r.stored !== 1)).toEqual([]);
    expect((await allRows()).length - before).toBe(250);
  });

  it('never stores passwords or tokens', async () => {
    const secrets = ['Sup3r-Secret-Pw', 'old-pw-value', 'new-pw-value'];
    await t.call('POST', '/admin/base/open/login', { body: { username: 'admin', password: secrets[0] } });
    const pair = await t.login();
    await t.call('POST', '/admin/base/open/refreshToken', { body: { refreshToken: pair.refreshToken } });
    const again = await t.login();
    await t.call('GET', `/admin/base/open/refreshToken?refreshToken=${again.refreshToken}`);
    await t.call('POST', '/admin/base/comm/personUpdate', { token: admin, body: { oldPassword: secrets[1], password: secrets[2] } });
    await addUser(t, admin, { username: 'logged', password: 'user-pass-in-log' });

    const rows = await allRows();
    const dump = JSON.stringify(rows);
    for (const secret of [...secrets, 'user-pass-in-log', pair.refreshToken, again.refreshToken, pair.token, admin]) {
      expect(dump).not.toContain(secret);
    }
    // Anonymous calls (login, refresh) keep no parameters at all.
    const login = rows.find((r) => r.action === '/admin/base/open/login');
    expect(login!.params).toBeNull();
    const refresh = rows.find((r) => r.method === 'GET' && r.action === '/admin/base/open/refreshToken');
    expect(refresh!.params).toBeNull();
    const person = rows.find((r) => r.action === '/admin/base/comm/personUpdate');
    expect(JSON.parse(person!.params!)).toEqual({ oldPassword: '***', password: '***' });
  });

  it('redacts secrets by name, in every spelling, at any depth', () => {
    const names = [
      'password', 'newPassword', 'oldPassword', 'passwordHash', 'pwd', 'token', 'refreshToken', 'accessToken', 'access_token',
      'key', 'apiKey', 'api_key', 'x-api-key', 'X-API-KEY', 'APIKEY', 'deviceKey', 'secret', 'clientSecret',
      'client_secret', 'Authorization', 'authorization', 'cookie',
    ];
    const flat = redact(Object.fromEntries(names.map((n) => [n, `v-${n}`])));
    expect(flat).toEqual(Object.fromEntries(names.map((n) => [n, '***'])));
    let deep: unknown = Object.fromEntries(names.map((n) => [n, `v-${n}`]));
    for (let i = 0; i < 25; i++) deep = { level: i, child: [deep] }; // 50 levels
    const text = JSON.stringify(redact(deep));
    for (const n of names) expect(text).not.toContain(`v-${n}`);
    expect(text).toContain('"level":0'); // the rest of a deep body is kept
    // Ordinary names that only look alike stay.
    expect(redact({ keyWord: 'abc', username: 'u', monthKeys: undefined, remark: 'r' })).toEqual({ keyWord: 'abc', username: 'u', remark: 'r' });
  });

  it('redacts nested secrets', () => {
    expect(redact({ a: { token: 'x', list: [{ newPassword: 'y', keep: 1 }] }, Authorization: 'z' })).toEqual({
      a: { token: '***', list: [{ newPassword: '***', keep: 1 }] },
      Authorization: '***',
    });
  });

  it('logs failures too: 401 without a user', async () => {
    await t.call('GET', '/admin/base/comm/person', { token: 'bad' });
    const row = (await allRows()).at(-1)!;
    expect(row).toMatchObject({ status: 401, userId: null, username: null });
  });

  it('keeps only method, path, status, time and IP of an anonymous call: no body, no query', async () => {
    const filler = 'x'.repeat(4000);
    const res = await t.call('POST', `/admin/base/sys/user/page?note=${filler}&refreshToken=q-secret`, {
      ip: '198.51.100.66',
      body: { filler, password: 'anon-pw', nested: { a: [1, 2, 3] } },
    });
    expect(res.status).toBe(401);
    const row = (await allRows()).at(-1)!;
    expect(row).toMatchObject({
      action: '/admin/base/sys/user/page', method: 'POST', status: 401, ip: '198.51.100.66', userId: null, username: null, params: null,
    });
    expect(JSON.stringify(row).length).toBeLessThan(400);
  });

  it('never shows an API configuration\'s key in the log page', async () => {
    await t.call('POST', '/admin/device/apiConfig/add', {
      token: admin,
      body: { name: 'AI', url: 'https://ai.example.com/v1', key: 'sk-live-in-log-1234', extra: { clientSecret: 'cs-in-log', api_key: 'ak-in-log' } },
    });
    const res = await t.call('POST', '/admin/base/sys/log/page', { token: admin, body: { keyWord: 'apiConfig', size: 10 } });
    const row = res.body.data.list.find((r: { action: string }) => r.action === '/admin/device/apiConfig/add');
    expect(JSON.parse(row.params)).toMatchObject({ name: 'AI', key: '***', extra: { clientSecret: '***', api_key: '***' } });
    for (const secret of ['sk-live-in-log-1234', 'cs-in-log', 'ak-in-log']) expect(JSON.stringify(res.body)).not.toContain(secret);
  });
});

describe('entries written under the old rules', () => {
  it('are redacted again by the migration: anonymous ones lose their parameters, cut ones are dropped', async () => {
    const { up } = await import('../../server/db/migrations/0101_redact_log.ts');
    const base = { action: '/admin/device/apiConfig/add', method: 'POST', status: 200, timeMs: 1, ip: '198.51.100.9', createTime: '2026-01-01 08:00:00' };
    const ids = [];
    for (const row of [
      { ...base, userId: 1, username: 'admin', params: '{"name":"AI","key":"sk-old-in-clear","nested":{"deviceKey":"dk-old"}}' },
      { ...base, userId: null, username: null, params: '{"username":"admin","password":"***","junk":"' + 'x'.repeat(100) + '"}' },
      { ...base, userId: 1, username: 'admin', params: '{"name":"AI","api_key":"ak-old-cut…' },
    ]) {
      ids.push((await t.ctx.db.insertInto('base_sys_log').values(row).returning('id').executeTakeFirstOrThrow()).id);
    }
    await up(t.ctx.db);
    const rows = await t.ctx.db.selectFrom('base_sys_log').select(['id', 'params']).where('id', 'in', ids).orderBy('id').execute();
    expect(JSON.parse(rows[0]!.params!)).toEqual({ name: 'AI', key: '***', nested: { deviceKey: '***' } });
    expect(rows[1]!.params).toBeNull();
    expect(rows[2]!.params).toBeNull();
  });
});

describe('log size bound', () => {
  it('deletes the oldest entries once the log is over LOG_MAX_MB, keeping the newest', async () => {
    const small = await setup({ TRUST_PROXY: 'on' });
    try {
      const max = 20_000;
      small.ctx.config.logMaxBytes = max;
      for (let i = 0; i < 400; i++) await small.call('GET', `/admin/base/comm/person?i=${i}`, { token: 'bad', ip: `192.0.2.${i % 250}` });
      const { measureRequestLog } = await import('../../server/core/request-log.ts');
      expect(await measureRequestLog(small.ctx.db)).toBeLessThanOrEqual(max);
      const rows = await small.ctx.db.selectFrom('base_sys_log').select(['id', 'ip']).orderBy('id', 'asc').execute();
      expect(rows.length).toBeGreaterThan(50);
      expect(rows.length).toBeLessThan(400);
      // The newest is still there, the oldest went.
      expect(rows.at(-1)!.ip).toBe(`192.0.2.${399 % 250}`);
      expect(rows[0]!.id).toBeGreaterThan(1);
    } finally {
      await small.close();
    }
  });
});

describe('log page', () => {
  const page = (body: unknown, lang = 'en') => t.call('POST', '/admin/base/sys/log/page', { token: admin, lang, body });

  it('pages newest first with pagination', async () => {
    const res = await page({ page: 1, size: 3 });
    expect(res.body.code).toBe(1000);
    const { list, pagination } = res.body.data;
    expect(list).toHaveLength(3);
    expect(pagination).toMatchObject({ page: 1, size: 3 });
    expect(pagination.total).toBeGreaterThan(5);
    expect(list[0].id).toBeGreaterThan(list[1].id);
  });

  it('filters by keyWord', async () => {
    const res = await page({ keyWord: 'personUpdate', size: 100 });
    const { list } = res.body.data;
    expect(list.length).toBeGreaterThan(0);
    for (const row of list) expect(row.action).toContain('personUpdate');
  });

  it('sorts by a whitelisted column and refuses others with 1002', async () => {
    const asc = await page({ order: 'id', sort: 'asc', size: 2 });
    expect(asc.body.data.list[0].id).toBeLessThan(asc.body.data.list[1].id);
    const bad = await page({ order: 'id; drop table base_sys_log', sort: 'asc' });
    expect(bad.body).toEqual({ code: 1002, message: 'order is invalid' });
    const badSort = await page({ order: 'id', sort: 'sideways' });
    expect(badSort.body).toEqual({ code: 1002, message: 'sort is invalid' });
  });

  it('caps the page size at 100', async () => {
    for (let i = 0; i < 110; i++) await t.call('GET', '/admin/base/comm/uploadMode', { token: admin });
    const res = await page({ size: 500 });
    expect(res.body.data.pagination.size).toBe(100);
    expect(res.body.data.list).toHaveLength(100);
  });

  it('is read-only', async () => {
    const del = await t.call('POST', '/admin/base/sys/log/delete', { token: admin, body: { ids: [1] } });
    expect(del.status).toBe(404);
  });
});
