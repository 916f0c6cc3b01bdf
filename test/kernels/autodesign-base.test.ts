// The automatic design's base and slots (workers/design/autodesign-base.ts, base-outline.ts) with
// the real kernels and manifold-3d, measured by workers/design/autodesign-goals-base.ts against
// the jaws' own labels, beyond the default design (autodesign.test.ts) and the study models
// (autodesign-study.test.ts): a closed base of the set height on no occlusal surface with the
// tags 1 mm inside on crowded teeth in a random pose, open scans (a horseshoe within the scanned
// surface) and a mirrored jaw with a tooth missing; a tag pushed past an open scan's border moved
// back where the base holds it (tag-room.ts); no base when the prescription has none; a base that
// cannot be made is reported and the wires stay.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRESCRIPTION, type Prescription } from '../../common/prescription.ts';
import { compileKernels, instantiateModule } from '../../workers/kernels/abi.ts';
import { buildBvh } from '../../workers/kernels/bvh.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { autodesign } from '../../workers/design/autodesign.ts';
import { designJawBase, insertionInModel, TAG_INSIDE, tagCorners } from '../../workers/design/autodesign-base.ts';
import { tagPlaces } from '../../workers/design/base-rim.ts';
import { kernelSurface } from '../../workers/design/surface.ts';
import { roomForTags } from '../../workers/design/tag-room.ts';
import { centroid, randomPose, rng, transformed } from '../fixtures/bite-poses.ts';
import { teethJaw, type TeethJawOptions } from '../fixtures/teeth-jaws.ts';
import { baseGoals, expectSound, type Jaw } from './autodesign-goals.ts';
import { WASM_PATH } from './kernels.ts';

let module: WebAssembly.Module;
beforeAll(async () => {
  module = await compileKernels(readFileSync(WASM_PATH));
});

const only = (jaw: Jaw): Prescription => ({ upper: null, lower: null, [jaw]: DEFAULT_PRESCRIPTION[jaw] });

describe('automatic base and slots on generated jaws', () => {
  for (const [name, opts] of [
    ['crowded teeth in a random pose', { jaw: 'upper', crowding: 1.5, seed: 3 }],
    ['an open scan (no palate): a horseshoe within the scanned surface', { jaw: 'upper', base: 'open' }],
    ['an open lower scan', { jaw: 'lower', base: 'open' }],
    ['a mirrored lower jaw with a tooth missing', { jaw: 'lower', mirrored: true, missing: [24] }],
  ] as [string, TeethJawOptions & { jaw: Jaw }][]) {
    it(`makes a sound base on ${name}`, async () => {
      const g0 = teethJaw(opts);
      const m = name.includes('pose') ? randomPose(rng(7), centroid(g0.positions)) : null;
      const model = m ? { ...g0, positions: transformed(m, g0.positions).positions } : g0;
      const r = await autodesign(module, { [opts.jaw]: model, prescription: only(opts.jaw) });
      expect(r.bases[0], JSON.stringify(r.bases)).toMatchObject({ jaw: opts.jaw, status: 'generated' });
      if (opts.base === 'open') expect(r.bases[0]!.shape).toBe('horseshoe');
      const g = await baseGoals(module, model, r, opts.jaw);
      expectSound(g, name);
      // Every tag inside the solid and 1 mm inside the rim: the open scans stop 8 mm lingual of the
      // arch (the tags are moved where the scan has room round them, the flange reaches its end).
      expect(g.tagsOutside, JSON.stringify(g)).toBe(0);
      expect(g.tagRimDistance, JSON.stringify(g)).toBeGreaterThanOrEqual(TAG_INSIDE);
    }, 60_000);
  }

  it('moves a tag whose end passes an open scan\'s border where the base holds it 1 mm inside its rim, every tag inside the solid', async () => {
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
    const matrix = r.document.straightening.matrix, direction = r.document.insertionDirections.upper!;
    const d = insertionInModel(matrix, direction);
    // a clasp's tag end pushed 3 mm on along its straight, towards the tongue (the scan ends 8 mm lingual of the arch)
    const clasp = r.document.wires.find((w) => w.type === 'singleArmClasp')!;
    const [from, to] = clasp.tag!;
    const [s, e] = to === clasp.points.length - 1 ? [from, to] : [to, from];
    const a = clasp.points[s]!.point, b = clasp.points[e]!.point;
    const l = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    const pushed = { ...clasp, points: clasp.points.map((p, i) => (i === e ? { point: [b[0] + (3 * (b[0] - a[0])) / l, b[1] + (3 * (b[1] - a[1])) / l, b[2]] as [number, number, number] } : p)) };
    const base = (wire: typeof clasp) => designJawBase({ mesh, bvh, jaw: 'upper', labels: model.labels, teeth, wires: [wire], matrix, direction });
    const corners = (wire: typeof clasp) => tagCorners([wire]).flat();
    const before = tagPlaces(k, (await base(pushed)).mesh!, corners(pushed));
    expect(Math.min(...before.map((p) => p.rim))).toBeLessThan(TAG_INSIDE);
    const roomy = await roomForTags(pushed, d, kernelSurface(mesh, bvh), 1);
    expect(roomy).not.toBe(pushed);
    const made = await base(roomy);
    const after = tagPlaces(k, made.mesh!, corners(roomy));
    expect(after.every((p) => p.inSolid)).toBe(true);
    expect(Math.min(...after.map((p) => p.rim))).toBeGreaterThanOrEqual(TAG_INSIDE);
    expect(made.report.slots.every((x) => x.status === 'cut'), JSON.stringify(made.report)).toBe(true);
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
