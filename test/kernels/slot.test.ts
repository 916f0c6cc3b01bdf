// Slotting (workers/kernels/slot.ts) with the real manifold-3d wasm: a plate
// minus a straight tag path is one closed, manifold shell lighter by the
// tube's volume, with the slot where the path runs; a generated base slotted
// along its outer surface stays closed; every failure has its code; a
// cancelled job stops.

import { beforeAll, describe, expect, it } from 'vitest';
import type { Manifold, ManifoldToplevel, Vec3 } from 'manifold-3d';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import { generateBase, type BaseMesh } from '../../workers/kernels/base.ts';
import { buildBvh, raycastOne } from '../../workers/kernels/bvh.ts';
import { KernelError, type JobOptions } from '../../workers/kernels/job.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { cutSlot, loadManifold, segmentDistance, simplifyPath, SlotError, type SlotBase, type SlotResult, type SlotWire } from '../../workers/kernels/slot.ts';
import { analyzeMesh } from '../../workers/kernels/topology.ts';
import { heightFieldSolid, jawHorseshoe, mushroomBlock, palateJaw } from '../fixtures/base-models.ts';
import { filterTriangles } from '../fixtures/mesh.ts';
import { circle, pickOutline } from './base-checks.ts';
import { loadKernels } from './kernels.ts';

let wasm: ManifoldToplevel;
let k: KernelExports;

beforeAll(async () => {
  wasm = await loadManifold();
  k = await loadKernels();
});

/** 20 × 10 × 3 mm plate: x -10..10, y -5..5, z -3..0. */
function plate(): SlotBase {
  return heightFieldSolid(() => 0, -10, 10, -5, 5, 8, 4, -3);
}

function wire(path: number[], extra: Partial<SlotWire> = {}): SlotWire {
  return { type: 'labialBow', path: new Float32Array(path), diameter: 0.8, clearance: 0.1, ...extra };
}

/** The topology kernel's health report of a result: closed, manifold, consistently oriented, no degenerate triangles. */
async function health(r: SlotResult): Promise<{ closed: boolean; manifold: boolean; shells: number; open: number; nonManifold: number; inconsistent: number }> {
  k.arenaReset();
  const h = await analyzeMesh(meshFromArrays(k, r.positions, r.indices));
  return { closed: h.closed, manifold: h.manifold, shells: h.shellCount, open: h.openEdges, nonManifold: h.nonManifoldEdges, inconsistent: h.inconsistentEdges };
}

/** How much of a small ball at p lies inside the result (0: p is in the slot or outside; 1: in the material). */
function materialAround(r: SlotResult, p: Vec3, radius = 0.15): number {
  const solid: Manifold = new wasm.Manifold(new wasm.Mesh({ numProp: 3, vertProperties: r.positions, triVerts: r.indices }));
  const ball = wasm.Manifold.sphere(radius, 16).translate(p);
  const both = solid.intersect(ball);
  const fraction = both.volume() / ball.volume();
  for (const m of [solid, ball, both]) m.delete();
  return fraction;
}

async function failure(base: SlotBase | null, w: SlotWire, options: JobOptions = {}): Promise<string> {
  try {
    await cutSlot(wasm, base, w, options);
  } catch (e) {
    if (e instanceof SlotError || e instanceof KernelError) return e.code;
    throw e;
  }
  throw new Error('expected a failure');
}

describe('a straight tag in a plate', () => {
  // The tag enters through the plate's +x side (x = 10) and ends inside at x = -5, 1.5 mm deep.
  const path = [-5, 0, -1.5, 0, 0, -1.5, 12, 0, -1.5];
  const r = 0.4 + 0.1;
  let result: SlotResult;
  let base: SlotBase;
  beforeAll(async () => {
    base = plate();
    result = await cutSlot(wasm, base, wire(path));
  });

  it('is one closed, manifold shell', async () => {
    expect(await health(result)).toEqual({ closed: true, manifold: true, shells: 1, open: 0, nonManifold: 0, inconsistent: 0 });
    expect(result.triangleCount).toBe(result.indices.length / 3);
    expect(result.normals.length).toBe(result.positions.length);
  });

  it('loses the volume of the tube inside the plate (15 mm of radius 0.5 plus a half ball)', () => {
    expect(result.volumeBefore).toBeCloseTo(600, 3);
    const tube = Math.PI * r * r * 15 + (2 / 3) * Math.PI * r ** 3;
    const removed = result.volumeBefore - result.volumeAfter;
    expect(removed / tube).toBeGreaterThan(0.97);
    expect(removed / tube).toBeLessThan(1.01);
  });

  it('has the slot where the path runs, and material beside it', () => {
    for (const x of [-4.9, -2, 0, 3, 6, 9.9]) expect(materialAround(result, [x, 0, -1.5])).toBe(0);
    for (const p of [[-5.8, 0, -1.5], [0, 0.8, -1.5], [0, 0, -2.3], [6, -0.8, -1.5]] as Vec3[]) expect(materialAround(result, p)).toBeCloseTo(1, 6);
  });

  it('leaves the base it was given unchanged (undo keeps the original)', () => {
    expect(base.positions).toEqual(plate().positions);
    expect(base.indices).toEqual(plate().indices);
  });

  it('with a depth, is a channel open towards the given side', async () => {
    const open = await cutSlot(wasm, base, wire(path, { depth: 3, openDirection: [0, 0, 1] }));
    expect(await health(open)).toMatchObject({ closed: true, manifold: true, shells: 1 });
    // Above the path up to the top face (z = 0) there is no material now.
    for (const z of [-1.5, -1, -0.5, -0.1]) expect(materialAround(open, [0, 0, z], 0.1)).toBe(0);
    expect(materialAround(open, [0, 0, -2.3], 0.1)).toBeCloseTo(1, 6);
    // Over 15 mm: the lower half of the tube and a 2r wide, 1.5 mm high channel above it (plus the end's quarter balls).
    const channel = (Math.PI * r * r) / 2 + 2 * r * 1.5;
    const removed = open.volumeBefore - open.volumeAfter;
    expect(removed / (channel * 15)).toBeGreaterThan(0.98);
    expect(removed / (channel * 15)).toBeLessThan(1.05);
  });
});

describe('a generated base slotted along its outer surface', () => {
  let base: BaseMesh;
  beforeAll(async () => {
    const model = mushroomBlock();
    const mesh = meshFromArrays(await loadKernels(), model.positions, model.indices);
    const bvh = buildBvh(mesh);
    base = await generateBase(mesh, bvh, pickOutline(bvh, circle(0, 0, 10, 32)), { thickness: 2 });
  });

  it('stays one closed, manifold shell with a groove along the path', async () => {
    // An arc at radius 7 on the flat part of the block, on the base's outer surface (about z = 2), as the editor picks it.
    const baseBvh = buildBvh(meshFromArrays(await loadKernels(), base.positions, base.indices));
    const arc = circle(0, 0, 7, 48)
      .slice(0, 9)
      .flatMap(([x, y]) => raycastOne(baseBvh, [x, y, 50], [0, 0, -1])!.point);
    const result = await cutSlot(wasm, base, wire(arc, { type: 'singleArmClasp' }));
    expect(await health(result)).toEqual({ closed: true, manifold: true, shells: 1, open: 0, nonManifold: 0, inconsistent: 0 });
    expect(result.volumeAfter).toBeLessThan(result.volumeBefore);
    expect(result.volumeBefore).toBeCloseTo(base.volume, 0);
    for (let i = 0; i < arc.length; i += 3) expect(materialAround(result, [arc[i]!, arc[i + 1]!, arc[i + 2]! - 0.2], 0.1)).toBe(0);
    // Half a tube of radius 0.5 along the arc (length 7 × 8 × 2π / 48), a quarter ball at each end (+5 %), and some
    // more where the outer surface is not flat (it rises from 2.01 to 2.1 mm along the arc: the envelope's smoothing).
    const length = (7 * 8 * 2 * Math.PI) / 48;
    const half = (Math.PI * 0.25 * length) / 2;
    expect((result.volumeBefore - result.volumeAfter) / half).toBeGreaterThan(0.9);
    expect((result.volumeBefore - result.volumeAfter) / half).toBeLessThan(1.25);
  });
});

describe('a horseshoe base over the generated jaw (about 38k triangles)', () => {
  it('slotted along the front for a labial bow (a path picked every 0.25 mm, open channel) stays one closed shell', async () => {
    const jaw = palateJaw();
    const mesh = meshFromArrays(await loadKernels(), jaw.positions, jaw.indices);
    const bvh = buildBvh(mesh);
    const base = await generateBase(mesh, bvh, pickOutline(bvh, jawHorseshoe()), { thickness: 2 });
    const baseBvh = buildBvh(meshFromArrays(await loadKernels(), base.positions, base.indices));
    const path: number[] = [];
    for (let i = 0; i <= 64; i++) {
      const hit = raycastOne(baseBvh, [-8 + i / 4, -14, 60], [0, 0, -1])!;
      path.push(hit.point[0], hit.point[1], hit.point[2] - 0.2);
    }
    const result = await cutSlot(wasm, base, wire(path, { diameter: 0.9, depth: 3 }));
    expect(await health(result)).toEqual({ closed: true, manifold: true, shells: 1, open: 0, nonManifold: 0, inconsistent: 0 });
    // At least the part of a 16 mm tube of radius 0.55 under the surface (its centre 0.2 mm below).
    const r = 0.55;
    const under = r * r * Math.acos(-0.2 / r) + 0.2 * Math.sqrt(r * r - 0.04);
    expect(result.volumeBefore - result.volumeAfter).toBeGreaterThan(under * 16 * 0.95);
    for (let i = 0; i < path.length; i += 3) expect(materialAround(result, [path[i]!, path[i + 1]!, path[i + 2]!], 0.1)).toBe(0);
  });
});

describe('the swept path', () => {
  it('drops points within the tolerance of a straight run and keeps the ends and the bends', () => {
    const straight: Vec3[] = Array.from({ length: 41 }, (_, i) => [i / 4, 0.001 * Math.sin(i), 0]);
    expect(simplifyPath(straight, 0.01)).toEqual([straight[0], straight[40]]);
    const bent: Vec3[] = [...straight, ...Array.from({ length: 40 }, (_, i) => [10, (i + 1) / 4, 0] as Vec3)];
    expect(simplifyPath(bent, 0.01)).toEqual([straight[0], [10, 0.001 * Math.sin(40), 0], bent.at(-1)]);
    const arc: Vec3[] = Array.from({ length: 100 }, (_, i) => [10 * Math.cos(i / 50), 10 * Math.sin(i / 50), 0]);
    const kept = simplifyPath(arc, 0.01);
    expect(kept.length).toBeLessThan(arc.length / 2);
    for (const p of arc) expect(Math.min(...kept.slice(1).map((b, j) => segmentDistance(p, kept[j]!, b)))).toBeLessThanOrEqual(0.01 + 1e-9);
  });
});

describe('failures', () => {
  it('NO_BASE without a base', async () => {
    expect(await failure(null, wire([0, 0, -1.5, 12, 0, -1.5]))).toBe('NO_BASE');
    expect(await failure({ positions: new Float32Array(0), indices: new Uint32Array(0) }, wire([0, 0, -1.5, 12, 0, -1.5]))).toBe('NO_BASE');
  });

  it('SLOT_WIRE_TYPE for a wraparound bow (and anything unknown); the arrow clasp is slottable', async () => {
    expect(await failure(plate(), wire([0, 0, -1.5, 12, 0, -1.5], { type: 'wraparoundBow' }))).toBe('SLOT_WIRE_TYPE');
    expect(await failure(plate(), wire([0, 0, -1.5, 12, 0, -1.5], { type: 'spring' }))).toBe('SLOT_WIRE_TYPE');
    const arrow = await cutSlot(wasm, plate(), wire([0, 0, -1.5, 12, 0, -1.5], { type: 'arrowClasp' }));
    expect(arrow.volumeAfter).toBeLessThan(arrow.volumeBefore);
  });

  it('SLOT_BASE_NOT_MANIFOLD for a base with a hole', async () => {
    const open = filterTriangles(plate(), (t) => t !== 3);
    expect(await failure(open, wire([0, 0, -1.5, 12, 0, -1.5]))).toBe('SLOT_BASE_NOT_MANIFOLD');
  });

  it('SLOTTING_FAILED when the path misses the base, seals a cavity inside it, or cuts it in two', async () => {
    expect(await failure(plate(), wire([0, 0, 5, 12, 0, 5]))).toBe('SLOTTING_FAILED');
    expect(await failure(plate(), wire([-5, 0, -1.5, 5, 0, -1.5]))).toBe('SLOTTING_FAILED');
    expect(await failure(plate(), wire([0, -8, -1.5, 0, 8, -1.5], { diameter: 4, depth: 5 }))).toBe('SLOTTING_FAILED');
  });

  it('drops the shards of no volume a cut can leave, and does not count them as pieces', async () => {
    // the plate with a shard beside it: a tetrahedron of 0.001 mm³
    const p = plate();
    const n = p.positions.length / 3;
    const h = Math.cbrt(0.006);
    const shard = [0, 8, 0, h, 8, 0, 0, 8 + h, 0, 0, 8, h];
    const base: SlotBase = {
      positions: Float32Array.from([...p.positions, ...shard]),
      indices: Uint32Array.from([...p.indices, n, n + 2, n + 1, n, n + 1, n + 3, n, n + 3, n + 2, n + 1, n + 2, n + 3]),
    };
    const r = await cutSlot(wasm, base, wire([0, 0, -1.5, 12, 0, -1.5]));
    expect(Math.max(...Array.from({ length: r.positions.length / 3 }, (_, i) => r.positions[3 * i + 1]!))).toBeLessThanOrEqual(5 + 1e-6);
    expect((await health(r)).shells).toBe(1);
  });

  it('BAD_INPUT for a path of one point or a diameter out of range', async () => {
    expect(await failure(plate(), wire([0, 0, -1.5]))).toBe('BAD_INPUT');
    expect(await failure(plate(), wire([0, 0, -1.5, 12, 0, -1.5], { diameter: 0 }))).toBe('BAD_INPUT');
  });

  it('ABORTED when cancelled, before or while the slot solid is built', async () => {
    expect(await failure(plate(), wire([0, 0, -1.5, 12, 0, -1.5]), { shouldCancel: () => true })).toBe('ABORTED');
    // A long tag (400 segments): cancelled at the first yield after the work started.
    const long: number[] = [];
    for (let i = 0; i <= 400; i++) long.push(-8 + (20 * i) / 400, Math.sin(i / 20), -1.5);
    let polls = 0;
    const progress: number[] = [];
    const code = await failure(plate(), wire(long), { shouldCancel: () => ++polls > 2, onProgress: (f) => progress.push(f), sliceMs: 0 });
    expect(code).toBe('ABORTED');
    expect(progress.at(-1)).toBeLessThan(1);
  });
});
