// Every /admin body is bounded before any work: size (BODY_LIMIT, 413) and JSON nesting depth
// (64, 1002), through one shared reader, before authentication and before the request log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestingExceeds } from '../../server/core/body.ts';
import { ADMIN_PASSWORD, setup, type TestServer } from './helpers.ts';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await setup({ TRUST_PROXY: 'on' });
  admin = (await t.login('admin', ADMIN_PASSWORD)).token;
});
afterAll(() => t.close());

const raw = (url: string, body: string, headers: Record<string, string> = {}) =>
  t.app.request(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en', ...headers }, body });

const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('JSON depth scan', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(nestingExceeds(nested(64), 64)).toBe(false);
    expect(nestingExceeds(nested(65), 64)).toBe(true);
    expect(nestingExceeds(`{"a":"${'['.repeat(500)}","b":[{"c":"\\"{{{"}]}`, 3)).toBe(false);
    expect(nestingExceeds('{"a":{"b":{"c":{}}}}', 3)).toBe(true);
  });
});

describe('request bodies', () => {
  it('takes ordinary bodies, also nested up to the limit', async () => {
    let filter: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH - 1; i++) filter = { f: filter };
    const res = await t.call('POST', '/admin/base/sys/user/page', { token: admin, body: { page: 1, size: 10, filter } });
    expect(res.body.code).toBe(1000);
    const login = await t.call('POST', '/admin/base/open/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(login.body.code).toBe(1000);
  });

  it('answers a body nested a million levels deep with 1002 at once, anonymous or not, and a concurrent call is served', async () => {
    const deep = nested(1_000_000); // 2 MB, under BODY_LIMIT
    const [open, guarded, plain, normal] = await Promise.all([
      raw('/admin/base/open/login', deep),
      raw('/admin/base/sys/user/page', deep),
      raw('/admin/base/sys/user/page', deep, { 'Content-Type': 'text/plain', Authorization: admin }),
      t.call('POST', '/admin/base/sys/user/page', { token: admin, body: { page: 1, size: 5 } }),
    ]);
    for (const res of [open, guarded, plain]) {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ code: 1002, message: 'Request body is nested too deeply (at most 64 levels)' });
    }
    expect(normal.body.code).toBe(1000);
    // The log kept no trace of those bodies.
    const rows = await t.ctx.db.selectFrom('base_sys_log').select(['action', 'params', 'status']).orderBy('id', 'desc').limit(4).execute();
    for (const row of rows) expect(row.params?.includes('[[') ?? false).toBe(false);
  });

  it('answers 413 for a body over BODY_LIMIT on every route, announced or streamed', async () => {
    const big = JSON.stringify({ a: 'x'.repeat(3 * 1024 * 1024) });
    for (const url of ['/admin/base/open/login', '/admin/base/sys/user/page', '/admin/dashboard/info/count']) {
      const res = await raw(url, big, { Authorization: admin });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ code: 1001, message: 'Request body too large' });
    }
    // No Content-Length: the reader stops at the limit while streaming.
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.slice(at, at + 64 * 1024));
        controller.close();
      },
    });
    const streamed = await t.app.request('/admin/base/open/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('still answers 1002 for a malformed body', async () => {
    const res = await raw('/admin/base/sys/user/page', '{"page":', { Authorization: admin });
    expect(await res.json()).toEqual({ code: 1002, message: 'Request body is invalid' });
  });
});
