import { describe, expect, it } from 'vitest';
import { geodesicDistance, type SurfacePoint } from '../../workers/kernels/geodesic.ts';
import { meshFromArrays, type MeshRef } from '../../workers/kernels/mesh.ts';
import { ensureTopology } from '../../workers/kernels/topology.ts';
import { gridPlane, type IndexedMesh, mergeMeshes, uvSphere } from '../fixtures/mesh.ts';
import { loadKernels } from './kernels.ts';

async function load(mesh: IndexedMesh): Promise<MeshRef> {
  return meshFromArrays(await loadKernels(), mesh.positions, mesh.indices);
}

/** The centroid of triangle t, as a pick on it would give. */
function centroid(mesh: IndexedMesh, t: number): SurfacePoint {
  const p: [number, number, number] = [0, 0, 0];
  for (let c = 0; c < 3; c++) {
    const v = mesh.indices[t * 3 + c]!;
    for (let a = 0; a < 3; a++) p[a]! += mesh.positions[v * 3 + a]! / 3;
  }
  return { triangle: t, point: p };
}

function polylineLength(path: Float32Array): number {
  let sum = 0;
  for (let i = 3; i < path.length; i += 3) sum += Math.hypot(path[i]! - path[i - 3]!, path[i + 1]! - path[i - 2]!, path[i + 2]! - path[i - 1]!);
  return sum;
}

describe('geodesic distance', () => {
  it('on a flat plane: the straight line, within 1 %, where the bare vertex graph is several % long', async () => {
    const plane = gridPlane(40, 1);
    const m = await load(plane);
    const cell = (i: number, j: number): number => 2 * (j * 40 + i);
    for (const [from, to] of [
      [cell(3, 5), cell(35, 28)],
      [cell(1, 1), cell(38, 12) + 1],
      [cell(20, 2), cell(22, 37)],
    ] as const) {
      const a = centroid(plane, from);
      const b = centroid(plane, to);
      const r = await geodesicDistance(m, a, b);
      if (process.env.TOPOLOGY_VERBOSE) console.log('plane', r.length, r.straight, r.graphLength, r.settledNodes);
      expect(r.straight).toBeCloseTo(Math.hypot(b.point[0] - a.point[0], b.point[1] - a.point[1]), 5);
      expect(r.length / r.straight - 1).toBeGreaterThan(-1e-6);
      expect(r.length / r.straight - 1).toBeLessThan(0.01);
      // The polyline starts and ends at the picks, lies in the plane and has the reported length.
      expect([...r.path.subarray(0, 3)]).toEqual(a.point.map(Math.fround));
      expect([...r.path.subarray(-3)]).toEqual(b.point.map(Math.fround));
      for (let i = 2; i < r.path.length; i += 3) expect(r.path[i]).toBe(0);
      expect(polylineLength(r.path)).toBeCloseTo(r.length, 4);
    }
    // Without Steiner points and shortening, the graph path zig-zags.
    const a = centroid(plane, cell(3, 5));
    const b = centroid(plane, cell(35, 28));
    const bare = await geodesicDistance(m, a, b, { steinerPoints: 0, sweeps: 0 });
    expect(bare.length / bare.straight - 1).toBeGreaterThan(0.03);
  });

  it('on a sphere: the great-circle distance within 2 %, along a path on the surface', async () => {
    const R = 10;
    const sphere = uvSphere(R, 96, 48);
    const m = await load(sphere);
    const T = sphere.indices.length / 3;
    for (const [ta, tb] of [
      [5000, 5100],
      [300, T - 400],
      [1234, 7777],
    ] as const) {
      const a = centroid(sphere, ta);
      const b = centroid(sphere, tb);
      const ua = a.point.map((x) => x / Math.hypot(...a.point));
      const ub = b.point.map((x) => x / Math.hypot(...b.point));
      const angle = Math.acos(Math.min(1, ua[0]! * ub[0]! + ua[1]! * ub[1]! + ua[2]! * ub[2]!));
      const greatCircle = R * angle;
      const r = await geodesicDistance(m, a, b);
      if (process.env.TOPOLOGY_VERBOSE) console.log('sphere', r.length, greatCircle, r.graphLength, r.settledNodes);
      expect(Math.abs(r.length / greatCircle - 1)).toBeLessThan(0.02);
      expect(r.length).toBeGreaterThan(r.straight);
      // Every path point lies on the inscribed polyhedron: inside the sphere, close to it.
      for (let i = 0; i < r.path.length; i += 3) {
        const d = Math.hypot(r.path[i]!, r.path[i + 1]!, r.path[i + 2]!);
        expect(d).toBeLessThanOrEqual(R + 1e-4);
        expect(d).toBeGreaterThan(R * 0.99);
      }
    }
  });

  it('two points on one triangle: the straight segment', async () => {
    const plane = gridPlane(4, 1);
    const m = await load(plane);
    const r = await geodesicDistance(m, { triangle: 0, point: [0.5, 0.1, 0] }, { triangle: 0, point: [0.9, 0.5, 0] });
    expect(r.length).toBeCloseTo(Math.hypot(0.4, 0.4), 6);
    expect(r.path.length).toBe(6);
  });

  it('points on separate shells are BAD_INPUT; a bad triangle id too; cancellation is ABORTED', async () => {
    const two = mergeMeshes(uvSphere(5, 16, 8), uvSphere(5, 16, 8, [20, 0, 0]));
    const m = await load(two);
    const a = centroid(two, 0);
    const b = centroid(two, 300);
    await expect(geodesicDistance(m, a, b)).rejects.toThrow(/separate shells/);
    await expect(geodesicDistance(m, a, { triangle: 10_000, point: [0, 0, 0] })).rejects.toThrow(/BAD_INPUT/);
    const big = gridPlane(300, 1);
    const mb = await load(big);
    await ensureTopology(mb);
    await expect(
      geodesicDistance(mb, centroid(big, 0), centroid(big, big.indices.length / 3 - 1), { sliceMs: 0, shouldCancel: () => true }),
    ).rejects.toThrow(/ABORTED/);
    // The same instance still answers afterwards.
    const r = await geodesicDistance(mb, centroid(big, 0), centroid(big, 2 * 301));
    expect(r.length).toBeGreaterThan(0);
  });
});

describe('geodesic search arrays', () => {
  it('are allocated once per mesh: repeated queries, and fewer Steiner points, reuse them', async () => {
    const plane = gridPlane(30, 1);
    const m = await load(plane);
    const a = centroid(plane, 10);
    const b = centroid(plane, 1500);
    const first = await geodesicDistance(m, a, b);
    const used = m.k.arenaUsed();
    const again = await geodesicDistance(m, a, b);
    expect(again.length).toBe(first.length);
    const coarse = await geodesicDistance(m, a, b, { steinerPoints: 1 });
    expect(coarse.length).toBeGreaterThanOrEqual(first.length * 0.999);
    await geodesicDistance(m, a, b);
    expect(m.k.arenaUsed()).toBe(used);
  });
});
