// The automatic design's base and slots (workers/design/autodesign-base.ts, base-outline.ts) with
// the real kernels and manifold-3d, measured by workers/design/autodesign-goals-base.ts against
// the jaws' own labels, beyond the default design (autodesign.test.ts) and the study models
// (autodesign-study.test.ts): the goals' occlusal count seeing a plate laid over a crown; a
// closed base of the set height on no occlusal surface with the
// tags 1 mm inside on crowded teeth in a random pose, open scans (a horseshoe within the scanned
// surface) and a mirrored jaw with a tooth missing; a tag pushed past an open scan's border moved
// back where the base holds it (tag-room.ts); no base when the prescription has none; a base that
// cannot be made is reported and the wires stay.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRESCRIPTION, type Prescription } from '../../common/prescription.ts';
import { compileKernels, instantiateModule } from '../../workers/kernels/abi.ts';
import { generateBase } from '../../workers/kernels/base.ts';
import { buildBvh, raycastFirst } from '../../workers/kernels/bvh.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { autodesign } from '../../workers/design/autodesign.ts';
import { designJawBase, insertionInModel, TAG_INSIDE, tagCorners } from '../../workers/design/autodesign-base.ts';
import { measureBaseGoals } from '../../workers/design/autodesign-goals-base.ts';
import { tagPlaces } from '../../workers/design/base-rim.ts';
import { kernelSurface } from '../../workers/design/surface.ts';
import { roomForTags } from '../../workers/design/tag-room.ts';
import { jawArchOrNone, toothSideRoom } from '../../workers/design/base-outline.ts';
import { occlusalMask } from '../../workers/design/occlusal.ts';
import { centroid, randomPose, rng, transformed } from '../fixtures/bite-poses.ts';
import { teethJaw, type TeethJawOptions } from '../fixtures/teeth-jaws.ts';
import { baseGoals, expectSound, type Jaw } from './autodesign-goals.ts';
import { WASM_PATH } from './kernels.ts';

let module: WebAssembly.Module;
beforeAll(async () => {
  module = await compileKernels(readFileSync(WASM_PATH));
});

/** The labelled teeth of a generated jaw, each at the centroid of its vertices. */
function labelledTeeth(model: { positions: Float32Array; labels: Uint8Array }): { number: number; centroid: [number, number, number] }[] {
  const sums = new Map<number, number[]>();
  model.labels.forEach((n, v) => {
    if (!n) return;
    const c = sums.get(n) ?? [0, 0, 0, 0];
    for (let a = 0; a < 3; a++) c[a]! += model.positions[3 * v + a]!;
    c[3]!++;
    sums.set(n, c);
  });
  return [...sums].map(([number, c]) => ({ number, centroid: [c[0]! / c[3]!, c[1]! / c[3]!, c[2]! / c[3]!] }));
}

const only = (jaw: Jaw): Prescription => ({ upper: null, lower: null, [jaw]: DEFAULT_PRESCRIPTION[jaw] });

describe('the base goals', () => {
  it('count the base vertices on a crown\'s occlusal surface (a plate laid over a first molar)', async () => {
    const g = teethJaw({ jaw: 'lower' });
    const mesh = meshFromArrays(instantiateModule(module), g.positions, g.indices);
    const bvh = buildBvh(mesh);
    const c = [0, 0, 0];
    let n = 0;
    g.labels.forEach((l, v) => {
      if (l !== 19) return;
      for (let a = 0; a < 3; a++) c[a]! += g.positions[3 * v + a]!;
      n++;
    });
    // a square 10 mm across round the crown, its corners picked on the surface from above
    const corners = [[-5, -5], [5, -5], [5, 5], [-5, 5]].map(([x, y]) => [c[0]! / n + x!, c[1]! / n + y!]);
    const hits = raycastFirst(bvh, Float32Array.from(corners.flatMap(([x, y]) => [x!, y!, 100, 0, 0, -1])));
    const outline = corners.map(([x, y], i) => ({ point: [x!, y!, 100 - hits.t[i]!] as [number, number, number], triangle: hits.triangle[i]! }));
    const base = await generateBase(mesh, bvh, outline, { direction: [0, 0, 1], thickness: 2, height: 2, straightened: true });
    expect(measureBaseGoals(mesh, g.labels, [0, 0, 1], base, []).occlusalVertices).toBeGreaterThan(100);
  });
});

describe('automatic base and slots on generated jaws', () => {
  // The least plan distance of a tag inside the rim: 1 mm (TAG_INSIDE), but on the crowded upper
  // in a random pose a clasp's tag lies beside a crown the base keeps off (0.67 mm measured, BENCHMARKS.md).
  for (const [name, opts, least] of [
    ['crowded teeth in a random pose', { jaw: 'upper', crowding: 1.5, seed: 3 }, 0.5],
    ['an open scan (no palate): a horseshoe within the scanned surface', { jaw: 'upper', base: 'open' }, TAG_INSIDE],
    ['an open lower scan', { jaw: 'lower', base: 'open' }, TAG_INSIDE],
    ['a mirrored lower jaw with a tooth missing', { jaw: 'lower', mirrored: true, missing: [24] }, TAG_INSIDE],
  ] as [string, TeethJawOptions & { jaw: Jaw }, number][]) {
    it(`makes a sound base on ${name}`, async () => {
      const g0 = teethJaw(opts);
      const m = name.includes('pose') ? randomPose(rng(7), centroid(g0.positions)) : null;
      const model = m ? { ...g0, positions: transformed(m, g0.positions).positions } : g0;
      const r = await autodesign(module, { [opts.jaw]: model, prescription: only(opts.jaw) });
      expect(r.bases[0], JSON.stringify(r.bases)).toMatchObject({ jaw: opts.jaw, status: 'generated' });
      if (opts.base === 'open') expect(r.bases[0]!.shape).toBe('horseshoe');
      const g = await baseGoals(module, model, r, opts.jaw);
      expectSound(g, name);
      // Every tag inside the solid and `least` inside the rim: the open scans stop 8 mm lingual of the
      // arch (the tags are moved where the scan has room round them, the flange reaches its end).
      expect(g.tagsOutside, JSON.stringify(g)).toBe(0);
      expect(g.tagRimDistance, JSON.stringify(g)).toBeGreaterThanOrEqual(least);
    }, 60_000);
  }

  it('moves a tag whose end passes an open scan\'s border back into the base, every tag inside the solid', async () => {
    const model = teethJaw({ jaw: 'upper', base: 'open' });
    const r = await autodesign(module, { upper: model, prescription: only('upper') });
    const k = instantiateModule(module);
    const mesh = meshFromArrays(k, model.positions, model.indices);
    const bvh = buildBvh(mesh);
    const teeth = labelledTeeth(model);
    const matrix = r.document.straightening.matrix, direction = r.document.insertionDirections.upper!;
    const d = insertionInModel(matrix, direction);
    // a clasp's tag end pushed 3 mm towards the middle of the arch, past the scan's end (8 mm lingual of the arch)
    const clasp = r.document.wires.find((w) => w.type === 'singleArmClasp')!;
    const [from, to] = clasp.tag!;
    const e = to === clasp.points.length - 1 ? to : from;
    const b = clasp.points[e]!.point;
    const mx = teeth.reduce((m, t) => m + t.centroid[0], 0) / teeth.length, my = teeth.reduce((m, t) => m + t.centroid[1], 0) / teeth.length;
    const l = Math.hypot(mx - b[0], my - b[1]) || 1;
    const pushed = { ...clasp, points: clasp.points.map((p, i) => (i === e ? { point: [b[0] + (3 * (mx - b[0])) / l, b[1] + (3 * (my - b[1])) / l, b[2]] as [number, number, number] } : p)) };
    const base = (wire: typeof clasp) => designJawBase({ mesh, bvh, jaw: 'upper', labels: model.labels, teeth, wires: [wire], matrix, direction });
    const corners = (wire: typeof clasp) => tagCorners([wire]).flat();
    const before = tagPlaces(k, (await base(pushed)).mesh!, corners(pushed));
    expect(Math.min(...before.map((p) => p.rim))).toBeLessThan(TAG_INSIDE);
    const { wire: roomy } = await roomForTags(pushed, d, kernelSurface(mesh, bvh), 1);
    expect(roomy).not.toBe(pushed);
    const made = await base(roomy);
    const after = tagPlaces(k, made.mesh!, corners(roomy));
    expect(after.every((p) => p.inSolid)).toBe(true);
    // the tag runs along the molar's palatal side, where the base now stays off the occlusal
    // surface: 0.76 mm measured, short of TAG_INSIDE (BENCHMARKS.md)
    expect(Math.min(...after.map((p) => p.rim))).toBeGreaterThanOrEqual(0.5);
    expect(made.report.slots.every((x) => x.status === 'cut'), JSON.stringify(made.report)).toBe(true);
  }, 120_000);

  it("bounds the base's tooth side as the outline does: no room over an occlusal surface, more towards the tongue", () => {
    const g = teethJaw({ jaw: 'lower' });
    const occlusal = occlusalMask(g.positions, g.indices, g.labels, [0, 0, 1]);
    const teeth = labelledTeeth(g);
    const room = toothSideRoom(jawArchOrNone({ jaw: 'lower', positions: g.positions, labels: g.labels, occlusal, teeth, matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], direction: [0, 0, 1] }));
    let over = 0;
    for (let v = 0; v < occlusal.length; v++) if (occlusal[v] && room([g.positions[3 * v]!, g.positions[3 * v + 1]!, g.positions[3 * v + 2]!]) > 0) over++;
    expect(over).toBe(0);
    // from the first molar's centre towards the middle of the arch
    const c = teeth.find((t) => t.number === 19)!.centroid;
    const mx = teeth.reduce((m, t) => m + t.centroid[0], 0) / teeth.length, my = teeth.reduce((m, t) => m + t.centroid[1], 0) / teeth.length;
    const l = Math.hypot(mx - c[0], my - c[1]);
    const rooms = [0, 2, 4, 6, 8, 10].map((k) => room([c[0] + ((mx - c[0]) * k) / l, c[1] + ((my - c[1]) * k) / l, c[2]]));
    expect(rooms[0]).toBe(0);
    for (let k = 1; k < rooms.length; k++) expect(rooms[k]!, JSON.stringify(rooms)).toBeGreaterThanOrEqual(rooms[k - 1]!);
    expect(rooms.at(-1)!, JSON.stringify(rooms)).toBeGreaterThan(2);
    expect(rooms.at(-1)!, JSON.stringify(rooms)).toBeLessThan(Infinity);
    // no teeth, no arch: nothing bounds the room (the wires fail on their teeth instead)
    const none = toothSideRoom(jawArchOrNone({ jaw: 'lower', positions: g.positions, labels: new Uint8Array(g.labels.length), occlusal, teeth: [], matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], direction: [0, 0, 1] }));
    expect(none(c)).toBe(Infinity);
  });

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
