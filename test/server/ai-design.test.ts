// The automatic design around its engine (server/modules/ai) through the real app: saving an
// order with AI on submits it, the autodesign job runs after the teeth job (a fake engine in its
// thread), the design is stored with its wires marked `ai` and aiStatus goes submitted ->
// processing -> ready; its report (wires left out, tags held short) is kept with the design's
// version and served with the design (getDesignData's aiReport, the design's own scope); the built-in engine designs a generated jaw, and fails cleanly with its reasons on one without teeth; retryAI resubmits only
// a failed order of one's own; aiStatistics counts; a bend job of an unaccepted AI wire goes only
// to an AI-enabled device; prescriptions are checked with a message. The user's test and the
// attacker's for each call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRESCRIPTION } from '../../common/prescription.ts';
import { AI_STATUS } from '../../common/orders.ts';
import { autodesignKind } from '../../server/modules/ai/kind.ts';
import { biteKind } from '../../server/modules/geo-jobs/bite.ts';
import { GeoJobRunner } from '../../server/modules/geo-jobs/runner.ts';
import { teethKind } from '../../server/modules/geo-jobs/teeth.ts';
import type { GeoKinds } from '../../server/modules/geo-jobs/types.ts';
import { binaryStl, cubeStl, soupOf } from '../fixtures/stl.ts';
import { teethJaw } from '../fixtures/teeth-jaws.ts';
import { parseDocument } from '../../src/editor/engine/document.ts';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';
import { uploadOne } from './space-helpers.ts';

const KINDS_MODULE = new URL('./geo-test-kinds.ts', import.meta.url).href;
const fake = (fn: string) => ({ module: KINDS_MODULE, fn });

let t: TestServer;
let admin: string;
let anna: string;
let ben: string;
let olga: string;
const ORDER_PERMS = ['order:info:add', 'order:info:update', 'order:info:info', 'order:info:page', 'order:info:list', 'order:info:retryAI'];
const DESIGN_PERMS = ['design:save', 'design:getDesignData', 'design:bend', 'design:retryAI', 'design:aiStatistics'];

beforeAll(async () => {
  t = await setup();
  admin = (await t.login()).token;
  const designer = await createRole(t.ctx, 'designer', [...ORDER_PERMS, ...DESIGN_PERMS]);
  const clerk = await createRole(t.ctx, 'clerk', ['order:info:add', 'order:info:page']);
  await addUser(t, admin, { username: 'anna', password: 'anna-pass', roleIdList: [designer] });
  await addUser(t, admin, { username: 'ben', password: 'ben-pass', roleIdList: [designer] });
  await addUser(t, admin, { username: 'olga', password: 'olga-pass', roleIdList: [clerk] });
  anna = (await t.login('anna', 'anna-pass')).token;
  ben = (await t.login('ben', 'ben-pass')).token;
  olga = (await t.login('olga', 'olga-pass')).token;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', path: string, token: string, body?: unknown, lang = 'en') => t.call(method, path, { token, lang, body });
const info = async (id: number) => (await call('GET', `/admin/order/info/info?id=${id}`, admin)).body.data;
let made = 0;
const model = async (token: string) => (await uploadOne(t, token, { name: `m${++made}.stl`, bytes: cubeStl({ size: 10 + made } as never) }, { kind: 'model' })) as { id: number };

async function addOrder(token: string, extra: Record<string, unknown> = {}) {
  const upper = await model(token);
  const res = await call('POST', '/admin/order/info/add', token, { patientName: 'Pat', upper: upper.id, ...extra });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 1000 });
  return res.body.data.id as number;
}

const KINDS = (engine: { module?: string; fn?: string } = fake('fakeAutodesign')): GeoKinds => ({
  bite: biteKind(fake('fakeBite')),
  teeth: teethKind(fake('fakeTeeth')),
  autodesign: autodesignKind(engine),
});

/** Runs the jobs until none is left; `seen` collects each aiStatus of `watch` the list showed meanwhile. */
async function run(kinds: GeoKinds, watch?: number, seen: number[] = []) {
  const runner = new GeoJobRunner(t.ctx, { kinds, concurrency: 2, pollMs: 20, progressMs: 0 });
  await runner.start();
  let done = false;
  const polling = (async () => {
    while (watch && !done) {
      const s = (await info(watch)).aiStatus as number;
      if (seen.at(-1) !== s) seen.push(s);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  await runner.idle(60_000);
  done = true;
  await polling;
  await runner.stop();
  return seen;
}

describe('automatic design lifecycle', () => {
  let orderId: number;

  it('saving with AI on submits; the job runs after the teeth, processing then ready, the design stored with ai wires', async () => {
    orderId = await addOrder(anna, { enableAI: 1 });
    const before = await info(orderId);
    expect(before).toMatchObject({ enableAI: 1, aiStatus: AI_STATUS.submitted, aiError: null, aiJob: { kind: 'autodesign', state: 'queued' } });
    t.clock.advance(5_000);
    const seen = await run(KINDS(), orderId, [AI_STATUS.submitted]);
    expect(seen).toContain(AI_STATUS.processing);
    const after = await info(orderId);
    expect(after).toMatchObject({ aiStatus: AI_STATUS.ready, aiError: null, aiJob: { state: 'done', progress: 1 } });
    expect(after.aiEndTime).not.toBeNull();
    const design = (await call('GET', `/admin/design/getDesignData?orderId=${orderId}`, anna)).body.data;
    expect(design.version).toBe(1);
    // The lab's default prescription: two clasps and a labial bow on the upper jaw.
    expect(design.data.wires.map((w: any) => [w.type, w.ai])).toEqual(DEFAULT_PRESCRIPTION.upper!.wires.map((w) => [w.type, { accepted: false }]));
  });

  it('the built-in engine designs a generated jaw: ready, its wires on the prescribed teeth, each marked ai', async () => {
    const jaw = await uploadOne(t, anna, { name: 'upper-jaw.stl', bytes: binaryStl(soupOf(teethJaw({ jaw: 'upper', edge: 0.4 }))) }, { kind: 'model' }) as { id: number };
    const res = await call('POST', '/admin/order/info/add', anna, { patientName: 'Pat', upper: jaw.id, enableAI: 1 });
    const id = res.body.data.id as number;
    await run(KINDS({}));
    expect(await info(id)).toMatchObject({ aiStatus: AI_STATUS.ready, aiError: null });
    const design = (await call('GET', `/admin/design/getDesignData?orderId=${id}`, anna)).body.data;
    const doc = parseDocument(design.data);
    expect(doc.wires!.map((w) => [w.type, w.jaw, w.ai])).toEqual(DEFAULT_PRESCRIPTION.upper!.wires.map((w) => [w.type, 'upper', { accepted: false }]));
    for (const w of doc.wires!) expect(w.points.length).toBeGreaterThan(2);
    // Its report is served with the design: every wire placed, and the base's (prescribed: base true).
    const kept = design.aiReport;
    expect(kept.version).toBe(design.version);
    expect(kept.report.wires.map((w: { wireId: string; status: string }) => [w.wireId, w.status])).toEqual(doc.wires!.map((w) => [w.id, 'placed']));
    expect(kept.report.bases.map((b: { jaw: string }) => b.jaw)).toEqual(['upper']);
  });

  it('the built-in engine fails cleanly with its reasons on models with no teeth; retryAI resubmits and a working engine makes it ready', async () => {
    const id = await addOrder(anna, { enableAI: true });
    await run(KINDS({}));
    const failed = await info(id);
    expect(failed.aiStatus).toBe(AI_STATUS.fail);
    expect(failed.aiError).toMatch(/AI detection failed for the single-arm clasp on tooth 16/);
    // Another designer's order is not theirs to retry (as if it did not exist).
    expect((await call('POST', '/admin/design/retryAI', ben, { orderId: id })).body).toMatchObject({ code: 1001, message: 'The order does not exist or you may not design it' });
    // Without the permission.
    expect((await call('POST', '/admin/design/retryAI', olga, { orderId: id })).status).toBe(403);
    expect((await call('POST', '/admin/design/retryAI', anna, { orderId: 'x' })).body.code).toBe(1002);
    const retried = await call('POST', '/admin/design/retryAI', anna, { orderId: id });
    expect(retried.body).toMatchObject({ code: 1000, data: { orderId: id, aiStatus: AI_STATUS.submitted } });
    expect(await info(id)).toMatchObject({ aiStatus: AI_STATUS.submitted, aiError: null, aiEndTime: null });
    // Twice: the first retry already moved it.
    expect((await call('POST', '/admin/design/retryAI', anna, { orderId: id })).body).toMatchObject({ code: 1001, message: 'Only a failed AI design can be retried' });
    await run(KINDS());
    expect(await info(id)).toMatchObject({ aiStatus: AI_STATUS.ready });
    // A ready order is not retried (nor through the order list's call).
    expect((await call('POST', '/admin/design/retryAI', anna, { orderId: id })).body.code).toBe(1001);
    expect((await call('POST', '/admin/order/info/retryAI', anna, { id })).body.code).toBe(1001);
  });

  it('an engine answer that is no design fails with the reason; the order list retry resubmits', async () => {
    const id = await addOrder(anna, { enableAI: 1 });
    await run(KINDS(fake('fakeAutodesignJunk')));
    const failed = await info(id);
    expect(failed.aiStatus).toBe(AI_STATUS.fail);
    expect(failed.aiError).toMatch(/no usable design/);
    expect((await call('POST', '/admin/design/getDesignData', anna)).status).not.toBe(200);
    expect((await call('POST', '/admin/order/info/retryAI', ben, { id })).body.code).toBe(1001);
    expect((await call('POST', '/admin/order/info/retryAI', anna, { id })).body.code).toBe(1000);
    await run(KINDS());
    expect(await info(id)).toMatchObject({ aiStatus: AI_STATUS.ready });
  });

  it('switching AI on for an existing order submits it; switching it off stops it', async () => {
    const id = await addOrder(anna);
    expect(await info(id)).toMatchObject({ enableAI: 0, aiStatus: AI_STATUS.notEnabled, aiJob: null });
    expect((await call('POST', '/admin/order/info/update', anna, { id, enableAI: 1 })).body.code).toBe(1000);
    expect(await info(id)).toMatchObject({ enableAI: 1, aiStatus: AI_STATUS.submitted, aiJob: { state: 'queued' } });
    expect((await call('POST', '/admin/order/info/update', anna, { id, enableAI: 0 })).body.code).toBe(1000);
    expect(await info(id)).toMatchObject({ enableAI: 0, aiStatus: AI_STATUS.notEnabled, aiJob: { state: 'failed' } });
    // Another designer cannot switch it on.
    expect((await call('POST', '/admin/order/info/update', ben, { id, enableAI: 1 })).body.code).toBe(1001);
    expect(await info(id)).toMatchObject({ enableAI: 0, aiStatus: AI_STATUS.notEnabled });
  });

  it('aiStatistics counts by status, success rate and mean time; non-admins count their own', async () => {
    const all = (await call('GET', '/admin/design/aiStatistics?period=all', admin)).body;
    expect(all.code).toBe(1000);
    const s = all.data;
    const rows = await t.ctx.db.selectFrom('order_info').select(['enableAI', 'aiStatus']).execute();
    expect(s.orders).toBe(rows.length);
    expect(s.enabled).toBe(rows.filter((r) => r.enableAI).length);
    expect(s.byStatus.ready).toBe(rows.filter((r) => r.enableAI && r.aiStatus === AI_STATUS.ready).length);
    expect(s.byStatus.ready).toBe(4);
    expect(s.successRate).toBe(1);
    expect(s.meanSeconds).toBeGreaterThanOrEqual(0);
    expect(s.series.reduce((a: number, b: { enabled: number }) => a + b.enabled, 0)).toBe(s.enabled);
    // The dashboard's card reads the same figures.
    expect((await call('POST', '/admin/dashboard/info/aiInfo', admin, { period: 'all' })).body.data).toEqual(s);
    expect((await call('GET', '/admin/design/aiStatistics?period=all', ben)).body.data).toMatchObject({ orders: 0, enabled: 0 });
    expect((await call('GET', '/admin/design/aiStatistics?period=decade', admin)).body.code).toBe(1002);
    expect((await call('GET', '/admin/design/aiStatistics', olga)).status).toBe(403);
  });

  it('a second failure and mean time: the figures move', async () => {
    const id = await addOrder(anna, { enableAI: 1 });
    t.clock.advance(60_000);
    await run(KINDS({}));
    expect((await info(id)).aiStatus).toBe(AI_STATUS.fail);
    const s = (await call('GET', '/admin/design/aiStatistics?period=all', anna)).body.data;
    expect(s.byStatus).toMatchObject({ ready: 4, fail: 1 });
    expect(s.successRate).toBeCloseTo(0.8);
    expect(s.meanSeconds).toBeGreaterThan(0);
  });

  describe('bend jobs of AI wires (devices enableAI)', () => {
    const steps = [{ feed: 5, rotate: 0, bend: 30 }, { feed: 6, rotate: 10, bend: 30 }];
    const device = async (name: string, enableAI: number) =>
      (
        await t.ctx.db
          .insertInto('device_info')
          .values({ devicename: name, personnelId: null, remark: null, enableAI, diameters: '0.8', memory: 100, keyHash: name, keyHint: name, createTime: '2026-01-01 00:00:00', updateTime: '2026-01-01 00:00:00' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const bend = (deviceId: number, wire: Record<string, unknown>, lang = 'en') =>
      call('POST', '/admin/design/bend', admin, { deviceId, orderId, wire: { type: 'singleArmClasp', diameter: 0.8, ...wire }, steps }, lang);

    it('an unaccepted AI wire is refused on a plain device, taken by an AI device; an accepted one goes anywhere', async () => {
      const plain = await device('Plain', 0);
      const smart = await device('Smart', 1);
      const refused = await bend(plain, { id: 'ai-0' });
      expect(refused.body).toMatchObject({ code: 1001 });
      expect(refused.body.message).toMatch(/^AI-generated wires cannot be matched with AI equipment: Plain/);
      expect((await bend(plain, { id: 'ai-0' }, 'zh')).body.message).toMatch(/^AI生成的弓丝无法匹配AI设备/);
      expect((await bend(plain, { id: 'ai-0' }, 'de')).body.message).toMatch(/^KI-generierte Drähte/);
      // The body cannot launder the stored mark away.
      expect((await bend(plain, { id: 'ai-0', ai: { accepted: true } })).body.code).toBe(1001);
      // A wire without id that says it is the engine's: refused too.
      expect((await bend(plain, { ai: { accepted: false } })).body.code).toBe(1001);
      expect((await bend(smart, { id: 'ai-0' })).body).toMatchObject({ code: 1000 });
      // The designer accepts the wire (saves it with ai.accepted): any device takes it.
      const current = (await call('GET', `/admin/design/getDesignData?orderId=${orderId}`, anna)).body.data;
      const wires = current.data.wires.map((w: any) => (w.id === 'ai-0' ? { ...w, ai: { accepted: true } } : w));
      expect((await call('POST', '/admin/design/save', anna, { orderId, baseVersion: current.version, data: { ...current.data, wires } })).body.code).toBe(1000);
      expect((await bend(plain, { id: 'ai-0' })).body).toMatchObject({ code: 1000 });
      expect((await bend(plain, { id: 'ai-1' })).body.code).toBe(1001);
      // A designer's own wire (no ai mark) goes anywhere.
      expect((await bend(plain, { id: 'mine' })).body).toMatchObject({ code: 1000 });
    });
  });
});

describe("the automatic design's report (getDesignData's aiReport)", () => {
  const load = (orderId: number | string, token = anna) => call('GET', `/admin/design/getDesignData?orderId=${orderId}`, token);
  const report = async (orderId: number, token = anna) => (await load(orderId, token)).body.data.aiReport;
  let orderId: number;

  it('is kept with the design version it came with: a wire left out with its reason, a tag held short; no diagnostics', async () => {
    orderId = await addOrder(anna, { enableAI: 1 });
    await run(KINDS(fake('fakeAutodesignLeftOut')));
    expect(await info(orderId)).toMatchObject({ aiStatus: AI_STATUS.ready });
    const res = await load(orderId);
    expect(res.body.code).toBe(1000);
    const [clasp1, clasp2, bow] = DEFAULT_PRESCRIPTION.upper!.wires;
    // Beside the design's own fields, as they were before the report was added.
    expect(Object.keys(res.body.data)).toEqual(['orderId', 'version', 'schemaVersion', 'data', 'updateTime', 'aiReport']);
    expect(res.body.data).toMatchObject({ orderId, version: 1, schemaVersion: 1 });
    expect(res.body.data.aiReport).toEqual({
      orderId,
      version: 1,
      createTime: expect.any(String),
      report: {
        wires: [
          { wireId: 'ai-0', jaw: 'upper', type: clasp1!.type, teeth: clasp1!.teeth, status: 'placed', tipUndercut: 0.25 },
          { wireId: 'ai-1', jaw: 'upper', type: clasp2!.type, teeth: clasp2!.teeth, status: 'placed', tipUndercut: 0.25 },
          { jaw: 'upper', type: bow!.type, teeth: bow!.teeth, status: 'failed', code: 'DETECTION_FAILED', tooth: bow!.teeth[0], message: `AI detection failed on tooth ${bow!.teeth[0]}` },
        ],
        bases: [{ jaw: 'upper', status: 'generated', slots: [{ wireId: 'ai-0', status: 'cut' }], tags: [{ wireId: 'ai-0', inside: 0.2, outside: 1 }] }],
      },
    });
    // An orders admin reads it too.
    expect((await report(orderId, admin)).version).toBe(1);
  });

  it("only for an order whose design the caller may read: another department's designer, no permission, no such order", async () => {
    const now = '2026-01-01 00:00:00';
    const south = await t.ctx.db.insertInto('base_sys_department').values({ name: 'Lab South', parentId: null, createTime: now, updateTime: now }).returning('id').executeTakeFirstOrThrow();
    await t.ctx.db.updateTable('base_sys_user').set({ departmentId: south.id }).where('username', '=', 'ben').execute();
    const theirs = await load(orderId, ben);
    expect(theirs.body).toMatchObject({ code: 1001, message: 'The order does not exist or you may not design it' });
    expect(theirs.body.data).toBeUndefined();
    expect(JSON.stringify(theirs.body)).not.toContain('DETECTION_FAILED');
    const without = await load(orderId, olga);
    expect(without.status).toBe(403);
    expect(JSON.stringify(without.body)).not.toContain('DETECTION_FAILED');
    expect((await load(999_999)).body).toMatchObject({ code: 1001, message: 'The order does not exist or you may not design it' });
    expect((await load('x')).body.code).toBe(1002);
    // An order without a design has neither (the answer as before); a designer's design alone, no report.
    const plain = await addOrder(anna);
    expect((await load(plain)).body).toEqual({ code: 1000, message: 'success', data: null });
    expect((await call('POST', '/admin/design/save', anna, { orderId: plain, baseVersion: 0, data: { schemaVersion: 1 } })).body.code).toBe(1000);
    expect((await load(plain)).body.data).toMatchObject({ version: 1, aiReport: null });
  });

  it("a designer's save keeps it (with its version); the next AI design replaces it; a run that fails leaves it", async () => {
    const current = (await load(orderId)).body.data;
    expect((await call('POST', '/admin/design/save', anna, { orderId, baseVersion: current.version, data: current.data })).body.code).toBe(1000);
    expect((await load(orderId)).body.data).toMatchObject({ version: 2, aiReport: { version: 1 } });
    // Resubmitted: the engine places every wire this time.
    expect((await call('POST', '/admin/order/info/update', anna, { id: orderId, enableAI: 0 })).body.code).toBe(1000);
    expect((await call('POST', '/admin/order/info/update', anna, { id: orderId, enableAI: 1 })).body.code).toBe(1000);
    await run(KINDS());
    expect(await info(orderId)).toMatchObject({ aiStatus: AI_STATUS.ready });
    const replaced = await report(orderId);
    expect(replaced.version).toBe(3);
    expect(replaced.report.wires.map((w: { status: string }) => w.status)).toEqual(['placed', 'placed', 'placed']);
    expect(replaced.report.bases).toEqual([]);
    // A report that is not one fails the run like an unusable design; the kept one stays.
    expect((await call('POST', '/admin/design/retryAI', anna, { orderId })).body.code).toBe(1001);
    expect((await call('POST', '/admin/order/info/update', anna, { id: orderId, enableAI: 0 })).body.code).toBe(1000);
    expect((await call('POST', '/admin/order/info/update', anna, { id: orderId, enableAI: 1 })).body.code).toBe(1000);
    await run(KINDS(fake('fakeAutodesignBadReport')));
    expect(await info(orderId)).toMatchObject({ aiStatus: AI_STATUS.fail, aiError: expect.stringMatching(/no usable design \(an invalid report \(report\.0\.code: /) });
    expect((await load(orderId)).body.data).toMatchObject({ version: 3, aiReport: { version: 3 } });
  });
});

describe('prescriptions', () => {
  const upper = (wires: { type: string; teeth: number[] }[]) => ({ upper: { wires, base: true, diameter: 0.8 }, lower: null });

  it('an order carries its own prescription; the engine designs with it', async () => {
    const p = upper([{ type: 'arrowClasp', teeth: [3, 2] }]);
    const id = await addOrder(anna, { enableAI: 1, prescription: p });
    expect((await info(id)).prescription).toEqual(p);
    await run(KINDS());
    const design = (await call('GET', `/admin/design/getDesignData?orderId=${id}`, anna)).body.data;
    expect(design.data.wires).toEqual([{ id: 'ai-0', type: 'arrowClasp', teeth: [3, 2], ai: { accepted: false } }]);
    // Back to the lab's default.
    expect((await call('POST', '/admin/order/info/update', anna, { id, prescription: null })).body.code).toBe(1000);
    expect((await info(id)).prescription).toBeNull();
  });

  it('bad teeth are refused with a message naming the jaw, the wire and the teeth', async () => {
    const upperModel = await model(anna);
    const add = (prescription: unknown, lang = 'en') => call('POST', '/admin/order/info/add', anna, { patientName: 'Pat', upper: upperModel.id, prescription }, lang);
    const wrongJaw = await add(upper([{ type: 'singleArmClasp', teeth: [20] }]));
    expect(wrongJaw.body).toMatchObject({ code: 1002 });
    expect(wrongJaw.body.message).toBe('Prescription, upper jaw: the single-arm clasp is on teeth 20 (FDI 35), which are not all teeth of the upper jaw');
    expect((await add(upper([{ type: 'singleArmClasp', teeth: [20] }]), 'zh')).body.message).toMatch(/^处方（上颌）/);
    expect((await add(upper([{ type: 'arrowClasp', teeth: [3, 5] }]))).body.message).toMatch(/needs two neighbouring teeth/);
    expect((await add(upper([{ type: 'labialBow', teeth: [6] }]))).body.message).toMatch(/goes on 2 teeth/);
    expect((await add(upper([{ type: 'labialBow', teeth: [6, 6] }]))).body.message).toMatch(/two different teeth/);
    expect((await add(upper([{ type: 'hyraxScrew', teeth: [6] }]))).body).toMatchObject({ code: 1002, message: expect.stringMatching(/prescription\.upper\.wires\.0\.type/) });
    expect((await add({ upper: { wires: [], base: true, diameter: 2 }, lower: null })).body.code).toBe(1002);
    expect((await add('[]')).body.code).toBe(1002);
    const count = await t.ctx.db.selectFrom('order_info').select(t.ctx.db.fn.countAll().as('n')).where('upperFileId', '=', upperModel.id).executeTakeFirst();
    expect(Number(count?.n)).toBe(0);
  });

  it("the lab's default lives in the system params, checked the same way", async () => {
    const row = await t.ctx.db.selectFrom('base_sys_param').select(['id', 'data']).where('keyName', '=', 'aiPrescription').executeTakeFirstOrThrow();
    expect(JSON.parse(row.data!)).toEqual(DEFAULT_PRESCRIPTION);
    const bad = await call('POST', '/admin/base/sys/param/update', admin, { id: row.id, data: JSON.stringify(upper([{ type: 'singleArmClasp', teeth: [20] }])) });
    expect(bad.body).toMatchObject({ code: 1002 });
    expect(bad.body.message).toMatch(/^Prescription, upper jaw/);
    expect((await call('POST', '/admin/base/sys/param/update', admin, { id: row.id, data: 'not json' })).body.code).toBe(1002);
    const mine = upper([{ type: 'singleArmClasp', teeth: [14] }]);
    expect((await call('POST', '/admin/base/sys/param/update', admin, { id: row.id, data: JSON.stringify(mine) })).body.code).toBe(1000);
    const id = await addOrder(anna, { enableAI: 1 });
    await run(KINDS());
    const design = (await call('GET', `/admin/design/getDesignData?orderId=${id}`, anna)).body.data;
    expect(design.data.wires.map((w: any) => w.teeth)).toEqual([[14]]);
  });
});
