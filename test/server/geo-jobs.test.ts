// The geometry job runner (server/modules/geo-jobs/runner.ts) with test kinds whose thread-side
// code is test/server/geo-test-kinds.ts: bounded concurrency, restart of a job a dead runner left
// running, attempts and failures (a throw or a crashed thread), progress in the row, supersession,
// and the HTTP loop staying free while a job runs.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConcurrency, GeoJobRunner } from '../../server/modules/geo-jobs/runner.ts';
import { enqueueJob, SUPERSEDED } from '../../server/modules/geo-jobs/store.ts';
import type { GeoKinds } from '../../server/modules/geo-jobs/types.ts';
import { createContext } from '../../server/bootstrap.ts';
import { setup, type TestServer } from './helpers.ts';

const MODULE = new URL('./geo-test-kinds.ts', import.meta.url).href;
const ended: { id: number; how: 'done' | 'failed'; what: unknown }[] = [];
const kind = (fn: string) => ({
  module: MODULE,
  fn,
  onDone: (result: unknown, { job }: { job: { id: number } }) => void ended.push({ id: job.id, how: 'done', what: result }),
  onFailed: (error: string, { job }: { job: { id: number } }) => void ended.push({ id: job.id, how: 'failed', what: error }),
});
const KINDS: GeoKinds = {
  sleepy: kind('sleepy'),
  spin: kind('spin'),
  failOnce: kind('failOnce'),
  failAlways: kind('failAlways'),
  crash: kind('crash'),
  hang: { ...kind('hang'), timeoutMs: 300 },
};

let t: TestServer;
beforeAll(async () => {
  t = await setup();
});
afterAll(() => t.close());

const queue = (k: string, input: unknown, orderId: number | null = null) => enqueueJob(t.ctx.db, { kind: k, orderId, input }, t.clock.now());
const row = (id: number) => t.ctx.db.selectFrom('geo_job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(f: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last ${JSON.stringify(v)}`);
    await sleep(20);
  }
}

describe('geo job runner', () => {
  it('concurrency: one per core by default, ARCHWRIGHT_JOB_CONCURRENCY sets it', () => {
    expect(defaultConcurrency({ ARCHWRIGHT_JOB_CONCURRENCY: '3' })).toBe(3);
    expect(defaultConcurrency({ ARCHWRIGHT_JOB_CONCURRENCY: 'x' })).toBeGreaterThan(0);
  });

  it('never runs more than its bound at once, with many jobs queued together; all end done', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => queue('sleepy', { ms: 150, tag: `j${i}` })));
    const runner = new GeoJobRunner(t.ctx, { kinds: KINDS, concurrency: 2, pollMs: 30 });
    await runner.start();
    let most = 0;
    const sampler = setInterval(async () => {
      const n = await t.ctx.db.selectFrom('geo_job').select((eb) => eb.fn.countAll<number>().as('n')).where('state', '=', 'running').executeTakeFirstOrThrow();
      most = Math.max(most, Number(n.n), runner.active);
    }, 10);
    await runner.idle();
    clearInterval(sampler);
    await runner.stop();
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2);
    for (const id of ids) expect(await row(id)).toMatchObject({ state: 'done', progress: 1, attempts: 1, error: null, owner: null });
    expect(JSON.parse((await row(ids[0]!)).result!)).toEqual({ slept: 150, tag: 'j0' });
  }, 30_000);

  it('progress is written to the row while the job runs; a second runner takes over a job whose runner died once its lease ran out', async () => {
    const id = await queue('sleepy', { ms: 3000 });
    const first = new GeoJobRunner(t.ctx, { kinds: KINDS, concurrency: 1, owner: 'first', leaseMs: 60_000, pollMs: 30, progressMs: 0 });
    await first.start();
    const mid = await until(() => row(id), (r) => r.state === 'running' && r.progress > 0 && r.progress < 1);
    expect(mid).toMatchObject({ owner: 'first', attempts: 1 });
    // The process "dies": its thread ends, the row stays running under its lease.
    await first.stop();
    // Another process over the same SQLite file: its own connection.
    const other = createContext(t.ctx.config, { clock: t.clock, logger: t.logger });
    const second = new GeoJobRunner(other, { kinds: KINDS, concurrency: 1, owner: 'second', leaseMs: 60_000, pollMs: 30 });
    await second.start();
    await sleep(100);
    expect(await row(id)).toMatchObject({ state: 'running', owner: 'first' });
    t.clock.advance(61_000);
    second.wake();
    await until(() => row(id), (r) => r.state === 'done', 20_000);
    await second.stop();
    await other.db.destroy();
    expect(await row(id)).toMatchObject({ state: 'done', attempts: 2, owner: null });
  }, 30_000);

  it('a runner restarted under the same owner id takes its own running job back at once', async () => {
    const id = await queue('sleepy', { ms: 2000 });
    const a = new GeoJobRunner(t.ctx, { kinds: KINDS, concurrency: 1, owner: 'host-a', leaseMs: 600_000, pollMs: 30 });
    await a.start();
    await until(() => row(id), (r) => r.state === 'running');
    await a.stop();
    const again = new GeoJobRunner(t.ctx, { kinds: KINDS, concurrency: 1, owner: 'host-a', pollMs: 30 });
    await again.start();
    await until(() => row(id), (r) => r.state === 'done');
    await again.stop();
    expect((await row(id)).attempts).toBe(2);
  }, 30_000);

  it('two runners over one table (two connections) never take the same job', async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, () => queue('sleepy', { ms: 100 })));
    const other = createContext(t.ctx.config, { clock: t.clock, logger: t.logger });
    const a = new GeoJobRunner(t.ctx, { kinds: KINDS, concurrency: 2, owner: 'a', pollMs: 20 });
    const b = new GeoJobRunner(other, { kinds: KINDS, concurrency: 2, owner: 'b', pollMs: 20 });
    await Promise.all([a.start(), b.start()]);
    await Promise.all([a.idle(), b.idle()]);
    await Promise.all([a.stop(), b.stop()]);
    await other.db.destroy();
    for (const id of ids) expect(await row(id)).toMatchObject({ state: 'done', attempts: 1 });
  }, 30_000);

  it('a job that throws once is run again; one that throws twice stays failed with its reason', async () => {
    const marker = path.join(t.dir, 'fail-once-marker');
    const once = await queue('failOnce', { marker });
    const always = await queue('failAlways', {});
    const runner = new GeoJobRunner(t.ctx, { kinds: KINDS, concurrency: 2, pollMs: 30 });
    await runner.start();
    await runner.idle();
    await runner.stop();
    expect(fs.existsSync(marker)).toBe(true);
    expect(await row(once)).toMatchObject({ state: 'done', attempts: 2 });
    expect(await row(always)).toMatchObject({ state: 'failed', attempts: 2, error: 'the kernel said no' });
    expect(ended.filter((e) => e.id === always)).toEqual([{ id: always, how: 'failed', what: 'the kernel said no' }]);
    expect(ended.filter((e) => e.id === once).map((e) => e.how)).toEqual(['done']);
  }, 30_000);

  it('a crashed thread (process.exit) counts as a failed attempt', async () => {
    const id = await queue('crash', {});
    const runner = new GeoJobRunner(t.ctx, { kinds: KINDS, concurrency: 1, pollMs: 30 });
    await runner.start();
    await runner.idle();
    await runner.stop();
    const r = await row(id);
    expect(r).toMatchObject({ state: 'failed', attempts: 2 });
    expect(r.error).toMatch(/exited \(code 3\)/);
  }, 30_000);

  it('an attempt that runs past its time limit is stopped and fails; twice, the job stays failed', async () => {
    const id = await queue('hang', {});
    const runner = new GeoJobRunner(t.ctx, { kinds: KINDS, concurrency: 1, pollMs: 30 });
    await runner.start();
    await runner.idle();
    await runner.stop();
    expect(await row(id)).toMatchObject({ state: 'failed', attempts: 2, error: 'the job ran longer than 0 s and was stopped' });
  }, 30_000);

  it('a newer job of the same kind for the same order supersedes the older one', async () => {
    const older = await queue('sleepy', { ms: 10 }, 4242);
    const newer = await queue('sleepy', { ms: 10 }, 4242);
    expect(await row(older)).toMatchObject({ state: 'failed', error: SUPERSEDED });
    expect(await row(newer)).toMatchObject({ state: 'queued' });
    const other = await queue('sleepy', { ms: 10 }, 4243);
    expect(await row(newer)).toMatchObject({ state: 'queued' });
    const runner = new GeoJobRunner(t.ctx, { kinds: KINDS, concurrency: 2, pollMs: 30 });
    await runner.start();
    await runner.idle();
    await runner.stop();
    expect((await row(newer)).state).toBe('done');
    expect((await row(other)).state).toBe('done');
    expect((await row(older)).state).toBe('failed');
  }, 30_000);

  it('the HTTP loop keeps answering while a job burns CPU in its thread', async () => {
    // Were the job on the HTTP loop, no request would be answered before it ended.
    const id = await queue('spin', { ms: 3000 });
    const runner = new GeoJobRunner(t.ctx, { kinds: KINDS, concurrency: 1, pollMs: 30 });
    await runner.start();
    await until(() => row(id), (r) => r.state === 'running');
    for (let i = 0; i < 10; i++) expect((await t.call('GET', '/version.json')).status).toBe(200);
    expect((await row(id)).state).toBe('running');
    await runner.idle();
    await runner.stop();
    expect((await row(id)).state).toBe('done');
  }, 30_000);
});
