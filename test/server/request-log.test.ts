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
    const login = rows.find((r) => r.action === '/admin/base/open/login' && r.params?.includes('"username":"admin"'));
    expect(JSON.parse(login!.params!)).toEqual({ username: 'admin', password: '***' });
    const refresh = rows.find((r) => r.method === 'GET' && r.action === '/admin/base/open/refreshToken');
    expect(JSON.parse(refresh!.params!)).toEqual({ refreshToken: '***' });
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
