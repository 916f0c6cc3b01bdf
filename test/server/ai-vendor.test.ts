// An outside AI service in place of the built-in engine (server/modules/ai/vendor*.ts), with a fake
// service as its own process (fake-ai-vendor.ts) and the real server on a free port: the entry's
// secret shown once; the signed job, the model links the service fetches without a session, its
// signed callback storing the design (ready) with its report, or failing the order; forged, stale, replayed
// (also two copies at once), misdirected, oversize and invalid callbacks (bad reports too) refused with nothing
// changed; a refusing or unreachable service and a missed deadline fail the order with the
// reason; retryAI sends it again; tampered and expired links refused; the secret in no log.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_CALLBACK_MAX_BYTES, type AiVendorJob } from '../../common/ai-vendor.ts';
import { AI_STATUS } from '../../common/orders.ts';
import { newNonce, signature } from '../../server/core/signature.ts';
import { autodesignKind } from '../../server/modules/ai/kind.ts';
import { AI_CALLBACK_MAX_PER_WINDOW } from '../../server/modules/ai/vendor-routes.ts';
import { biteKind } from '../../server/modules/geo-jobs/bite.ts';
import { GeoJobRunner } from '../../server/modules/geo-jobs/runner.ts';
import { teethKind } from '../../server/modules/geo-jobs/teeth.ts';
import { cubeStl } from '../fixtures/stl.ts';
import { signedPost } from './ai-vendor-signer.ts';
import { addUser, createRole, manualClock, setup, type TestServer } from './helpers.ts';
import { uploadOne } from './space-helpers.ts';

const KINDS_MODULE = new URL('./geo-test-kinds.ts', import.meta.url).href;
const fake = (fn: string) => ({ module: KINDS_MODULE, fn });
const KINDS = { bite: biteKind(fake('fakeBite')), teeth: teethKind(fake('fakeTeeth')), autodesign: autodesignKind(fake('fakeAutodesign')) };

let t: TestServer;
let server: ServerType;
let base: string;
let vendor: ChildProcess;
let vendorUrl: string;
let admin: string;
let anna: string;
let entry: { id: number; secret: string };
let other: { id: number; secret: string };
const secrets: string[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Polls `check` (a bounded number of times) until it answers something truthy. */
async function until<T>(check: () => Promise<T>, what: string, tries = 500): Promise<NonNullable<T>> {
  for (let i = 0; i < tries; i++) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`not reached: ${what}`);
}

const control = (mode: 'design' | 'fail' | 'refuse' | 'silent', secret = entry.secret) =>
  fetch(`${vendorUrl}/control`, { method: 'POST', body: JSON.stringify({ secret, mode }) });
const vendorJobs = async () => (await (await fetch(`${vendorUrl}/jobs`)).json()) as { job: AiVendorJob; keyId: string; authorization: string | null; fetched: Record<string, number>; callback?: { status: number; body: any } }[];
const call = (method: 'GET' | 'POST', p: string, token: string, body?: unknown) => t.call(method, p, { token, lang: 'en', body });
const info = async (id: number) => (await call('GET', `/admin/order/info/info?id=${id}`, admin)).body.data;
let made = 0;

async function addOrder() {
  const upper = (await uploadOne(t, anna, { name: `v${++made}.stl`, bytes: cubeStl({ size: 20 + made } as never) }, { kind: 'model' })) as { id: number };
  const res = await call('POST', '/admin/order/info/add', anna, { patientName: 'Pat', upper: upper.id, enableAI: 1 });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 1000 });
  return res.body.data.id as number;
}

async function runJobs() {
  const runner = new GeoJobRunner(t.ctx, { kinds: KINDS, concurrency: 2, pollMs: 20, progressMs: 0 });
  await runner.start();
  await runner.idle(60_000);
  await runner.stop();
}

/** The order once its automatic design left `processing`. */
const settled = (id: number) => until(async () => ((await info(id)).aiStatus !== AI_STATUS.processing ? info(id) : null), `order ${id} settled`);

/** An order the (silent) service holds, and the job it got once its links were fetched. */
async function heldOrder() {
  await control('silent');
  const id = await addOrder();
  await runJobs();
  const job = await until(async () => (await vendorJobs()).find((j) => j.job.orderId === id && Object.keys(j.fetched).length === Object.keys(j.job.files).length), `job of ${id}`);
  expect((await info(id)).aiStatus).toBe(AI_STATUS.processing);
  return { id, job: job.job };
}

const callbackUrl = (job: AiVendorJob, type: string, jaw: string, orderId = job.orderId) => `${base}/admin/base/open/aiCallBack/${orderId}/${type}/${jaw}`;
const goodDesign = (job: AiVendorJob) => ({ jobId: job.jobId, design: { schemaVersion: 1, wires: [{ id: 'w1', type: 'labialBow', jaw: 'upper', points: [] }] } });
const post = async (url: string, body: unknown, o: { key?: { id: number; secret: string }; at?: number; nonce?: string } = {}) => {
  const k = o.key ?? entry;
  const res = await signedPost(url, String(k.id), k.secret, typeof body === 'string' ? body : JSON.stringify(body), { ...o, headers: { 'Accept-Language': 'en' } });
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data?: any } };
};

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // The clock starts now: the fake service signs with its own clock.
  t = await setup({ PUBLIC_URL: base }, { clock: manualClock(Date.now()) });
  server = serve({ fetch: t.app.fetch, port, hostname: '127.0.0.1' });
  vendor = spawn(process.execPath, ['--import', 'tsx', 'test/server/fake-ai-vendor.ts'], { cwd: path.resolve(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  vendor.stderr!.on('data', (b) => (out += b));
  const vport = await new Promise<number>((resolve, reject) => {
    vendor.stdout!.on('data', (b) => {
      out += b;
      const m = /LISTENING (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    vendor.once('exit', (code) => reject(new Error(`fake vendor exited (${code}): ${out}`)));
  });
  vendorUrl = `http://127.0.0.1:${vport}`;
  admin = (await t.login()).token;
  const designer = await createRole(t.ctx, 'designer', ['order:info:add', 'order:info:info', 'design:getDesignData', 'design:retryAI']);
  await addUser(t, admin, { username: 'anna', password: 'anna-pass', roleIdList: [designer] });
  anna = (await t.login('anna', 'anna-pass')).token;
}, 60_000);

afterAll(async () => {
  vendor?.kill('SIGTERM');
  await new Promise<void>((r) => server?.close(() => r()));
  await t?.close();
});

describe('signing', () => {
  it("docs/ai-vendor.md's worked example", async () => {
    const body = '{"jobId":12,"reason":"no teeth found"}';
    const p = { method: 'POST', path: '/admin/base/open/aiCallBack/7/fail/both', timestamp: '1767254400', nonce: 'n0nce-example-00001', body };
    expect(signature('example-secret-do-not-use', p)).toBe('631abebcbcf6185f219360500bd72af38b8dcb745306ddc21b33e04a66556def');
  });
});

describe('the entry and its secret', () => {
  it('add shows a new secret once; info, list and page never carry it; the kind is kept', async () => {
    const res = await call('POST', '/admin/device/apiConfig/add', admin, { name: 'Vendor', url: `${vendorUrl}/job`, kind: 'aiService', key: 'vendor-api-key-0001' });
    expect(res.body.code).toBe(1000);
    const secret = res.body.data.secret as string;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    entry = { id: res.body.data.id, secret };
    secrets.push(secret);
    const shown = [
      await call('GET', `/admin/device/apiConfig/info?id=${entry.id}`, admin),
      await call('POST', '/admin/device/apiConfig/list', admin, {}),
      await call('POST', '/admin/device/apiConfig/page', admin, {}),
    ];
    for (const r of shown) expect(JSON.stringify(r.body)).not.toContain(secret);
    expect(shown[0]!.body.data).toMatchObject({ kind: 'aiService', keyHint: '••••0001' });
    expect(shown[0]!.body.data).not.toHaveProperty('secret');
    // A partner by default; the kind must be one of the two.
    const partner = await call('POST', '/admin/device/apiConfig/add', admin, { name: 'Partner', url: 'https://partner.example' });
    expect((await call('GET', `/admin/device/apiConfig/info?id=${partner.body.data.id}`, admin)).body.data.kind).toBe('partner');
    secrets.push(partner.body.data.secret);
    expect((await call('POST', '/admin/device/apiConfig/add', admin, { name: 'X', url: 'https://x.example', kind: 'robot' })).body.code).toBe(1002);
    // Another service's entry, of a department no order here belongs to.
    const o = await call('POST', '/admin/device/apiConfig/add', admin, { name: 'Other', url: `${vendorUrl}/job`, kind: 'aiService', departmentId: 424242 });
    other = { id: o.body.data.id, secret: o.body.data.secret };
    secrets.push(other.secret);
  });

  it('rotateSecret answers a new secret once; a caller without the permission is refused', async () => {
    expect((await call('POST', '/admin/device/apiConfig/rotateSecret', anna, { id: entry.id })).status).toBe(403);
    expect((await call('POST', '/admin/device/apiConfig/rotateSecret', admin, { id: 'x' })).body.code).toBe(1002);
    const res = await call('POST', '/admin/device/apiConfig/rotateSecret', admin, { id: entry.id });
    expect(res.body.data.id).toBe(entry.id);
    expect(res.body.data.secret).not.toBe(entry.secret);
    entry.secret = res.body.data.secret;
    secrets.push(entry.secret);
    expect(JSON.stringify((await call('GET', `/admin/device/apiConfig/info?id=${entry.id}`, admin)).body)).not.toContain(entry.secret);
  });
});

describe('the exchange', () => {
  it('the service gets the signed job, fetches the model, and its callback makes the order ready with its design', async () => {
    await control('design');
    const id = await addOrder();
    await runJobs();
    const after = await settled(id);
    expect(after).toMatchObject({ aiStatus: AI_STATUS.ready, aiError: null });
    const got = (await vendorJobs()).find((j) => j.job.orderId === id)!;
    expect(got.keyId).toBe(String(entry.id));
    expect(got.authorization).toBe('Bearer vendor-api-key-0001');
    expect(got.job.jaws).toEqual(['upper']);
    expect(got.fetched.upper).toBeGreaterThan(84);
    expect(got.job.callback).toBe(`${base}/admin/base/open/aiCallBack/${id}/{type}/{jawType}`);
    expect(got.callback).toMatchObject({ status: 200, body: { code: 1000, data: { orderId: id, aiStatus: AI_STATUS.ready } } });
    const design = (await call('GET', `/admin/design/getDesignData?orderId=${id}`, anna)).body.data;
    expect(design.data.vendor).toBe('fake');
    // The service's wires are the engine's until accepted, whatever it sent.
    expect(design.data.wires.length).toBeGreaterThan(0);
    for (const w of design.data.wires) expect(w.ai).toEqual({ accepted: false });
    // Its report is served with the design, as the built-in engine's.
    const kept = design.aiReport;
    expect(kept).toMatchObject({ orderId: id, version: design.version, report: { bases: [] } });
    expect(kept.report.wires.map((w: { wireId: string; status: string }) => [w.wireId, w.status])).toEqual(design.data.wires.map((w: { id: string }) => [w.id, 'placed']));
  });

  it('while the AI service connector plugin is disabled, orders go to the built-in engine', async () => {
    expect((await call('POST', '/admin/plugin/info/enable', admin, { key: 'aiService', status: 0 })).body.code).toBe(1000);
    try {
      await control('design');
      const id = await addOrder();
      await runJobs();
      await settled(id);
      expect((await vendorJobs()).some((j) => j.job.orderId === id)).toBe(false);
    } finally {
      await call('POST', '/admin/plugin/info/enable', admin, { key: 'aiService', status: 1 });
    }
  });

  it('forged, stale, replayed, misdirected, oversize and invalid callbacks are refused and change nothing; then a good one is stored', async () => {
    const { id, job } = await heldOrder();
    const url = callbackUrl(job, 'design', 'upper');
    const good = goodDesign(job);
    // Wrong secret, a signature over another body, a stale timestamp, no headers.
    expect((await post(url, good, { key: { id: entry.id, secret: 'not-the-secret' } })).status).toBe(401);
    expect((await post(url, good, { at: Date.now() - 6 * 60_000 })).body.message).toMatch(/more than 5 minutes/);
    expect((await post(url, good, { at: Date.now() + 6 * 60_000 })).status).toBe(401);
    const unsigned = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(good) });
    expect(unsigned.status).toBe(401);
    // Replayed: the same request again, and two copies at once (an unusable design, so that the one let through changes nothing).
    const junk = { jobId: job.jobId, design: { schemaVersion: 99, wires: [] } };
    const nonce = newNonce();
    const at = Date.now();
    expect((await post(url, junk, { nonce, at })).body.code).toBe(1002);
    expect((await post(url, junk, { nonce, at })).body.message).toMatch(/already used/);
    const twice = newNonce();
    const both = await Promise.all([post(url, junk, { nonce: twice, at }), post(url, junk, { nonce: twice, at })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
    // Another order, another entry's key, another job id.
    const otherOrder = await addOrder();
    expect((await post(callbackUrl(job, 'design', 'upper', otherOrder), good)).status).toBe(409);
    expect((await post(url, good, { key: other })).status).toBe(409);
    expect((await post(url, { ...good, jobId: job.jobId + 1000 })).status).toBe(409);
    // Too large, not a design, a wire of an unknown type, a jaw the order has no model of, a wire outside the callback's jaws.
    const big = JSON.stringify({ ...good, pad: 'x'.repeat(AI_CALLBACK_MAX_BYTES) });
    expect((await post(url, big)).status).toBe(413);
    expect((await post(url, { jobId: job.jobId })).body.code).toBe(1002);
    expect((await post(url, { jobId: job.jobId, design: { schemaVersion: 1, wires: [{ type: 'rubberBand' }] } })).body.code).toBe(1002);
    expect((await post(callbackUrl(job, 'design', 'both'), good)).body).toMatchObject({ code: 1002, message: expect.stringMatching(/lower jaw/) });
    expect((await post(url, { jobId: job.jobId, design: { schemaVersion: 1, wires: [{ type: 'labialBow', jaw: 'lower' }] } })).body.code).toBe(1002);
    expect((await post(callbackUrl(job, 'nonsense', 'upper'), good)).status).toBe(404);
    // A report that is not one: refused like a bad design (an unknown code, no status, too many entries, a third base, a tag with no wire).
    const entry0 = { wireId: 'w1', jaw: 'upper', type: 'labialBow', teeth: [6, 11] };
    for (const bad of [
      { report: [{ ...entry0, status: 'failed', code: 'TOO_HARD' }] },
      { report: [entry0] },
      { report: Array.from({ length: 201 }, () => ({ ...entry0, status: 'placed' })) },
      { bases: ['upper', 'lower', 'upper'].map((jaw) => ({ jaw, status: 'generated', slots: [] })) },
      { bases: [{ jaw: 'upper', status: 'generated', slots: [], tags: [{ inside: 0.2, outside: 1 }] }] },
      { report: 'all fine' },
    ]) {
      expect((await post(url, { ...good, ...bad })).body.code, JSON.stringify(bad).slice(0, 200)).toBe(1002);
    }
    expect((await info(id)).aiStatus).toBe(AI_STATUS.processing);
    expect((await call('GET', `/admin/design/getDesignData?orderId=${id}`, anna)).body.data).toBeNull();
    // The real one: a report of the first contract (ok, and fields of its own) is still taken, as placed.
    const report = [{ wireId: 'w1', jaw: 'upper', type: 'labialBow', teeth: [6, 11], ok: true, note: 'dropped' }];
    const bases = [{ jaw: 'upper', status: 'generated', slots: [{ wireId: 'w1', status: 'cut' }], tags: [{ wireId: 'w1', inside: -0.3, outside: 2 }] }];
    const res = await post(url, { ...good, report, bases });
    expect(res.body).toMatchObject({ code: 1000, data: { orderId: id, aiStatus: AI_STATUS.ready } });
    const wires = [{ wireId: 'w1', jaw: 'upper', type: 'labialBow', teeth: [6, 11], status: 'placed' }];
    const kept = await t.ctx.db.selectFrom('geo_job').select('result').where('id', '=', job.jobId).executeTakeFirstOrThrow();
    expect(JSON.parse(kept.result!)).toEqual({ handedTo: entry.id, report: wires });
    const stored = (await call('GET', `/admin/design/getDesignData?orderId=${id}`, anna)).body.data;
    expect(stored.aiReport).toMatchObject({ orderId: id, version: 1, report: { wires, bases } });
    expect(stored.data.wires).toEqual([{ id: 'w1', type: 'labialBow', jaw: 'upper', points: [], ai: { accepted: false } }]);
    // Once ready, nothing more is taken.
    expect((await post(url, good)).status).toBe(409);
  });

  it('a service that cannot design fails the order with its reason; retryAI sends it again', async () => {
    await control('fail');
    const id = await addOrder();
    await runJobs();
    const failed = await settled(id);
    expect(failed.aiStatus).toBe(AI_STATUS.fail);
    expect(failed.aiError).toBe('the AI service could not design it: no teeth found on the upper model');
    const sent = (await vendorJobs()).filter((j) => j.job.orderId === id).length;
    await control('design');
    expect((await call('POST', '/admin/design/retryAI', anna, { orderId: id })).body.code).toBe(1000);
    await runJobs();
    expect((await settled(id)).aiStatus).toBe(AI_STATUS.ready);
    expect((await vendorJobs()).filter((j) => j.job.orderId === id).length).toBe(sent + 1);
  });

  it('a service that refuses the job, or cannot be reached, fails the order with the reason', async () => {
    await control('refuse');
    const refused = await addOrder();
    await runJobs();
    expect(await info(refused)).toMatchObject({ aiStatus: AI_STATUS.fail, aiError: expect.stringMatching(/^the AI service refused the job \(HTTP 503: .*queue is full/) });
    const closed = await freePort();
    await call('POST', '/admin/device/apiConfig/update', admin, { id: entry.id, url: `http://127.0.0.1:${closed}/job` });
    const unreachable = await addOrder();
    await runJobs();
    expect(await info(unreachable)).toMatchObject({ aiStatus: AI_STATUS.fail, aiError: expect.stringMatching(/^the AI service could not be reached/) });
    await call('POST', '/admin/device/apiConfig/update', admin, { id: entry.id, url: `${vendorUrl}/job` });
  });
});

describe('model links and the deadline', () => {
  /** An order sent before the clock moves on (the service checks the job's timestamp with its own clock). */
  let waiting: number;

  it('a link works without a session; tampered, for another file, or expired it is refused', async () => {
    waiting = (await heldOrder()).id;
    const { id, job } = await heldOrder();
    const link = job.files.upper!.url;
    expect((await fetch(link)).status).toBe(200);
    const u = new URL(link);
    const sig = u.searchParams.get('sig')!;
    const tampered = new URL(link);
    tampered.searchParams.set('sig', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
    expect((await fetch(tampered)).status).toBe(404);
    const later = new URL(link);
    later.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600));
    expect((await fetch(later)).status).toBe(404);
    const otherFile = new URL(link.replace(`/${id}/${job.files.upper!.fileId}?`, `/${id}/${job.files.upper!.fileId + 1}?`));
    expect((await fetch(otherFile)).status).toBe(404);
    t.clock.advance(31 * 60_000);
    expect((await fetch(link)).status).toBe(404);
  });

  it('an order whose answer does not come by the deadline fails with the reason', async () => {
    expect((await info(waiting)).aiStatus).toBe(AI_STATUS.processing);
    t.clock.advance(30 * 60_000);
    await runJobs();
    expect(await info(waiting)).toMatchObject({ aiStatus: AI_STATUS.fail, aiError: 'the AI service did not answer within 60 minutes' });
  });

  it('callbacks beyond the limit of the window are refused (429)', async () => {
    const url = `${base}/admin/base/open/aiCallBack/${await addOrder()}/fail/both`;
    const statuses = new Set<number>();
    for (let i = 0; i < AI_CALLBACK_MAX_PER_WINDOW; i++) {
      const r = await post(url, { jobId: 1, reason: 'x' }, { key: other, at: t.clock.now() });
      statuses.add(r.status);
      if (r.status === 429) break;
    }
    expect(statuses.has(409)).toBe(true);
    expect((await post(url, { jobId: 1, reason: 'x' }, { key: other, at: t.clock.now() })).body).toMatchObject({ code: 1001, message: expect.stringMatching(/Too many callbacks/) });
  });

  it('no secret is in the request log or the server log', async () => {
    const rows = await t.ctx.db.selectFrom('base_sys_log').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    const logged = JSON.stringify(rows) + t.logger.lines.join('\n');
    for (const s of secrets) expect(logged).not.toContain(s);
  });
});
