// GET /healthz, the load balancer's check: open to anyone, 200 while the database answers, 503
// when it does not, and nothing else in the answer.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { setup, type TestServer } from './helpers.ts';

let t: TestServer;
afterEach(() => fs.rmSync(t.dir, { recursive: true, force: true }));

describe('health check', () => {
  it('answers 200 without a token while the database answers, and is never cached', async () => {
    t = await setup();
    const res = await t.app.request('/healthz');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ ok: true });
    await t.ctx.db.destroy();
  });

  it('answers 503 once the database is gone, telling nothing of why', async () => {
    t = await setup();
    await t.ctx.db.destroy();
    const res = await t.app.request('/healthz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ ok: false });
  });

  it('takes no parameters an attacker could use: a query or a body changes nothing', async () => {
    t = await setup();
    expect((await t.app.request('/healthz?verbose=1&db=../../etc')).status).toBe(200);
    expect((await t.app.request('/healthz', { method: 'POST', body: 'x' })).status).toBe(404);
    await t.ctx.db.destroy();
  });
});
