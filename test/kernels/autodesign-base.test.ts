// The automatic design's base and slots (workers/design/autodesign-base.ts, base-outline.ts) with
// the real kernels and manifold-3d, measured by workers/design/autodesign-goals-base.ts against
// the jaws' own labels, beyond the default design (autodesign.test.ts) and the study models
// (autodesign-study.test.ts): a closed base of the set height on no occlusal surface with the
// tags inside on crowded teeth in a random pose, an open scan (a horseshoe within the scanned
// surface) and a mirrored jaw with a tooth missing; no base when the prescription has none; a
// base that cannot be made is reported and the wires stay.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRESCRIPTION, type Prescription } from '../../common/prescription.ts';
import { compileKernels, instantiateModule } from '../../workers/kernels/abi.ts';
import { buildBvh } from '../../workers/kernels/bvh.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { autodesign } from '../../workers/design/autodesign.ts';
import { designJawBase, insertionInModel, TAG_INSIDE, tagCorners } from '../../workers/design/autodesign-base.ts';
import { baseOutline } from '../../workers/design/base-outline.ts';
import { tagPlaces } from '../../workers/design/base-rim.ts';
import { generateBase } from '../../workers/kernels/base.ts';
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
