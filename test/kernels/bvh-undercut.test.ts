import { describe, expect, it, vi } from 'vitest';
import { buildBvh } from '../../workers/kernels/bvh.ts';
import { KernelError } from '../../workers/kernels/job.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { RAMP_NO_VALUE, RAMP_STOPS, rampColor, rampColors } from '../../workers/kernels/ramp.ts';
import { bestInsertionDirection, capDirections, undercutMap } from '../../workers/kernels/undercut.ts';
import { rotate, rotateMesh, stumpMesh, uvSphereMesh, type IndexedMesh, type Vec3 } from '../fixtures/meshes.ts';
import { mergeMeshes, vertexNormals } from '../fixtures/mesh.ts';
import { bruteHits } from './bvh-brute.ts';
import { loadKernels } from './kernels.ts';

async function setUp(m: IndexedMesh) {
  const k = await loadKernels();
  const mesh = meshFromArrays(k, m.positions, m.indices);
  return { k, mesh, bvh: buildBvh(mesh) };
}

const R = 10;
const sphere = uvSphereMesh({ radius: R, segments: 64, rings: 32 });

describe('undercut map', () => {
  it('of a sphere for insertion along +z is its lower hemisphere', async () => {
    const { mesh, bvh } = await setUp(sphere);
    const r = await undercutMap(mesh, bvh, [0, 0, 3]);
    expect(r.direction).toEqual([0, 0, 1]);
    const band = 0.05 * R;
    let checked = 0;
    for (let v = 0; v < mesh.vertexCount; v++) {
      const z = sphere.positions[v * 3 + 2]!;
      if (Math.abs(z) <= band) continue; // the equator: tangent rays
      checked++;
      expect(r.undercut[v], `vertex ${v} at z=${z}`).toBe(z < 0 ? 1 : 0);
      if (z < 0) {
        // Blocked by the upper hemisphere straight above: depth 2|z|.
        expect(r.depth[v]).toBeGreaterThan(-2 * z - 0.1);
        expect(r.depth[v]).toBeLessThan(-2 * z + 0.1);
      } else {
        expect(r.depth[v]).toBe(0);
      }
    }
    expect(checked).toBeGreaterThan(mesh.vertexCount * 0.9);
    expect(r.totalArea).toBeCloseTo(4 * Math.PI * R * R, -1);
    expect(r.area / r.totalArea).toBeGreaterThan(0.46);
    expect(r.area / r.totalArea).toBeLessThan(0.54);
    expect(r.maxDepth).toBeCloseTo(2 * R, 0);
  });

  it('flips with the direction: -z puts the upper hemisphere in undercut', async () => {
    const { mesh, bvh } = await setUp(sphere);
    const r = await undercutMap(mesh, bvh, [0, 0, -1]);
    for (let v = 0; v < mesh.vertexCount; v++) {
      const z = sphere.positions[v * 3 + 2]!;
      if (Math.abs(z) > 0.05 * R) expect(r.undercut[v]).toBe(z > 0 ? 1 : 0);
    }
  });

  it('colours undercut vertices by depth and leaves free ones grey', async () => {
    const { mesh, bvh } = await setUp(sphere);
    const r = await undercutMap(mesh, bvh, [0, 0, 1], { colors: 'auto' });
    expect(r.range).toEqual({ min: 0, max: r.maxDepth });
    const south = mesh.vertexCount - 1;
    expect(Array.from(r.colors!.subarray(0, 4))).toEqual([...RAMP_NO_VALUE, 1].map(Math.fround)); // north pole: free
    const deep = Array.from(r.colors!.subarray(south * 4, south * 4 + 4));
    expect(deep[0]).toBeGreaterThan(0.95); // the deepest: red
    expect(deep[1]).toBeLessThan(0.05);
  });

  it('walls parallel to the insertion direction are not undercut (rays along a wall do not count)', async () => {
    // A straight cylinder (no draft) seen from +z, like the vertical walls of a model's plinth:
    // each wall vertex's ray runs exactly along its own wall's edge.
    const wall = stumpMesh({ bottomRadius: 5, topRadius: 5, height: 8 });
    for (const withNormals of [false, true]) {
      const k = await loadKernels();
      const mesh = meshFromArrays(k, wall.positions, wall.indices, withNormals ? vertexNormals(wall.positions, wall.indices) : undefined);
      const r = await undercutMap(mesh, buildBvh(mesh), [0, 0, 1]);
      expect(r.count, withNormals ? 'with normals' : 'normals computed').toBe(0);
    }
    // ...while a real overhang still is: the same wall tilted 5 degrees outwards at the top.
    const flare = stumpMesh({ bottomRadius: 5, topRadius: 5.7, height: 8 });
    const { mesh, bvh } = await setUp(flare);
    const r = await undercutMap(mesh, bvh, [0, 0, 1]);
    expect(r.count).toBeGreaterThan(0);
  });

  it('a stump with draft has no undercut along its axis', async () => {
    const { mesh, bvh } = await setUp(stumpMesh());
    const r = await undercutMap(mesh, bvh, [0, 0, 1]);
    expect(r.count).toBe(0);
    expect(r.area).toBe(0);
    const tilted = await undercutMap(mesh, bvh, rotate([0, 0, 1], [1, 0, 0], (15 * Math.PI) / 180));
    expect(tilted.count).toBeGreaterThan(0);
  });

  it('reports progress and stops with ABORTED when cancelled, releasing its memory', async () => {
    const { k, mesh, bvh } = await setUp(sphere);
    const used = k.arenaUsed();
    const fractions: number[] = [];
    await undercutMap(mesh, bvh, [0, 0, 1], { chunk: 64, sliceMs: 0, onProgress: (f) => fractions.push(f), progressIntervalMs: 0 });
    expect(fractions.length).toBeGreaterThan(3);
    expect(fractions.at(-1)).toBe(1);
    let polls = 0;
    const job = undercutMap(mesh, bvh, [0, 0, 1], { chunk: 64, sliceMs: 0, shouldCancel: () => polls++ > 2 });
    await expect(job).rejects.toBeInstanceOf(KernelError);
    await expect(job).rejects.toMatchObject({ code: 'ABORTED' });
    const best = bestInsertionDirection(mesh, bvh, [0, 0, 1], { chunk: 64, sliceMs: 0, shouldCancel: () => polls++ > 10 });
    await expect(best).rejects.toMatchObject({ code: 'ABORTED' });
    expect(k.arenaUsed()).toBe(used);
  });
});

/** A copy of `m` moved by `by`. */
function moved(m: IndexedMesh, by: Vec3): IndexedMesh {
  const positions = m.positions.map((x, i) => x + by[i % 3]!);
  return { positions, indices: m.indices };
}

/**
 * The reference: is the ray from vertex v itself towards +d blocked? Every triangle in f64
 * (bvh-brute.ts), without v's own triangles (their plane passes through v).
 */
function ownRayBlocked(m: IndexedMesh, v: number, d: Vec3): boolean {
  const o: Vec3 = [m.positions[v * 3]!, m.positions[v * 3 + 1]!, m.positions[v * 3 + 2]!];
  return bruteHits(m, o, d, 1e-9).some(({ triangle }) => {
    const i = m.indices;
    return i[triangle * 3] !== v && i[triangle * 3 + 1] !== v && i[triangle * 3 + 2] !== v;
  });
}

/** Vertices whose flag differs from their own ray's, leaving out those tangent to d (|n.d| < 0.02). */
function disagreements(m: IndexedMesh, flags: Uint8Array, d: Vec3): number[] {
  const normals = vertexNormals(m.positions, m.indices);
  const out: number[] = [];
  for (let v = 0; v < m.positions.length / 3; v++) {
    const nd = normals[v * 3]! * d[0] + normals[v * 3 + 1]! * d[1] + normals[v * 3 + 2]! * d[2];
    if (Math.abs(nd) >= 0.02 && (flags[v] === 1) !== ownRayBlocked(m, v, d)) out.push(v);
  }
  return out;
}

const merged = (...meshes: IndexedMesh[]): IndexedMesh => {
  const m = mergeMeshes(...meshes);
  return { positions: new Float32Array(m.positions), indices: new Uint32Array(m.indices) };
};

// Scenes the size of a jaw (a far stump stretches the bounding box to about 90 mm), since the
// origin offsets scale with the diagonal.
const FAR = moved(stumpMesh({ segments: 8, rings: 1 }), [80, 0, 0]);

describe('undercut rays start at the vertex itself (offsets far below any gap that matters)', () => {
  it('a fine sphere has half its area in undercut for a vertical direction (50 % ± 0.5 %)', async () => {
    for (const grid of [{ segments: 250, rings: 201 }, { segments: 256, rings: 200 }]) {
      const { mesh, bvh } = await setUp(uvSphereMesh({ radius: R, ...grid }));
      const r = await undercutMap(mesh, bvh, [0, 0, 1]);
      expect(r.area / r.totalArea, JSON.stringify(grid)).toBeGreaterThan(0.495);
      expect(r.area / r.totalArea, JSON.stringify(grid)).toBeLessThan(0.505);
    }
  });

  it('a narrow contact (two crowns 0.05 mm apart) is not flagged: the ray does not start in the neighbour', async () => {
    // Two stumps with draft, their bottom rims 0.05 mm apart: for +z nothing is in undercut.
    const scene = merged(stumpMesh(), moved(stumpMesh(), [10.05, 0, 0]), FAR);
    const { mesh, bvh } = await setUp(scene);
    const r = await undercutMap(mesh, bvh, [0, 0, 1]);
    expect(r.count).toBe(0);
    expect(r.maxDepth).toBe(0);
    expect(disagreements(scene, r.undercut, [0, 0, 1])).toEqual([]);
  });

  it('vertices facing the direction in the shadow of an overhang are blocked, as their own ray is', async () => {
    // A stump under a lid whose rim reaches 0.03 mm past the stump's bottom rim: the rim's
    // vertices face up and out, and their rays straight up hit the lid.
    // (The lid turned by half a segment, so that no ray runs exactly through one of its edges,
    // where the brute-force reference is not watertight.)
    const lid = moved(rotateMesh(stumpMesh({ bottomRadius: 5.03, topRadius: 5.03, height: 0.5, rings: 1 }), [0, 0, 1], Math.PI / 48), [0, 0, 12]);
    const scene = merged(stumpMesh(), lid, FAR);
    const { mesh, bvh } = await setUp(scene);
    const r = await undercutMap(mesh, bvh, [0, 0, 1]);
    const segments = 48;
    for (let j = 0; j < segments; j++) {
      expect(r.undercut[j], `bottom rim vertex ${j}`).toBe(1);
      expect(r.depth[j]).toBeCloseTo(12.5, 3);
    }
    expect(disagreements(scene, r.undercut, [0, 0, 1])).toEqual([]);
  });
});

describe('best insertion direction, as a job', () => {
  it('gives the event loop a turn every slice although each direction it scores takes less (so a cancel gets through)', async () => {
    const { mesh, bvh } = await setUp(sphere);
    // A clock that moves 10 ms a reading: the sphere is one chunk, so each score reads it once or twice.
    let t = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => (t += 10));
    let yields = 0;
    try {
      await bestInsertionDirection(mesh, bvh, [0, 0, 1], { samples: 16, refineRounds: 1, sliceMs: 30, yieldToEventLoop: async () => void yields++ });
    } finally {
      now.mockRestore();
    }
    // About 30 scores, a reading each: a yield every third (none when each score kept its own slice).
    expect(yields).toBeGreaterThanOrEqual(8);
  });
});

describe('best insertion direction', () => {
  const axis: Vec3 = [1, 0, 0];
  const tilt = (20 * Math.PI) / 180;
  // Draft atan(1/8) = 7.1 degrees: only directions within it of the axis are free.
  const stump = rotateMesh(stumpMesh({ bottomRadius: 5, topRadius: 4, height: 8 }), axis, tilt);
  const stumpAxis = rotate([0, 0, 1], axis, tilt);
  const degreesBetween = (a: Vec3, b: Vec3): number => (Math.acos(Math.min(1, a[0] * b[0] + a[1] * b[1] + a[2] * b[2])) * 180) / Math.PI;

  it('finds the undercut-free direction of a tilted stump from a vertical hint', async () => {
    const { mesh, bvh } = await setUp(stump);
    const progress: number[] = [];
    const r = await bestInsertionDirection(mesh, bvh, [0, 0, 1], { halfAngleDeg: 30, onProgress: (f) => progress.push(f) });
    expect(r.hintArea).toBeGreaterThan(0);
    expect(r.area).toBe(0);
    expect(degreesBetween(r.direction, stumpAxis)).toBeLessThan(7.5);
    expect(Math.hypot(...r.direction)).toBeCloseTo(1, 6);
    expect(r.angleDeg).toBeGreaterThan(12);
    expect(r.angleDeg).toBeLessThanOrEqual(30);
    expect(progress.at(-1)).toBe(1);
    const check = await undercutMap(mesh, bvh, r.direction);
    expect(check.area).toBe(0);
  });

  it('stays inside the cone: with a 10 degree cone it gets as close as it can', async () => {
    const { mesh, bvh } = await setUp(stump);
    const r = await bestInsertionDirection(mesh, bvh, [0, 0, 1], { halfAngleDeg: 10, maxSampleVertices: 500 });
    expect(r.angleDeg).toBeLessThanOrEqual(10 + 1e-6);
    expect(r.area).toBeLessThan(r.hintArea);
    // Leaning towards the stump's axis.
    expect(degreesBetween(r.direction, stumpAxis)).toBeLessThan(degreesBetween([0, 0, 1], stumpAxis));
  });

  it('returns the hint itself when it is already free', async () => {
    const { mesh, bvh } = await setUp(stumpMesh());
    const r = await bestInsertionDirection(mesh, bvh, [0, 0, 1], { samples: 16, refineRounds: 1 });
    expect(r.direction).toEqual([0, 0, 1]);
    expect(r.area).toBe(0);
    expect(r.hintArea).toBe(0);
  });

  it('spreads cap directions evenly within the cone', () => {
    const dirs = capDirections([0, 0, 1], (30 * Math.PI) / 180, 64);
    expect(dirs).toHaveLength(64);
    for (const d of dirs) {
      expect(Math.hypot(...d)).toBeCloseTo(1, 9);
      expect(d[2]).toBeGreaterThanOrEqual(Math.cos((30 * Math.PI) / 180) - 1e-9);
    }
    const east = dirs.filter((d) => d[0] > 0).length;
    expect(east).toBeGreaterThan(24);
    expect(east).toBeLessThan(40);
  });
});

describe('colour ramp', () => {
  it('runs blue, green, yellow, red over the range, clamped, with grey for no value', async () => {
    const k = await loadKernels();
    const range = { min: -1, max: 2 };
    const values = new Float32Array([-1, 0, 0.5, 1, 2, -5, 9, Number.NaN]);
    const colors = rampColors(k, values, range);
    const rgba = (i: number): number[] => Array.from(colors.subarray(i * 4, i * 4 + 4));
    expect(rgba(0)).toEqual([0, 0, 1, 1]);
    expect(rgba(1)).toEqual([0, 1, 0, 1]);
    expect(rgba(2)[0]).toBeCloseTo(0.5, 6);
    expect(rgba(2)[1]).toBeCloseTo(1, 6);
    expect(rgba(3)).toEqual([1, 1, 0, 1]);
    expect(rgba(4)).toEqual([1, 0, 0, 1]);
    expect(rgba(5)).toEqual([0, 0, 1, 1]);
    expect(rgba(6)).toEqual([1, 0, 0, 1]);
    expect(rgba(7)).toEqual([...RAMP_NO_VALUE, 1].map(Math.fround));
    for (let i = 0; i < values.length; i++) {
      const js = rampColor(values[i]!, range);
      js.forEach((c, j) => expect(rgba(i)[j]).toBeCloseTo(c, 6));
    }
    expect(RAMP_STOPS.map((s) => s.color)).toEqual([
      [0, 0, 1],
      [0, 1, 0],
      [1, 1, 0],
      [1, 0, 0],
    ]);
  });
});
