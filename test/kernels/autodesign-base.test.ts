// The automatic design's base and slots (workers/design/autodesign-base.ts, base-outline.ts) with
// the real kernels and manifold-3d, measured by workers/design/autodesign-goals-base.ts against
// the jaws' own labels: on generated jaws (test/fixtures/teeth-jaws.ts) a closed base of the set
// height on each prescribed jaw, on no occlusal surface, with the tags inside and the clasps'
// slots cut; the same with first molars missing (the clasps fail, the base is kept), crowded
// teeth in a random pose, an open scan (a horseshoe within the scanned surface); no base when the
// prescription has none; a base that cannot be made is reported and the wires stay. On the study
// models when present: the upper base crosses the palate with every tag 1 mm inside.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRESCRIPTION, type Prescription } from '../../common/prescription.ts';
import { compileKernels, instantiateModule } from '../../workers/kernels/abi.ts';
import { buildBvh } from '../../workers/kernels/bvh.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { parseStl } from '../../workers/kernels/stl.ts';
import { autodesign, type AutodesignResult } from '../../workers/design/autodesign.ts';
import { AUTODESIGN_BASE_HEIGHT, designJawBase, insertionInModel, TAG_INSIDE, tagCorners } from '../../workers/design/autodesign-base.ts';
import { baseOutline } from '../../workers/design/base-outline.ts';
import { tagPlaces } from '../../workers/design/base-rim.ts';
import { generateBase, MIN_OUTLINE_POINTS } from '../../workers/kernels/base.ts';
import { measureDocumentBase, type BaseGoals } from '../../workers/design/autodesign-goals-base.ts';
import { centroid, randomPose, rng, transformed } from '../fixtures/bite-poses.ts';
import { teethJaw, type TeethJawOptions } from '../fixtures/teeth-jaws.ts';
import { WASM_PATH } from './kernels.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const STUDY = resolve(process.env.ARCHWRIGHT_FIXTURES ?? resolve(root, '../shared/fixtures'), 'study-models');

type Jaw = 'upper' | 'lower';
interface Model { positions: Float32Array; indices: Uint32Array; labels: Uint8Array }

let module: WebAssembly.Module;
beforeAll(async () => {
  module = await compileKernels(readFileSync(WASM_PATH));
});

const only = (jaw: Jaw): Prescription => ({ upper: null, lower: null, [jaw]: DEFAULT_PRESCRIPTION[jaw] });

async function goals(model: Model, r: AutodesignResult, jaw: Jaw): Promise<BaseGoals> {
  const g = await measureDocumentBase(meshFromArrays(instantiateModule(module), model.positions, model.indices), model.labels, r.document, jaw);
  expect(g, `${jaw} has a base`).not.toBeNull();
  return g!;
}

/** What every automatic base must be: closed, of the set height, on no occlusal surface. */
function expectSound(g: BaseGoals, what: string): void {
  const msg = `${what}: ${JSON.stringify(g)}`;
  expect(g.closed, msg).toBe(true);
  expect(g.volume, msg).toBeGreaterThan(100);
  expect(g.minHeight, msg).toBeGreaterThanOrEqual(AUTODESIGN_BASE_HEIGHT - 1e-3);
  expect(g.occlusalVertices, msg).toBe(0);
}

describe('automatic base and slots on generated jaws', () => {
  it('makes a closed base on each jaw, on no occlusal surface, with its tags inside and one slot per wire', async () => {
    const upper = teethJaw({ jaw: 'upper' }), lower = teethJaw({ jaw: 'lower' });
    const r = await autodesign(module, { upper, lower, prescription: DEFAULT_PRESCRIPTION });
    expect(r.report.every((x) => x.status === 'placed')).toBe(true);
    expect(r.bases.map((b) => [b.jaw, b.status, b.shape])).toEqual([['upper', 'generated', 'horseshoe'], ['lower', 'generated', 'horseshoe']]);
    for (const [jaw, model] of [['upper', upper], ['lower', lower]] as const) {
      const base = r.document.bases?.[jaw];
      expect(base).toMatchObject({ jaw, closed: true, thickness: 2, height: 2, generated: true });
      expect(base!.outline.length).toBeGreaterThanOrEqual(MIN_OUTLINE_POINTS);
      const g = await goals(model, r, jaw);
      expectSound(g, jaw);
      // The generated band ends 10 mm lingual of the arch: the clasps' tags turn less towards the
      // palate or tongue where the band would not hold them, and lie 1 mm inside.
      expect(g.tagsOutside, JSON.stringify(g)).toBe(0);
      expect(g.tagRimDistance, JSON.stringify(g)).toBeGreaterThanOrEqual(1);
      // The clasps' slots are cut (the bow's may split the thin horseshoe: reported, left out).
      const clasps = r.document.wires.filter((w) => w.jaw === jaw && w.type === 'singleArmClasp').map((w) => w.id);
      const report = r.bases.find((b) => b.jaw === jaw)!;
      for (const id of clasps) expect(report.slots.find((s) => s.wireId === id)?.status).toBe('cut');
      for (const s of report.slots) expect(r.document.slots!.some((d) => d.wireId === s.wireId)).toBe(s.status === 'cut');
    }
    expect(r.document.slots!.every((s) => s.depth === 0 && s.clearance === 0.1)).toBe(true);
  }, 120_000);

  it('keeps the base where both first molars are missing (their clasps fail), and slots only the bow', async () => {
    const lower = teethJaw({ jaw: 'lower', missing: [19, 30] });
    const r = await autodesign(module, { lower, prescription: only('lower') });
    expect(r.report.map((x) => x.status)).toEqual(['failed', 'failed', 'placed']);
    expect(r.bases[0]).toMatchObject({ jaw: 'lower', status: 'generated' });
    expect(r.bases[0]!.slots.map((s) => s.wireId)).toEqual(['ai-lower-3']);
    expectSound(await goals(lower, r, 'lower'), 'molars missing');
  }, 60_000);

  for (const [name, opts] of [
    ['crowded teeth in a random pose', { jaw: 'upper', crowding: 1.5, seed: 3 }],
    ['an open scan (no palate): a horseshoe within the scanned surface', { jaw: 'upper', base: 'open' }],
    ['a mirrored lower jaw with a tooth missing', { jaw: 'lower', mirrored: true, missing: [24] }],
  ] as [string, TeethJawOptions & { jaw: Jaw }][]) {
    it(`makes a sound base on ${name}`, async () => {
      const g0 = teethJaw(opts);
      const m = name.includes('pose') ? randomPose(rng(7), centroid(g0.positions)) : null;
      const model = m ? { ...g0, positions: transformed(m, g0.positions).positions } : g0;
      const r = await autodesign(module, { [opts.jaw]: model, prescription: only(opts.jaw) });
      expect(r.bases[0], JSON.stringify(r.bases)).toMatchObject({ jaw: opts.jaw, status: 'generated' });
      if (opts.base === 'open') expect(r.bases[0]!.shape).toBe('horseshoe');
      const g = await goals(model, r, opts.jaw);
      expectSound(g, name);
      // Every tag inside the solid. The open scan stops 8 mm lingual of the arch (the base grows
      // round a tag only as far as the scan goes), and the crowded jaw's insertion direction leans
      // 10°: there the tags' ends lie inside the rim but not yet 1 mm (measured, not hidden; BENCHMARKS.md).
      expect(g.tagsOutside, JSON.stringify(g)).toBe(0);
      expect(g.tagRimDistance, JSON.stringify(g)).toBeGreaterThan(opts.base === 'open' ? 0.5 : name.includes('pose') ? 0 : 1);
    }, 60_000);
  }

  it('grows the outline round a tag the first base left short of 1 mm inside its rim (an open scan), every tag inside the solid', async () => {
    const model = teethJaw({ jaw: 'upper', base: 'open' });
    const r = await autodesign(module, { upper: model, prescription: only('upper') });
    const k = instantiateModule(module);
    const mesh = meshFromArrays(k, model.positions, model.indices);
    const bvh = buildBvh(mesh);
    const sums = new Map<number, number[]>();
    model.labels.forEach((n, v) => {
      if (!n) return;
      const c = sums.get(n) ?? [0, 0, 0, 0];
      for (let a = 0; a < 3; a++) c[a]! += model.positions[3 * v + a]!;
      c[3]!++;
      sums.set(n, c);
    });
    const teeth = [...sums].map(([number, c]) => ({ number, centroid: [c[0]! / c[3]!, c[1]! / c[3]!, c[2]! / c[3]!] as [number, number, number] }));
    const wires = r.document.wires;
    const matrix = r.document.straightening.matrix, direction = r.document.insertionDirections.upper!;
    const corners = tagCorners(wires).flat();
    // the outline with every tag at the plain margin, as a first try makes it
    const plain = baseOutline(bvh, { jaw: 'upper', positions: model.positions, labels: model.labels, teeth, matrix, direction, tags: tagCorners(wires) });
    const first = await generateBase(mesh, bvh, plain.outline, { direction: insertionInModel(matrix, direction), thickness: 2, height: 2, straightened: true });
    const before = Math.min(...tagPlaces(k, first, corners).map((p) => p.rim));
    expect(before).toBeLessThan(TAG_INSIDE);
    const made = await designJawBase({ mesh, bvh, jaw: 'upper', labels: model.labels, teeth, wires, matrix, direction });
    const after = tagPlaces(k, made.mesh!, corners);
    expect(after.every((p) => p.inSolid)).toBe(true);
    expect(Math.min(...after.map((p) => p.rim))).toBeGreaterThan(before + 0.1);
    expect(made.report.slots.every((s) => s.status === 'cut'), JSON.stringify(made.report)).toBe(true);
  }, 120_000);

  it('makes no base when the prescription has none', async () => {
    const r = await autodesign(module, { upper: teethJaw({ jaw: 'upper' }), prescription: { upper: { ...DEFAULT_PRESCRIPTION.upper!, base: false }, lower: null } });
    expect(r.bases).toEqual([]);
    expect(r.document.bases).toBeUndefined();
    expect(r.document.slots).toBeUndefined();
  }, 60_000);

  it('reports a base it cannot outline and leaves the wires alone', async () => {
    const g = teethJaw({ jaw: 'lower' });
    const mesh = meshFromArrays(instantiateModule(module), g.positions, g.indices);
    const out = await designJawBase({ mesh, bvh: buildBvh(mesh), jaw: 'lower', labels: g.labels, teeth: [], wires: [], matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] });
    expect(out.base).toBeUndefined();
    expect(out.slots).toEqual([]);
    expect(out.report).toMatchObject({ jaw: 'lower', status: 'failed', code: 'OUTLINE_FAILED', message: 'The lower base could not be designed automatically; the wires are kept' });
  });
});

const present = ['upper', 'lower'].every((j) => existsSync(resolve(STUDY, `${j}-model.stl`)) && existsSync(resolve(STUDY, `${j}-model.labels.bin`)));
const title = present ? 'automatic base on the study models' : `automatic base on the study models: SKIPPED, ${STUDY} has no models and labels (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`;
if (!present) console.warn(title);

describe.skipIf(!present)(title, () => {
  it('crosses the palate with every tag 1 mm inside, and makes a closed lower horseshoe with its tags inside; both on no occlusal surface', async () => {
    const models = {} as Record<Jaw, Model>;
    for (const jaw of ['upper', 'lower'] as const) {
      const parsed = await parseStl(instantiateModule(module), readFileSync(resolve(STUDY, `${jaw}-model.stl`)));
      if (!parsed.ok) throw new Error(parsed.error.code);
      models[jaw] = { positions: parsed.mesh.positions, indices: parsed.mesh.indices, labels: readFileSync(resolve(STUDY, `${jaw}-model.labels.bin`)) };
    }
    const r = await autodesign(module, { upper: models.upper, lower: models.lower, prescription: DEFAULT_PRESCRIPTION });
    expect(r.bases.map((b) => [b.jaw, b.status, b.shape])).toEqual([['upper', 'generated', 'palate'], ['lower', 'generated', 'horseshoe']]);
    const upper = await goals(models.upper, r, 'upper');
    expectSound(upper, 'upper');
    expect(upper.tagsOutside).toBe(0);
    expect(upper.tagRimDistance).toBeGreaterThanOrEqual(1);
    expect(r.bases[0]!.slots.every((s) => s.status === 'cut')).toBe(true);
    // The lower clasps' tags lie on a narrow strip of gum between the molars' lingual bulge and a
    // steep lingual wall: clear of the bulge, inside the solid and the rim, not yet 1 mm (measured 0.72 mm).
    const lower = await goals(models.lower, r, 'lower');
    expectSound(lower, 'lower');
    expect(lower.tagsOutside, JSON.stringify(lower)).toBe(0);
    expect(lower.tagRimDistance, JSON.stringify(lower)).toBeGreaterThan(0.5);
  }, 180_000);
});
