// The order lifecycle (transitions, history, the bite job) and the editor's order calls under
// /admin/design/*: for each, the user's test and the attacker's (another designer, a user
// without the permission, a forged body).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryStl, cubeStl, soupOf, sphereStl } from '../fixtures/stl.ts';
import { generatedBite } from '../fixtures/bite-jaws.ts';
import { centroid, mul, randomPose, rng, transformed, transformError } from '../fixtures/bite-poses.ts';
import { biteKind } from '../../server/modules/geo-jobs/bite.ts';
import { GeoJobRunner } from '../../server/modules/geo-jobs/runner.ts';
import { checkBent } from '../../server/modules/order/lifecycle.ts';
import { keepReport } from '../../server/modules/ai/report.ts';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';
import { download, uploadOne } from './space-helpers.ts';

const KINDS_MODULE = new URL('./geo-test-kinds.ts', import.meta.url).href;

let t: TestServer;
let admin: string;
let anna: string;
let ben: string;
let maker: string;
let olga: string;
let annaId: number;
let benId: number;
let olgaId: number;
const ORDER_PERMS = ['order:info:add', 'order:info:update', 'order:info:info', 'order:info:page', 'order:info:list', 'order:info:history'];
const DESIGN_PERMS = ['design:save', 'design:getDesignData', 'design:submit', 'design:bend', 'design:designer'];

beforeAll(async () => {
  t = await setup();
  admin = (await t.login()).token;
  const designer = await createRole(t.ctx, 'designer', [...ORDER_PERMS, ...DESIGN_PERMS]);
  const manufacturer = await createRole(t.ctx, 'manufacturer', ['order:info:add', 'design:designer']);
  const clerk = await createRole(t.ctx, 'clerk', ['order:info:add', 'order:info:page']);
  annaId = await addUser(t, admin, { username: 'anna', password: 'anna-pass', roleIdList: [designer] });
  benId = await addUser(t, admin, { username: 'ben', password: 'ben-pass', roleIdList: [designer] });
  await addUser(t, admin, { username: 'maker', password: 'maker-pass', roleIdList: [manufacturer] });
  olgaId = await addUser(t, admin, { username: 'olga', password: 'olga-pass', roleIdList: [clerk] });
  anna = (await t.login('anna', 'anna-pass')).token;
  ben = (await t.login('ben', 'ben-pass')).token;
  maker = (await t.login('maker', 'maker-pass')).token;
  olga = (await t.login('olga', 'olga-pass')).token;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', path: string, token: string, body?: unknown) => t.call(method, path, { token, lang: 'en', body });
const post = (path: string, token: string, body: unknown) => call('POST', `/admin/design/${path}`, token, body);
const get = (path: string, token: string) => call('GET', `/admin/design/${path}`, token);
const model = (token: string, name = 'm.stl', bytes: Uint8Array = cubeStl()) => uploadOne(t, token, { name, bytes }, { kind: 'model' });
const info = async (id: number, token = admin) => (await call('GET', `/admin/order/info/info?id=${id}`, token)).body.data;
const history = async (id: number, token = admin) => (await call('GET', `/admin/order/info/history?id=${id}`, token)).body.data;
const NOT_YOURS = { code: 1001, message: 'The order does not exist or you may not design it' };

async function addOrder(token: string, body: Record<string, unknown> = {}) {
  const upper = await model(token, 'upper.stl');
  const res = await call('POST', '/admin/order/info/add', token, { patientName: 'Pat', upperFileId: upper.id, ...body });
  expect(res.body).toMatchObject({ code: 1000 });
  return res.body.data.id as number;
}
async function addWithBite(token: string) {
  const upper = await model(token, 'upper.stl');
  const lower = await model(token, 'lower.stl', sphereStl());
  const occlusion = await model(token, 'bite.stl', sphereStl());
  return addOrder(token, { upperFileId: upper.id, lowerFileId: lower.id, occlusionFileId: occlusion.id });
}
async function runBites(fn = 'fakeBite') {
  const runner = new GeoJobRunner(t.ctx, { kinds: { bite: biteKind({ module: KINDS_MODULE, fn }) }, concurrency: 1, pollMs: 30 });
  await runner.start();
  await runner.idle();
  await runner.stop();
}
const WIRES = [
  { id: 'w1', type: 'labialBow' },
  { id: 'w2', type: 'arrowClasp' },
];
async function saveDesign(token: string, orderId: number, baseVersion = 0) {
  const res = await post('save', token, { orderId, baseVersion, data: { schemaVersion: 1, wires: WIRES } });
  expect(res.body.code).toBe(1000);
  return res.body.data.version as number;
}
const drc = (token: string, orderId: number, designVersion: number, passed = true) =>
  post('updateDRC', token, { orderId, designVersion, passed, issues: passed ? [] : [{ code: 'WIRE_TOO_SHORT', severity: 'error', wireId: 'w1' }] });

describe('bite registration job', () => {
  it('an order added with an occlusion model is in bite registration until its job ends, then in design with the bite stored', async () => {
    const id = await addWithBite(anna);
    const queued = await info(id, anna);
    expect(queued).toMatchObject({ status: 3, biteJob: { kind: 'bite', state: 'queued', progress: 0, attempts: 0, error: null } });
    const page = await call('POST', '/admin/order/info/page', anna, { status: 3 });
    expect(page.body.data.list.map((r: any) => r.id)).toContain(id);
    expect(page.body.data.list.find((r: any) => r.id === id).biteJob.state).toBe('queued');
    await runBites();
    expect(await info(id, anna)).toMatchObject({ status: 0, biteJob: { state: 'done', progress: 1, attempts: 1 } });
    expect((await history(id, anna)).map((h: any) => [h.fromStatus, h.toStatus, h.reason, h.userName, h.detail])).toEqual([
      [null, 0, 'created', 'anna', null],
      [0, 3, 'models', 'anna', null],
      [3, 0, 'bite', null, null],
    ]);
    const occlusal = (await get(`getOcclusalModelData?orderId=${id}`, anna)).body.data;
    expect(occlusal).toMatchObject({ orderId: id, occlusion: { name: 'bite.stl' }, job: { state: 'done' }, bite: { source: 'auto', rms: 0.05, overlap: 0.8 } });
    expect(occlusal.bite.upper).toHaveLength(16);
  }, 30_000);

  it('a registration that finds no fit still ends the wait: status 0, the reason in history and in getOcclusalModelData, no bite', async () => {
    const id = await addWithBite(anna);
    await runBites('fakeBitePoor');
    expect((await info(id, anna)).status).toBe(0);
    expect((await history(id, anna)).at(-1)).toMatchObject({ fromStatus: 3, toStatus: 0, reason: 'bite', userId: null, detail: 'the bite scan does not fit the models' });
    expect((await get(`getOcclusalModelData?orderId=${id}`, anna)).body.data).toMatchObject({ job: { state: 'done' }, bite: null });
  }, 30_000);

  it('a job that fails twice ends the wait too, with its reason', async () => {
    const id = await addWithBite(anna);
    await runBites('failAlways');
    expect(await info(id, anna)).toMatchObject({ status: 0, biteJob: { state: 'failed', attempts: 2, error: 'the kernel said no' } });
    expect((await history(id, anna)).at(-1)).toMatchObject({ reason: 'bite', detail: 'the kernel said no' });
  }, 30_000);

  it('replacing a model starts a new job that supersedes the older one', async () => {
    const id = await addWithBite(anna);
    const first = (await info(id, anna)).biteJob.id;
    const lower = await model(anna, 'lower2.stl', sphereStl({ radius: 6 } as never));
    expect((await call('POST', '/admin/order/info/update', anna, { id, lowerFileId: lower.id })).body.code).toBe(1000);
    const now = await info(id, anna);
    expect(now.status).toBe(3);
    expect(now.biteJob.id).not.toBe(first);
    const old = await t.ctx.db.selectFrom('geo_job').selectAll().where('id', '=', first).executeTakeFirstOrThrow();
    expect(old).toMatchObject({ state: 'failed', error: 'superseded by a newer job' });
    await runBites();
    expect((await info(id, anna)).status).toBe(0);
  }, 30_000);

  // Through the real kernel (workers/kernels/bite.ts and build/kernels.wasm), in the job's thread:
  // a generated patient whose upper jaw arrives moved; the stored bite must undo that move.
  const realKernel = fs.existsSync(new URL('../../build/kernels.wasm', import.meta.url));
  it.skipIf(!realKernel)('the bite kind registers a moved jaw with the real kernel in its thread', async () => {
    // Crowns about 0.4 mm into each other in the true bite: the order's bite resolves that.
    const jaws = generatedBite({ seed: 7, gap: -1.6 });
    const pose = randomPose(rng(11), centroid(jaws.upper.positions));
    const movedUpper = { positions: transformed(pose, jaws.upper.positions).positions, indices: jaws.upper.indices };
    const upper = await model(anna, 'upper.stl', binaryStl(soupOf(movedUpper)));
    const lower = await model(anna, 'lower.stl', binaryStl(soupOf(jaws.lower)));
    const occlusion = await model(anna, 'bite.stl', binaryStl(soupOf(jaws.bite)));
    const id = await addOrder(anna, { upperFileId: upper.id, lowerFileId: lower.id, occlusionFileId: occlusion.id });
    expect((await info(id, anna)).status).toBe(3);
    const runner = new GeoJobRunner(t.ctx, { kinds: { bite: biteKind() }, concurrency: 1, pollMs: 30 });
    await runner.start();
    await runner.idle(120_000);
    await runner.stop();
    expect((await info(id, anna)).status).toBe(0);
    const data = (await get(`getOcclusalModelData?orderId=${id}`, anna)).body.data;
    expect(data.job.state).toBe('done');
    expect(data.bite.error).toBeUndefined();
    expect(data.bite.source).toBe('auto');
    // The stored upper transform composed with the move is the identity; the lower stays.
    const upperError = transformError(mul(data.bite.upper, pose), jaws.upper.positions);
    expect(upperError.deg).toBeLessThan(0.1);
    expect(upperError.mm).toBeLessThan(0.05);
    // Penetration reported, and resolved along the occlusal direction down to 0.05 mm: moved back
    // by `resolved`, the lower is the true bite.
    expect(data.bite.penetration).toBeGreaterThan(0.2);
    expect(data.bite.resolved).toBeCloseTo(data.bite.penetration - 0.05, 1);
    const [ox, oy, oz] = data.bite.occlusal as number[];
    const back = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -ox! * data.bite.resolved, -oy! * data.bite.resolved, -oz! * data.bite.resolved, 1];
    expect(transformError(mul(back, data.bite.lower), jaws.lower.positions).mm).toBeLessThan(0.05);
    expect(data.bite.rms).toBeLessThan(0.06);
    expect(data.bite.overlap).toBeGreaterThan(0.7);
  }, 150_000);

  it('getOcclusalModelData and history answer only within the order scope', async () => {
    const id = await addWithBite(anna);
    expect((await get(`getOcclusalModelData?orderId=${id}`, ben)).body).toEqual(NOT_YOURS);
    expect((await call('GET', `/admin/order/info/history?id=${id}`, ben)).body.code).toBe(1001);
    expect((await get('getOcclusalModelData?orderId=abc', anna)).body.code).toBe(1002);
    expect((await call('GET', `/admin/order/info/history?id=${id}`, olga)).status).toBe(403);
    await runBites();
  }, 30_000);
});

describe('submit, reopen, processed', () => {
  it('submit needs a design and a passing check of its current version; then 0 -> 1 with designEndTime; reopen 1 -> 0', async () => {
    const id = await addOrder(anna);
    expect((await post('submit', anna, { orderId: id })).body.message).toBe('The order has no saved design yet');
    const v1 = await saveDesign(anna, id);
    expect((await post('submit', anna, { orderId: id })).body.message).toMatch(/Run the design rule check .*version 1/);
    expect((await drc(anna, id, v1, false)).body.code).toBe(1000);
    expect((await post('submit', anna, { orderId: id })).body.message).toMatch(/found errors/);
    expect((await drc(anna, id, v1)).body.data).toMatchObject({ designVersion: 1, passed: true });
    // A newer design makes the check stale.
    const v2 = await saveDesign(anna, id, v1);
    expect((await post('submit', anna, { orderId: id })).body.message).toMatch(/version 2/);
    expect((await drc(anna, id, v1)).body.message).toMatch(/not the current one/);
    expect((await drc(anna, id, v2)).body.code).toBe(1000);
    expect((await info(id, anna)).drc).toMatchObject({ designVersion: 2, passed: true, issues: [] });
    expect((await post('submit', anna, { orderId: id })).body).toMatchObject({ code: 1000, data: { status: 1 } });
    expect(await info(id, anna)).toMatchObject({ status: 1, designEndTime: '2026-01-01 08:00:00' });
    expect((await post('submit', anna, { orderId: id })).body.message).toBe('Not possible while the order is "To be processed"');
    // Submitted: the design, its check and its base are frozen until reopened.
    expect((await post('save', anna, { orderId: id, baseVersion: v2, data: { schemaVersion: 1, wires: WIRES } })).body.message).toBe('Not possible while the order is "To be processed"');
    expect((await drc(anna, id, v2)).body.code).toBe(1001);
    const base = await t.app.request(`/admin/design/saveDentureBase?orderId=${id}`, { method: 'POST', headers: { Authorization: anna, 'Content-Type': 'application/octet-stream' }, body: cubeStl() });
    expect(((await base.json()) as any).code).toBe(1001);
    // Submitted: the models are locked.
    const other = await model(anna, 'u2.stl');
    expect((await call('POST', '/admin/order/info/update', anna, { id, upperFileId: other.id })).body.message).toMatch(/reopen the order first/);
    expect((await post('reopen', anna, { orderId: id })).body).toMatchObject({ code: 1000, data: { status: 0 } });
    expect(await info(id, anna)).toMatchObject({ status: 0, designEndTime: null });
    expect((await post('reopen', anna, { orderId: id })).body.code).toBe(1001);
    expect((await history(id, anna)).map((h: any) => h.reason)).toEqual(['created', 'submit', 'reopen']);
  });

  it("another designer cannot check, submit or reopen someone's order; a user without the permission gets 403", async () => {
    const id = await addOrder(anna);
    const v = await saveDesign(anna, id);
    expect((await drc(ben, id, v)).body).toEqual(NOT_YOURS);
    expect((await drc(anna, id, v)).body.code).toBe(1000);
    expect((await post('submit', ben, { orderId: id })).body).toEqual(NOT_YOURS);
    expect((await post('submit', olga, { orderId: id })).status).toBe(403);
    expect((await post('submit', anna, { orderId: 'x' })).body.code).toBe(1002);
    expect((await post('updateDRC', anna, { orderId: id, designVersion: v, passed: 'yes', issues: [] })).body.code).toBe(1002);
    expect((await post('updateDRC', anna, { orderId: id, designVersion: v, passed: true, issues: Array.from({ length: 201 }, () => ({ code: 'X', severity: 'error' })) })).body.code).toBe(1002);
    expect((await info(id, anna)).status).toBe(0);
    // An orders admin may.
    expect((await post('submit', admin, { orderId: id })).body.code).toBe(1000);
  });

  it('update keeps the status it has and refuses another', async () => {
    const id = await addOrder(anna);
    expect((await call('POST', '/admin/order/info/update', anna, { id, status: 2 })).body.code).toBe(1001);
    expect((await call('POST', '/admin/order/info/update', anna, { id, status: 0, remark: 'x' })).body.code).toBe(1000);
    expect((await info(id, anna)).status).toBe(0);
  });

  it('the order is processed when every wire of its design has a done bend job', async () => {
    const id = await addOrder(anna);
    const v = await saveDesign(anna, id);
    await drc(anna, id, v);
    await post('submit', anna, { orderId: id });
    const dev = await t.ctx.db
      .insertInto('device_info')
      .values({ devicename: 'B1', personnelId: null, remark: null, diameters: '0.8', memory: 100, keyHash: 'x', keyHint: 'x', createTime: '2026-01-01 00:00:00', updateTime: '2026-01-01 00:00:00' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const job = (wire: string, status: string) =>
      t.ctx.db
        .insertInto('device_job')
        .values({ jobId: crypto.randomUUID(), deviceId: dev.id, userId: annaId, orderId: id, wire: JSON.stringify({ type: 'labialBow', diameter: 0.8, id: wire }), steps: '[]', stepCount: 1, status, lastSentAt: null, errorCode: null, errorMessage: null, bendMs: null, createTime: '2026-01-01 08:00:00', updateTime: '2026-01-01 08:00:00' })
        .execute();
    await job('w1', 'done');
    await job('w2', 'failed');
    expect(await checkBent(t.ctx, id)).toBe(false);
    expect((await info(id, anna)).status).toBe(1);
    await job('w2', 'done');
    expect(await checkBent(t.ctx, id)).toBe(true);
    expect(await info(id, anna)).toMatchObject({ status: 2, processEndTime: '2026-01-01 08:00:00' });
    expect((await history(id, anna)).at(-1)).toMatchObject({ fromStatus: 1, toStatus: 2, reason: 'bent', userId: null });
    expect(await checkBent(t.ctx, id)).toBe(false);
    // getDeviceInfo: the machine of its latest job, and the jobs.
    const dev1 = (await get(`getDeviceInfo?orderId=${id}`, anna)).body.data;
    expect(dev1.device).toMatchObject({ id: dev.id, name: 'B1' });
    expect(dev1.jobs.map((j: any) => j.wire).sort()).toEqual(['w1', 'w2', 'w2']);
    expect((await get(`getDeviceInfo?orderId=${id}`, ben)).body).toEqual(NOT_YOURS);
  });
});

describe('design calls', () => {
  it("designer: the order's creator or an orders admin assigns an existing designer; it is recorded", async () => {
    const id = await addOrder(maker);
    expect((await post('designer', maker, { orderId: id, designerId: annaId })).body).toMatchObject({ code: 1000, data: { designerId: annaId } });
    expect((await info(id, anna)).designerId).toBe(annaId);
    expect((await history(id)).at(-1)).toMatchObject({ reason: 'designer', fromStatus: 0, toStatus: 0, userName: 'maker' });
    // The designer is not the creator: not allowed to hand it on.
    expect((await post('designer', anna, { orderId: id, designerId: benId })).body.message).toMatch(/Only an orders administrator or the order's creator/);
    // Someone with no tie to the order learns nothing about it.
    expect((await post('designer', ben, { orderId: id, designerId: benId })).body).toEqual(NOT_YOURS);
    expect((await post('designer', olga, { orderId: id, designerId: benId })).status).toBe(403);
    expect((await post('designer', maker, { orderId: id, designerId: 999_999 })).body).toMatchObject({ code: 1002 });
    // Nor to someone who may not design (olga lacks design:save).
    expect((await post('designer', maker, { orderId: id, designerId: olgaId })).body).toMatchObject({ code: 1002 });
    expect((await info(id)).designerId).toBe(annaId);
    expect((await post('designer', admin, { orderId: id, designerId: benId })).body.code).toBe(1000);
    expect((await info(id)).designerId).toBe(benId);
    expect((await post('designer', admin, { orderId: 999_999, designerId: benId })).body).toEqual(NOT_YOURS);
  });

  it('changeOrderList: my orders in design or bite registration, newest first, limited; otherDesign: the same patient with designs', async () => {
    const a1 = await addOrder(anna, { patientName: 'Zoe Switch' });
    const a2 = await addOrder(anna, { patientName: 'Zoe Switch' });
    const b1 = await addOrder(ben, { patientName: 'Zoe Switch' });
    await saveDesign(anna, a1);
    await saveDesign(ben, b1);
    const list = (await get('changeOrderList?keyWord=Zoe', anna)).body.data;
    expect(list.map((r: any) => r.id)).toEqual([a2, a1]);
    expect(Object.keys(list[0]).sort()).toEqual(['caseNo', 'designerId', 'id', 'patientName', 'status', 'updateTime']);
    expect((await get('changeOrderList?limit=1', anna)).body.data).toHaveLength(1);
    expect((await get('changeOrderList?limit=1000', anna)).body.code).toBe(1002);
    expect((await get('changeOrderList?keyWord=Zoe', ben)).body.data.map((r: any) => r.id)).toEqual([b1]);
    const others = (await post('otherDesign', anna, { orderId: a2 })).body.data;
    expect(others).toEqual([expect.objectContaining({ orderId: a1, patientName: 'Zoe Switch', version: 1 })]);
    expect((await post('otherDesign', ben, { orderId: a2 })).body).toEqual(NOT_YOURS);
  });

  it('copyOrder: a remake with a new case number, the same models, the design as version 1 and the bite', async () => {
    const src = await addWithBite(anna);
    await runBites();
    await saveDesign(anna, src);
    const res = await post('copyOrder', anna, { orderId: src, remark: 'remake' });
    expect(res.body.code).toBe(1000);
    const copy = await info(res.body.data.id, anna);
    const orig = await info(src, anna);
    expect(copy).toMatchObject({ status: 0, designerId: annaId, creatorId: annaId, remark: 'remake', patientName: orig.patientName, upperFileId: orig.upperFileId, occlusionFileId: orig.occlusionFileId });
    expect(copy.caseNo).not.toBe(orig.caseNo);
    expect((await get(`getDesignData?orderId=${copy.id}`, anna)).body.data).toMatchObject({ version: 1, data: { wires: WIRES }, aiReport: null });
    expect((await get(`getOcclusalModelData?orderId=${copy.id}`, anna)).body.data.bite).toMatchObject({ source: 'auto', rms: 0.05 });
    expect((await history(copy.id, anna))[0]).toMatchObject({ reason: 'created', detail: `copy of ${orig.caseNo}` });
    expect((await post('copyOrder', ben, { orderId: src })).body).toEqual(NOT_YOURS);
    // A design the automatic design stored: its report goes with the copy (the wires it names are the copy's too).
    const report = { wires: [{ wireId: 'w1', jaw: 'upper' as const, type: 'labialBow' as const, teeth: [6, 11], status: 'placed' as const }], bases: [] };
    await keepReport(t.ctx.db, src, 1, report, '2026-11-28 10:00:00');
    const again = (await post('copyOrder', anna, { orderId: src })).body.data.id;
    expect((await get(`getDesignData?orderId=${again}`, anna)).body.data.aiReport).toMatchObject({ orderId: again, version: 1, report });
    expect((await get(`getDesignData?orderId=${src}`, anna)).body.data.aiReport).toMatchObject({ orderId: src, report });
    // Designing without the right to add orders: no copies.
    const designOnly = await createRole(t.ctx, 'design only', ['design:save', 'design:submit']);
    const doraId = await addUser(t, admin, { username: 'dora', password: 'dora-pass', roleIdList: [designOnly] });
    const dora = (await t.login('dora', 'dora-pass')).token;
    expect((await post('designer', admin, { orderId: src, designerId: doraId })).body.code).toBe(1000);
    expect((await post('copyOrder', dora, { orderId: src })).body.message).toBe('Copying an order needs the permission to add orders');
    expect((await post('copyOrder', anna, { orderId: src, patientName: '' })).body.code).toBe(1002);
  }, 30_000);

  it('saveDentureBase: the base is stored as an STL file of the order, downloadable, replaced on regeneration', async () => {
    const id = await addOrder(anna);
    const send = async (token: string, bytes: Uint8Array, orderId: unknown = id) => {
      const r = await t.app.request(`/admin/design/saveDentureBase?orderId=${orderId}`, {
        method: 'POST',
        headers: { Authorization: token, 'Accept-Language': 'en', 'Content-Type': 'application/octet-stream' },
        body: bytes as Uint8Array<ArrayBuffer>,
      });
      return { status: r.status, body: (await r.json()) as any };
    };
    const first = await send(anna, cubeStl());
    expect(first.body).toMatchObject({ code: 1000, data: { orderId: id, triangles: 12 } });
    const baseId = first.body.data.baseFileId;
    expect((await info(id, anna)).baseFileId).toBe(baseId);
    // The order info links it as a file, as it does the models (the editor's "stored on the server").
    expect((await info(id, anna)).baseFile).toMatchObject({ id: baseId, url: first.body.data.url, size: first.body.data.size });
    const file = await download(t, anna, first.body.data.url);
    expect(file.status).toBe(200);
    expect(file.bytes).toEqual(cubeStl());
    // Regenerated: the new one replaces the old.
    const second = await send(anna, sphereStl());
    expect(second.body.code).toBe(1000);
    expect(await t.ctx.db.selectFrom('space_info').select('id').where('id', '=', baseId).executeTakeFirst()).toBeUndefined();
    expect((await info(id, anna)).baseFileId).toBe(second.body.data.baseFileId);
    // Multipart too.
    const form = new FormData();
    form.append('orderId', String(id));
    form.append('file', new File([cubeStl()], 'base.stl'));
    const multi = await t.app.request('/admin/design/saveDentureBase', { method: 'POST', headers: { Authorization: anna }, body: form });
    expect(((await multi.json()) as any).code).toBe(1000);
    // Not an STL, another's order, no order, no permission.
    expect((await send(anna, new TextEncoder().encode('hello'))).body.message).toMatch(/not a readable STL/);
    expect((await send(ben, cubeStl())).body).toEqual(NOT_YOURS);
    expect((await download(t, ben, second.body.data.url)).status).toBe(404);
    expect((await send(anna, cubeStl(), 'x')).body.code).toBe(1002);
    expect((await send(olga, cubeStl())).status).toBe(403);
  });

  it('modifyModel: a new version of a jaw keeps the original; restoreVersion switches back; only files the caller may read', async () => {
    const id = await addOrder(anna);
    const original = (await info(id, anna)).upperFileId;
    const smoothed = await model(anna, 'smoothed.stl', sphereStl());
    const res = await post('modifyModel', anna, { orderId: id, jaw: 'upper', fileId: smoothed.id, note: 'smoothed' });
    expect(res.body.data).toMatchObject({ jaw: 'upper', version: 2, fileId: smoothed.id });
    expect(res.body.data.versions.map((v: any) => [v.version, v.fileId, v.note, v.active])).toEqual([
      [1, original, 'original', false],
      [2, smoothed.id, 'smoothed', true],
    ]);
    expect((await info(id, anna)).upperFileId).toBe(smoothed.id);
    expect((await post('modifyModel', anna, { orderId: id, jaw: 'upper', restoreVersion: 1 })).body.data).toMatchObject({ version: 1, fileId: original });
    expect((await info(id, anna)).upperFileId).toBe(original);
    expect((await get(`modelVersions?orderId=${id}`, anna)).body.data.filter((v: any) => v.active).map((v: any) => v.version)).toEqual([1]);
    // A kept version cannot be deleted from the file space while the order keeps it.
    const del = await call('POST', '/admin/space/info/delete', admin, { ids: [smoothed.id] });
    expect(del.body).toMatchObject({ code: 1001, message: expect.stringContaining((await info(id)).caseNo) });
    expect((await post('modifyModel', anna, { orderId: id, jaw: 'upper', restoreVersion: 7 })).body.message).toBe('Model version 7 does not exist');
    expect((await post('modifyModel', anna, { orderId: id, jaw: 'upper' })).body.code).toBe(1001);
    expect((await post('modifyModel', anna, { orderId: id, jaw: 'left', fileId: smoothed.id })).body.code).toBe(1002);
    const bens = await model(ben, 'bens.stl');
    expect((await post('modifyModel', anna, { orderId: id, jaw: 'upper', fileId: bens.id })).body).toMatchObject({ code: 1002 });
    expect((await post('modifyModel', ben, { orderId: id, jaw: 'upper', fileId: bens.id })).body).toEqual(NOT_YOURS);
  });

  it('factories: the departments of the caller’s data scope; all for an orders admin', async () => {
    const now = '2026-01-01 00:00:00';
    const d1 = await t.ctx.db.insertInto('base_sys_department').values({ name: 'Lab North', parentId: null, createTime: now, updateTime: now }).returning('id').executeTakeFirstOrThrow();
    const d2 = await t.ctx.db.insertInto('base_sys_department').values({ name: 'Lab South', parentId: null, createTime: now, updateTime: now }).returning('id').executeTakeFirstOrThrow();
    await t.ctx.db.updateTable('base_sys_user').set({ departmentId: d1.id }).where('id', '=', annaId).execute();
    const all = (await post('factories', admin, {})).body.data.map((d: any) => d.name);
    expect(all).toEqual(expect.arrayContaining(['Lab North', 'Lab South']));
    const mine = (await post('factories', anna, {})).body.data;
    expect(mine.map((d: any) => d.id)).toContain(d1.id);
    expect(mine.map((d: any) => d.id)).not.toContain(d2.id);
    expect((await post('factories', olga, {})).status).toBe(403);
  });

  it('eps lists the new calls', async () => {
    const eps = (await t.call('GET', '/admin/base/open/eps')).body.data;
    const paths = (eps.design as any[]).flatMap((e) => e.api.map((a: any) => `${e.prefix}${a.path}`));
    for (const p of ['submit', 'reopen', 'designer', 'changeOrderList', 'otherDesign', 'copyOrder', 'saveDentureBase', 'modifyModel', 'modelVersions', 'getOcclusalModelData', 'factories', 'getDeviceInfo', 'updateDRC']) {
      expect(paths).toContain(`/admin/design/${p}`);
    }
    const order = (eps.order as any[]).find((e) => e.prefix === '/admin/order/info');
    expect(order.api.map((a: any) => a.path)).toContain('/history');
  });
});
