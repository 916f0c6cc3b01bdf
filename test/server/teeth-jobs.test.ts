// The `teeth` geometry job (server/modules/geo-jobs/teeth.ts) through the real app: an order's
// jaw models each get one, it runs the real kernel in a worker thread on generated jaws
// (test/fixtures/jaw.ts: the pipeline is asserted, not the teeth), the result is stored under the
// model's content key (a replaced model's teeth no longer apply), the order's status never moves,
// bite jobs go first; GET /admin/design/getTeeth answers within the order scope. For each, the
// user's test and the attacker's. With the fixtures, the study model's stored labels are scored
// against the truth (skipped with a message without them).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeLabels, universalToFdi } from '../../common/teeth.ts';
import { biteKind } from '../../server/modules/geo-jobs/bite.ts';
import { GeoJobRunner } from '../../server/modules/geo-jobs/runner.ts';
import { SUPERSEDED } from '../../server/modules/geo-jobs/store.ts';
import { teethKind } from '../../server/modules/geo-jobs/teeth.ts';
import type { GeoKinds } from '../../server/modules/geo-jobs/types.ts';
import { parseStl } from '../../workers/kernels/stl.ts';
import { jawMesh, rigidMatrix, transformPositions } from '../fixtures/jaw.ts';
import { binaryStl, soupOf, sphereStl } from '../fixtures/stl.ts';
import { loadKernels } from '../kernels/kernels.ts';
import { formatScore, scoreLabels } from '../bench/teeth-score.ts';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';
import { uploadOne } from './space-helpers.ts';
import { createApi, unwrap } from '../../src/api/typed.ts';

const KINDS_MODULE = new URL('./geo-test-kinds.ts', import.meta.url).href;
const root = fileURLToPath(new URL('../..', import.meta.url));
const study = resolve(process.env.ARCHWRIGHT_FIXTURES ?? resolve(root, '../shared/fixtures'), 'study-models');
const present = existsSync(resolve(study, 'lower-model.labels.bin')) && existsSync(resolve(study, 'lower-model.stl'));
const studyTitle = present
  ? `teeth job on the study model (${study})`
  : `teeth job on the study model: SKIPPED, ${resolve(study, 'lower-model.labels.bin')} not found (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`;
if (!present) console.warn(studyTitle);

let t: TestServer;
let admin: string;
let anna: string;
let ben: string;
let olga: string;
const ORDER_PERMS = ['order:info:add', 'order:info:update', 'order:info:info', 'order:info:page', 'order:info:list', 'order:info:history'];
const DESIGN_PERMS = ['design:save', 'design:getDesignData', 'design:submit', 'design:getTeeth'];

beforeAll(async () => {
  t = await setup();
  admin = (await t.login()).token;
  const designer = await createRole(t.ctx, 'designer', [...ORDER_PERMS, ...DESIGN_PERMS]);
  const clerk = await createRole(t.ctx, 'clerk', ['order:info:add', 'order:info:page', 'design:submit']);
  await addUser(t, admin, { username: 'anna', password: 'anna-pass', roleIdList: [designer] });
  await addUser(t, admin, { username: 'ben', password: 'ben-pass', roleIdList: [designer] });
  await addUser(t, admin, { username: 'olga', password: 'olga-pass', roleIdList: [clerk] });
  anna = (await t.login('anna', 'anna-pass')).token;
  ben = (await t.login('ben', 'ben-pass')).token;
  olga = (await t.login('olga', 'olga-pass')).token;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', path: string, token: string, body?: unknown) => t.call(method, path, { token, lang: 'en', body });
const getTeeth = (orderId: number | string, jaw: string, token = anna) => call('GET', `/admin/design/getTeeth?orderId=${orderId}&jaw=${jaw}`, token);
const teethOf = async (orderId: number, jaw: 'upper' | 'lower', token = anna) => {
  const res = await getTeeth(orderId, jaw, token);
  expect(res.body.code, JSON.stringify(res.body)).toBe(1000);
  return res.body.data;
};
const info = async (id: number) => (await call('GET', `/admin/order/info/info?id=${id}`, admin)).body.data;
const jobs = (orderId: number) => t.ctx.db.selectFrom('geo_job').selectAll().where('orderId', '=', orderId).orderBy('id').execute();
const NOT_YOURS = { code: 1001, message: 'The order does not exist or you may not design it' };

let made = 0;
/**
 * A generated jaw as STL, in its jaw's pose (the upper turned over: crowns downwards). Each call
 * is shifted a little, so its bytes (and content key) are its own.
 */
function jawStl(jaw: 'upper' | 'lower', detail = 0.3) {
  const mesh = jawMesh({ detail });
  const shift: [number, number, number] = [0.5 * ++made, 0, 0];
  const m = jaw === 'upper' ? rigidMatrix([0, 1, 0], 180, shift) : rigidMatrix([0, 0, 1], 0, shift);
  return binaryStl(soupOf({ positions: transformPositions(mesh.positions, m), indices: mesh.indices }));
}
async function welded(bytes: Uint8Array): Promise<number> {
  const parsed = await parseStl(await loadKernels(), bytes);
  if (!parsed.ok) throw new Error(parsed.error.code);
  return parsed.mesh.vertexCount;
}
const model = async (token: string, name: string, bytes: Uint8Array) => (await uploadOne(t, token, { name, bytes }, { kind: 'model' })) as { id: number };

async function addOrder(token: string, files: Record<string, number>) {
  const res = await call('POST', '/admin/order/info/add', token, { patientName: 'Pat', ...files });
  expect(res.body).toMatchObject({ code: 1000 });
  return res.body.data.id as number;
}
async function run(kinds: GeoKinds = { teeth: teethKind() }) {
  const runner = new GeoJobRunner(t.ctx, { kinds, concurrency: 1, pollMs: 30 });
  await runner.start();
  await runner.idle(120_000);
  await runner.stop();
}

function expectWellFormed(data: any, jaw: 'upper' | 'lower', vertexCount: number) {
  expect(data).toMatchObject({ jaw, state: 'done', progress: 1, error: null });
  const teeth = data.teeth;
  expect(teeth).toMatchObject({ jaw, vertexCount });
  const labels = decodeLabels(teeth.labels, vertexCount);
  expect(labels.length).toBe(vertexCount);
  expect(teeth.teeth.length).toBeGreaterThan(0);
  const [lo, hi] = jaw === 'upper' ? [1, 16] : [17, 32];
  for (const r of teeth.teeth) {
    expect(r.number).toBeGreaterThanOrEqual(lo);
    expect(r.number).toBeLessThanOrEqual(hi);
    expect(r.fdi).toBe(universalToFdi(r.number));
    expect(['incisor', 'canine', 'premolar', 'molar']).toContain(r.type);
    expect(r.centroid).toHaveLength(3);
    expect(r.tip).toHaveLength(3);
    expect(r.mesioDistalWidth).toBeGreaterThan(0);
    expect(labels.filter((n) => n === r.number).length).toBe(r.vertexCount);
  }
  expect(labels.every((n) => n === 0 || (n >= lo && n <= hi))).toBe(true);
  expect(Array.isArray(teeth.arch)).toBe(true);
}

describe('teeth jobs', () => {
  it('an order added with both jaw models queues one teeth job per jaw; they end done with the teeth of each model; the status never moves', async () => {
    const upperBytes = jawStl('upper');
    const lowerBytes = jawStl('lower');
    const upper = await model(anna, 'upper.stl', upperBytes);
    const lower = await model(anna, 'lower.stl', lowerBytes);
    const id = await addOrder(anna, { upperFileId: upper.id, lowerFileId: lower.id });
    expect(await teethOf(id, 'upper')).toEqual({ orderId: id, jaw: 'upper', fileId: upper.id, state: 'queued', progress: 0, error: null, teeth: null });
    expect(await teethOf(id, 'lower')).toMatchObject({ fileId: lower.id, state: 'queued' });
    expect((await jobs(id)).map((j) => [j.kind, j.subject, j.state])).toEqual([
      ['teeth', 'upper', 'queued'],
      ['teeth', 'lower', 'queued'],
    ]);
    await run();
    expectWellFormed(await teethOf(id, 'upper'), 'upper', await welded(upperBytes));
    expectWellFormed(await teethOf(id, 'lower'), 'lower', await welded(lowerBytes));
    expect(await info(id)).toMatchObject({ status: 0, biteJob: null });
    const history = (await call('GET', `/admin/order/info/history?id=${id}`, anna)).body.data;
    expect(history.map((h: any) => h.reason)).toEqual(['created']);
  }, 120_000);

  it('an order without a jaw model answers none; an orders admin reads any order', async () => {
    const lower = await model(anna, 'lower.stl', jawStl('lower'));
    const id = await addOrder(anna, { lowerFileId: lower.id });
    expect(await teethOf(id, 'upper')).toEqual({ orderId: id, jaw: 'upper', fileId: null, state: 'none', progress: 0, error: null, teeth: null });
    expect(await teethOf(id, 'lower', admin)).toMatchObject({ state: 'queued' });
  });

  it('replacing a model supersedes its pending job (the other jaw keeps its own), and recomputes; the replaced teeth no longer apply; going back to a model reuses its stored teeth', async () => {
    const first = jawStl('upper');
    const upper = await model(anna, 'upper.stl', first);
    const lower = await model(anna, 'lower.stl', jawStl('lower'));
    const id = await addOrder(anna, { upperFileId: upper.id, lowerFileId: lower.id });
    const second = jawStl('upper', 0.35);
    const other = await model(anna, 'upper-2.stl', second);
    // replaced before the job ran: superseded, the lower's job untouched
    expect((await call('POST', '/admin/order/info/update', anna, { id, upperFileId: other.id })).body.code).toBe(1000);
    const rows = await jobs(id);
    expect(rows.map((j) => [j.subject, j.state, j.error])).toEqual([
      ['upper', 'failed', SUPERSEDED],
      ['lower', 'queued', null],
      ['upper', 'queued', null],
    ]);
    expect(JSON.parse(rows[2]!.input)).toMatchObject({ jaw: 'upper', fileId: other.id });
    await run();
    expectWellFormed(await teethOf(id, 'upper'), 'upper', await welded(second));
    // replaced after it ran: the stored teeth are the old model's, so none apply until the new job ends
    expect((await call('POST', '/admin/order/info/update', anna, { id, upperFileId: upper.id })).body.code).toBe(1000);
    expect(await teethOf(id, 'upper')).toMatchObject({ fileId: upper.id, state: 'queued', teeth: null });
    await run();
    expectWellFormed(await teethOf(id, 'upper'), 'upper', await welded(first));
    // back to the second model: its teeth are stored, nothing is queued
    const before = (await jobs(id)).length;
    expect((await call('POST', '/admin/order/info/update', anna, { id, upperFileId: other.id })).body.code).toBe(1000);
    expect((await jobs(id)).length).toBe(before);
    expectWellFormed(await teethOf(id, 'upper'), 'upper', await welded(second));
    // the lower model removed: none, its job (if any were pending) superseded
    expect((await call('POST', '/admin/order/info/update', anna, { id, lowerFileId: null })).body.code).toBe(1000);
    expect(await teethOf(id, 'lower')).toMatchObject({ fileId: null, state: 'none', teeth: null });
  }, 120_000);

  it('a removed model supersedes its pending job', async () => {
    const upper = await model(anna, 'upper.stl', jawStl('upper'));
    const lower = await model(anna, 'lower.stl', jawStl('lower'));
    const id = await addOrder(anna, { upperFileId: upper.id, lowerFileId: lower.id });
    expect((await call('POST', '/admin/order/info/update', anna, { id, lowerFileId: null })).body.code).toBe(1000);
    expect((await jobs(id)).map((j) => [j.subject, j.state, j.error])).toEqual([
      ['upper', 'queued', null],
      ['lower', 'failed', SUPERSEDED],
    ]);
    expect(await teethOf(id, 'lower')).toMatchObject({ state: 'none', fileId: null });
  });

  it('with an occlusion model the bite job runs first, even behind queued teeth jobs, and moves the status; the teeth jobs do not', async () => {
    // another order's teeth jobs are queued first
    const early = await addOrder(anna, { upperFileId: (await model(anna, 'upper.stl', jawStl('upper'))).id });
    const upper = await model(anna, 'upper.stl', jawStl('upper'));
    const lower = await model(anna, 'lower.stl', jawStl('lower'));
    const occlusion = await model(anna, 'bite.stl', sphereStl());
    const id = await addOrder(anna, { upperFileId: upper.id, lowerFileId: lower.id, occlusionFileId: occlusion.id });
    expect(await info(id)).toMatchObject({ status: 3, biteJob: { state: 'queued' } });
    const ended: string[] = [];
    const bite = biteKind({ module: KINDS_MODULE, fn: 'fakeBite' });
    const teeth = teethKind();
    await run({
      bite: { ...bite, onDone: (r, a) => (ended.push(`bite ${a.job.orderId}`), bite.onDone!(r, a)) },
      teeth: { ...teeth, onDone: (r, a) => (ended.push(`teeth ${a.job.orderId}`), teeth.onDone!(r, a)) },
    });
    // one at a time, oldest first, the bite before every teeth job (earlier tests' queued jobs included)
    expect(ended[0]).toBe(`bite ${id}`);
    expect(ended.filter((e) => e === `teeth ${id}`)).toHaveLength(2);
    expect(ended.indexOf(`teeth ${early}`)).toBeLessThan(ended.indexOf(`teeth ${id}`));
    expect(await info(id)).toMatchObject({ status: 0, biteJob: { state: 'done' } });
    expect(await teethOf(id, 'upper')).toMatchObject({ state: 'done' });
    expect(await teethOf(id, 'lower')).toMatchObject({ state: 'done' });
    const history = (await call('GET', `/admin/order/info/history?id=${id}`, anna)).body.data;
    expect(history.map((h: any) => h.reason)).toEqual(['created', 'models', 'bite']);
  }, 120_000);

  it('a failed job keeps its reason; the status is untouched; the next model change tries again', async () => {
    const upper = await model(anna, 'upper.stl', jawStl('upper'));
    const id = await addOrder(anna, { upperFileId: upper.id });
    await run({ teeth: teethKind({ module: KINDS_MODULE, fn: 'failAlways' }) });
    expect(await teethOf(id, 'upper')).toEqual({ orderId: id, jaw: 'upper', fileId: upper.id, state: 'failed', progress: expect.any(Number), error: 'the kernel said no', teeth: null });
    expect(await info(id)).toMatchObject({ status: 0 });
    const lower = await model(anna, 'lower.stl', jawStl('lower'));
    expect((await call('POST', '/admin/order/info/update', anna, { id, lowerFileId: lower.id })).body.code).toBe(1000);
    expect(await teethOf(id, 'upper')).toMatchObject({ state: 'queued', error: null });
  });

  it('progress is read while the job runs', async () => {
    const upper = await model(anna, 'upper.stl', jawStl('upper'));
    const id = await addOrder(anna, { upperFileId: upper.id });
    // (room for every queued job: earlier tests may have left some, which hang too)
    const runner = new GeoJobRunner(t.ctx, { kinds: { teeth: teethKind({ module: KINDS_MODULE, fn: 'hang' }) }, concurrency: 8, pollMs: 30, progressMs: 0 });
    await runner.start();
    try {
      for (let i = 0; ; i++) {
        const data = await teethOf(id, 'upper');
        if (data.state === 'running' && data.progress === 0.5) break;
        if (i > 2000) throw new Error(`never running at 0.5: ${JSON.stringify(data)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await runner.stop();
    }
  });

  it('the typed client (as src/api/teeth.ts calls it) reads the same answer', async () => {
    const upper = await model(anna, 'upper.stl', jawStl('upper'));
    const id = await addOrder(anna, { upperFileId: upper.id });
    const api = createApi('http://app.test', { fetch: (input: RequestInfo | URL, init?: RequestInit) => t.app.request(input, init), headers: { Authorization: anna } });
    const data = await unwrap(api.admin.design.getTeeth.$get({ query: { orderId: String(id), jaw: 'upper' } }));
    expect(data).toEqual(await teethOf(id, 'upper'));
    expect(data).toMatchObject({ state: 'queued', fileId: upper.id });
  });

  it('a copied order shares its models and their stored teeth', async () => {
    const upper = await model(anna, 'upper.stl', jawStl('upper'));
    const id = await addOrder(anna, { upperFileId: upper.id });
    await run();
    const copy = (await call('POST', '/admin/design/copyOrder', anna, { orderId: id })).body.data;
    expect(copy.id).toBeGreaterThan(id);
    expect(await teethOf(copy.id, 'upper')).toMatchObject({ state: 'done', fileId: upper.id });
    expect(await jobs(copy.id)).toEqual([]);
  }, 120_000);
});

describe('getTeeth: the attacker', () => {
  let id: number;
  beforeAll(async () => {
    const upper = await model(anna, 'upper.stl', jawStl('upper'));
    id = await addOrder(anna, { upperFileId: upper.id });
  });

  it("another designer's order reads as a missing one", async () => {
    expect((await getTeeth(id, 'upper', ben)).body).toEqual(NOT_YOURS);
    expect((await getTeeth(99_999_999, 'upper', ben)).body).toEqual(NOT_YOURS);
    expect((await getTeeth(99_999_999, 'upper', anna)).body).toEqual(NOT_YOURS);
  });

  it('without design:getTeeth: forbidden', async () => {
    expect((await getTeeth(id, 'upper', olga)).status).toBe(403);
  });

  it('a bad jaw or order id is refused before any work', async () => {
    for (const q of [`orderId=${id}&jaw=middle`, `orderId=${id}`, 'orderId=abc&jaw=upper', 'orderId=-1&jaw=upper', `orderId=${id}&jaw=UPPER`, 'jaw=upper']) {
      const res = await call('GET', `/admin/design/getTeeth?${q}`, anna);
      expect(res.body.code, q).toBe(1002);
    }
  });
});

describe.skipIf(!present)(studyTitle, () => {
  it('lower: the stored labels have the truth\'s length and score like the kernel test', async () => {
    const lower = await model(anna, 'lower-model.stl', readFileSync(resolve(study, 'lower-model.stl')));
    const id = await addOrder(anna, { lowerFileId: lower.id });
    await run();
    const truth = readFileSync(resolve(study, 'lower-model.labels.bin'));
    const data = await teethOf(id, 'lower');
    expectWellFormed(data, 'lower', truth.length);
    const s = scoreLabels(truth, decodeLabels(data.teeth.labels, truth.length));
    const msg = formatScore('teeth job, lower', s);
    expect(s.numberingRight, msg).toBe(true);
    expect(s.meanIou, msg).toBeGreaterThanOrEqual(0.95);
    expect(s.gumAccuracy, msg).toBeGreaterThanOrEqual(0.98);
  }, 120_000);
});
