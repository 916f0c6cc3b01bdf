import { beforeAll, describe, expect, it } from 'vitest';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import {
  buildBvh,
  bvhBounds,
  bvhRefitIndex,
  bvhFromBytes,
  bvhToBytes,
  closestPoints,
  countHits,
  raycastAll,
  raycastAny,
  raycastFirst,
  raycastOne,
  refitBvh,
  refitBvhVertices,
  type Bvh,
} from '../../workers/kernels/bvh.ts';
import { KernelError } from '../../workers/kernels/job.ts';
import { meshFromArrays, meshViews, type MeshRef } from '../../workers/kernels/mesh.ts';
import { bumpySphereMesh, jawLikeMesh, rotateMesh, type IndexedMesh, type Vec3 } from '../fixtures/meshes.ts';
import { bruteClosest, bruteHits, pointAt, random, randomRays } from './bvh-brute.ts';
import { loadKernels } from './kernels.ts';

// About 12,000 triangles, lobed so rays cross it up to 6 times.
const blob = bumpySphereMesh(80, 76, 20);

/** One query of closestPoints (what the worker calls): the nearest surface point, or null when none within maxDistance. */
function closestPoint(bvh: Bvh, point: Vec3, maxDistance = Infinity): { point: Vec3; distance: number; triangle: number } | null {
  const r = closestPoints(bvh, new Float32Array(point), { maxDistance });
  if (r.found === 0) return null;
  return { point: [r.point[0]!, r.point[1]!, r.point[2]!], distance: r.distance[0]!, triangle: r.triangle[0]! };
}

async function loaded(m: IndexedMesh): Promise<{ k: KernelExports; mesh: MeshRef }> {
  const k = await loadKernels();
  return { k, mesh: meshFromArrays(k, m.positions, m.indices) };
}

function expectSameFirstHits(bvh: Bvh, m: IndexedMesh, rays: Float32Array): number {
  const r = raycastFirst(bvh, rays);
  let hits = 0;
  for (let i = 0; i < rays.length / 6; i++) {
    const o: Vec3 = [rays[i * 6]!, rays[i * 6 + 1]!, rays[i * 6 + 2]!];
    const d: Vec3 = [rays[i * 6 + 3]!, rays[i * 6 + 4]!, rays[i * 6 + 5]!];
    const brute = bruteHits(m, o, d);
    if (brute.length === 0) {
      expect(r.triangle[i], `ray ${i} misses`).toBe(-1);
      expect(r.t[i]).toBe(Infinity);
      continue;
    }
    hits++;
    expect(r.triangle[i], `ray ${i} hits`).toBeGreaterThanOrEqual(0);
    expect(r.t[i]).toBeCloseTo(brute[0]!.t, 3);
    // The reported triangle and barycentrics give the reported point.
    const p = pointAt(m, r.triangle[i]!, r.u[i]!, r.v[i]!);
    const q = [o[0] + d[0] * r.t[i]!, o[1] + d[1] * r.t[i]!, o[2] + d[2] * r.t[i]!];
    expect(Math.hypot(p[0] - q[0]!, p[1] - q[1]!, p[2] - q[2]!)).toBeLessThan(1e-3);
  }
  expect(r.hits).toBe(hits);
  return hits;
}

describe('BVH build', () => {
  it('makes a tree whose leaves hold every triangle once, within the leaf size', async () => {
    const { k, mesh } = await loaded(blob);
    const bvh = buildBvh(mesh, { maxLeafSize: 4 });
    expect(bvh.triangleCount).toBe(blob.indices.length / 3);
    expect(bvh.nodeCount % 2).toBe(1);
    expect(bvh.depth).toBeGreaterThan(8);
    expect(bvh.depth).toBeLessThan(40);
    const view = new DataView(k.memory.buffer, bvh.ptr, bvh.byteLength);
    const nodesOff = view.getUint32(24, true);
    const trisOff = view.getUint32(20, true);
    const seen = new Uint8Array(bvh.triangleCount);
    let leaves = 0;
    for (let i = 0; i < bvh.nodeCount; i++) {
      const count = view.getUint32(nodesOff + i * 32 + 28, true);
      const a = view.getUint32(nodesOff + i * 32 + 12, true);
      if (count === 0) continue;
      leaves++;
      expect(count).toBeLessThanOrEqual(4);
      for (let j = a; j < a + count; j++) seen[view.getUint32(trisOff + j * 48 + 12, true)]!++;
    }
    expect(leaves).toBe((bvh.nodeCount + 1) / 2);
    expect(seen.every((s) => s === 1)).toBe(true);
    const b = bvhBounds(bvh)!;
    const { positions } = meshViews(mesh);
    let minZ = Infinity;
    for (let i = 2; i < positions.length; i += 3) minZ = Math.min(minZ, positions[i]!);
    // The root's box: the triangles' box grown by about 1e-6 of the model's size.
    expect(b.min[2]).toBeLessThan(minZ);
    expect(b.min[2]).toBeGreaterThan(minZ - 1e-3);
  });

  it('rejects a triangle that refers to a missing vertex', async () => {
    const k = await loadKernels();
    const mesh = meshFromArrays(k, new Float32Array(9), new Uint32Array([0, 1, 3]));
    expect(() => buildBvh(mesh)).toThrow(KernelError);
    expect(() => buildBvh(mesh)).toThrow(/BAD_INPUT/);
  });

  it('answers misses on an empty mesh', async () => {
    const k = await loadKernels();
    const bvh = buildBvh(meshFromArrays(k, new Float32Array(0), new Uint32Array(0)));
    expect(raycastOne(bvh, [0, 0, -5], [0, 0, 1])).toBeNull();
    expect(closestPoint(bvh, [1, 2, 3])).toBeNull();
    expect(bvhBounds(bvh)).toBeNull();
  });

  it('survives NaN coordinates: builds, and the other triangles still answer', async () => {
    const k = await loadKernels();
    const positions = blob.positions.slice();
    positions[0] = Number.NaN; // the north pole
    positions[3 * 500 + 1] = Number.POSITIVE_INFINITY;
    const bvh = buildBvh(meshFromArrays(k, positions, blob.indices));
    expect(bvh.triangleCount).toBe(blob.indices.length / 3);
    const hit = raycastOne(bvh, [0.5, 0.3, -60], [0, 0, 1]);
    expect(hit?.t).toBeCloseTo(bruteHits(blob, [0.5, 0.3, -60], [0, 0, 1])[0]!.t, 3);
    expect(closestPoint(bvh, [0, 0, -30])!.distance).toBeCloseTo(bruteClosest(blob, [0, 0, -30]).distance, 3);
  });

  it('splits a heap of identical triangles without recursing forever', async () => {
    const k = await loadKernels();
    const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const indices = new Uint32Array(300).map((_, i) => i % 3);
    const bvh = buildBvh(meshFromArrays(k, positions, indices));
    expect(bvh.triangleCount).toBe(100);
    expect(countHits(bvh, new Float32Array([0.2, 0.2, -1, 0, 0, 1]))[0]).toBe(100);
  });
});

describe('ray casts against brute force', () => {
  it('first hit: same hit or miss, distance and point as testing every triangle', async () => {
    const { mesh } = await loaded(blob);
    const bvh = buildBvh(mesh);
    const hits = expectSameFirstHits(bvh, blob, randomRays(400, 30, 1));
    expect(hits).toBeGreaterThan(100);
  });

  it('first hit on a jaw-like surface, with a leaf size of 8 and 8 bins', async () => {
    const jaw = jawLikeMesh({ resolution: 60 });
    const { mesh } = await loaded(jaw);
    const bvh = buildBvh(mesh, { maxLeafSize: 8, bins: 8 });
    const rnd = random(5);
    const rays = new Float32Array(300 * 6);
    for (let i = 0; i < 300; i++) {
      // Mostly downward rays from above the arch, as picking does.
      rays.set([(rnd() - 0.5) * 60, (rnd() - 0.5) * 60, 15, (rnd() - 0.5) * 0.6, (rnd() - 0.5) * 0.6, -1], i * 6);
    }
    expect(expectSameFirstHits(bvh, jaw, rays)).toBeGreaterThan(250);
  });

  it('axis-aligned rays along the faces of the model\'s box still hit (the undercut case)', async () => {
    const grid = jawLikeMesh({ resolution: 40 });
    const { mesh } = await loaded(grid);
    const bvh = buildBvh(mesh);
    // Straight down onto the vertices of the grid's four borders: each ray
    // lies in a face of the root box (x or y at its extreme).
    const rays: number[] = [];
    for (let v = 0; v < mesh.vertexCount; v++) {
      const x = grid.positions[v * 3]!, y = grid.positions[v * 3 + 1]!;
      if (Math.abs(x) === 30 || Math.abs(y) === 30) rays.push(x, y, 50, 0, 0, -1);
    }
    const r = raycastFirst(bvh, new Float32Array(rays));
    expect(rays.length / 6).toBe(160);
    expect(r.hits).toBe(160);
  });

  it('is watertight: rays from inside a closed mesh through its vertices and edges never slip out', async () => {
    // Rays aimed exactly at a shared vertex or edge are where a per-triangle
    // test that rounds differently on each side lets a ray pass between two
    // triangles. From inside a closed surface every ray must hit.
    for (const [name, shape] of [['blob', blob], ['tilted blob', rotateMesh(blob, [0.3, 1, 0.2], 0.7)]] as const) {
      const { mesh } = await loaded(shape);
      const bvh = buildBvh(mesh);
      const p = shape.positions, ix = shape.indices;
      const targets: number[] = [];
      for (let v = 0; v < p.length / 3; v++) targets.push(p[v * 3]!, p[v * 3 + 1]!, p[v * 3 + 2]!);
      for (let t = 0; t < ix.length; t += 3) {
        for (let e = 0; e < 3; e++) {
          const a = ix[t + e]! * 3, b = ix[t + ((e + 1) % 3)]! * 3;
          targets.push((p[a]! + p[b]!) / 2, (p[a + 1]! + p[b + 1]!) / 2, (p[a + 2]! + p[b + 2]!) / 2);
        }
      }
      for (const origin of [[0, 0, 0], [0.37, -1.21, 0.83]]) {
        const n = targets.length / 3;
        const rays = new Float32Array(n * 6);
        for (let i = 0; i < n; i++) {
          rays.set([origin[0]!, origin[1]!, origin[2]!, targets[i * 3]! - origin[0]!, targets[i * 3 + 1]! - origin[1]!, targets[i * 3 + 2]! - origin[2]!], i * 6);
        }
        const r = raycastFirst(bvh, rays);
        const any = raycastAny(bvh, rays);
        const missed = [...r.triangle.keys()].filter((i) => r.triangle[i] === -1 || any[i] === 0);
        expect(missed.length, `${name}, from ${origin.join(', ')}: ${missed.length} of ${n} rays slipped out`).toBe(0);
      }
    }
  });

  it('tMin and tMax bound the hits', async () => {
    const { mesh } = await loaded(blob);
    const bvh = buildBvh(mesh);
    const all = raycastAll(bvh, [-40, 0.3, 0.2], [1, 0, 0]);
    expect(all.length).toBeGreaterThanOrEqual(2);
    const second = raycastOne(bvh, [-40, 0.3, 0.2], [1, 0, 0], { tMin: all[0]!.t + 1e-3 });
    expect(second?.t).toBeCloseTo(all[1]!.t, 4);
    expect(raycastOne(bvh, [-40, 0.3, 0.2], [1, 0, 0], { tMax: all[0]!.t * 0.99 })).toBeNull();
  });

  it('all hits and hit counts: every crossing, in order', async () => {
    const { mesh } = await loaded(blob);
    const bvh = buildBvh(mesh);
    const rays = randomRays(200, 30, 2);
    const counts = countHits(bvh, rays);
    const any = raycastAny(bvh, rays);
    let multi = 0;
    for (let i = 0; i < 200; i++) {
      const o: Vec3 = [rays[i * 6]!, rays[i * 6 + 1]!, rays[i * 6 + 2]!];
      const d: Vec3 = [rays[i * 6 + 3]!, rays[i * 6 + 4]!, rays[i * 6 + 5]!];
      const brute = bruteHits(blob, o, d);
      expect(counts[i], `ray ${i}`).toBe(brute.length);
      expect(any[i]).toBe(brute.length > 0 ? 1 : 0);
      if (i < 40) {
        const list = raycastAll(bvh, o, d);
        expect(list.map((h) => h.triangle)).toEqual(brute.map((h) => h.triangle));
        list.forEach((h, j) => expect(h.t).toBeCloseTo(brute[j]!.t, 3));
      }
      if (brute.length >= 2) multi++;
    }
    expect(multi).toBeGreaterThan(10);
  });
});

describe('closest point against brute force', () => {
  it('finds the nearest surface point inside, outside and on the surface', async () => {
    const { mesh } = await loaded(blob);
    const bvh = buildBvh(mesh);
    const rnd = random(3);
    const n = 300;
    const points = new Float32Array(n * 3);
    for (let i = 0; i < n * 3; i++) points[i] = (rnd() * 2 - 1) * 30;
    // A few exactly on vertices.
    points.set(blob.positions.subarray(300, 309), 0);
    const r = closestPoints(bvh, points);
    expect(r.found).toBe(n);
    for (let i = 0; i < n; i++) {
      const p: Vec3 = [points[i * 3]!, points[i * 3 + 1]!, points[i * 3 + 2]!];
      const brute = bruteClosest(blob, p);
      expect(r.distance[i], `point ${i}`).toBeCloseTo(brute.distance, 3);
      const c = pointAt(blob, r.triangle[i]!, r.u[i]!, r.v[i]!);
      expect(Math.hypot(c[0] - r.point[i * 3]!, c[1] - r.point[i * 3 + 1]!, c[2] - r.point[i * 3 + 2]!)).toBeLessThan(1e-3);
      expect(Math.hypot(p[0] - c[0], p[1] - c[1], p[2] - c[2])).toBeCloseTo(brute.distance, 3);
    }
    expect(r.distance[0]).toBe(0);
  });

  it('honours maxDistance', async () => {
    const { mesh } = await loaded(blob);
    const bvh = buildBvh(mesh);
    const far = closestPoint(bvh, [100, 0, 0], 10);
    expect(far).toBeNull();
    const near = closestPoint(bvh, [100, 0, 0], 200);
    expect(near!.distance).toBeCloseTo(bruteClosest(blob, [100, 0, 0]).distance, 3);
  });
});

describe('refit', () => {
  it('after vertices move, queries match brute force on the moved mesh', async () => {
    const { mesh } = await loaded(blob);
    const bvh = buildBvh(mesh);
    const { positions } = meshViews(mesh);
    // Stretch and twist in place: boxes built for the old shape would miss.
    for (let i = 0; i < positions.length; i += 3) {
      const x = positions[i]!, y = positions[i + 1]!, z = positions[i + 2]!;
      const a = z * 0.04;
      positions[i] = (x * Math.cos(a) - y * Math.sin(a)) * 1.6;
      positions[i + 1] = x * Math.sin(a) + y * Math.cos(a);
      positions[i + 2] = z * 0.7 + 3;
    }
    const moved: IndexedMesh = { positions: positions.slice(), indices: blob.indices };
    refitBvh(bvh, mesh);
    expectSameFirstHits(bvh, moved, randomRays(200, 35, 4));
    const rnd = random(9);
    for (let i = 0; i < 60; i++) {
      const p: Vec3 = [(rnd() * 2 - 1) * 35, (rnd() * 2 - 1) * 35, (rnd() * 2 - 1) * 35];
      expect(closestPoint(bvh, p)!.distance).toBeCloseTo(bruteClosest(moved, p).distance, 3);
    }
    expect(bvhBounds(bvh)!.max[0]).toBeGreaterThan(25);
  });

  it('locally, around moved vertices: the same BVH as a full refit, touching only their leaves and ancestors', async () => {
    const { k, mesh } = await loaded(blob);
    const bvh = buildBvh(mesh);
    const index = bvhRefitIndex(bvh, mesh);
    const { positions } = meshViews(mesh);
    // A dab: push the vertices within 4 of a surface point outwards.
    const c = [positions[3000]!, positions[3001]!, positions[3002]!];
    const moved: number[] = [];
    for (let v = 0; v < mesh.vertexCount; v++) {
      const d = Math.hypot(positions[v * 3]! - c[0]!, positions[v * 3 + 1]! - c[1]!, positions[v * 3 + 2]! - c[2]!);
      if (d < 4) {
        moved.push(v);
        for (let a = 0; a < 3; a++) positions[v * 3 + a] = positions[v * 3 + a]! * (1 + 0.3 * (1 - d / 4));
      }
    }
    expect(moved.length).toBeGreaterThan(20);
    const rewritten = refitBvhVertices(index, mesh, new Uint32Array(moved));
    expect(rewritten).toBeGreaterThan(moved.length / 4);
    expect(rewritten).toBeLessThan(bvh.nodeCount / 20);
    const local = bvhToBytes(bvh);
    refitBvh(bvh, mesh);
    expect(Buffer.from(bvhToBytes(bvh)).equals(Buffer.from(local))).toBe(true);
    // And it answers as brute force on the moved mesh, rays aimed at the dab.
    const movedMesh: IndexedMesh = { positions: meshViews(mesh).positions.slice(), indices: blob.indices };
    const rnd = random(11);
    const rays = new Float32Array(100 * 6);
    for (let i = 0; i < 100; i++) {
      const o = [c[0]! * 2 + (rnd() - 0.5) * 8, c[1]! * 2 + (rnd() - 0.5) * 8, c[2]! * 2 + (rnd() - 0.5) * 8];
      const d = [c[0]! - o[0]!, c[1]! - o[1]!, c[2]! - o[2]!];
      const l = Math.hypot(d[0]!, d[1]!, d[2]!);
      rays.set([o[0]!, o[1]!, o[2]!, d[0]! / l, d[1]! / l, d[2]! / l], i * 6);
    }
    expect(expectSameFirstHits(bvh, movedMesh, rays)).toBeGreaterThan(90);
    // Nothing moved: nothing rewritten.
    expect(refitBvhVertices(index, mesh, new Uint32Array(moved))).toBe(0);
    expect(k.arenaUsed()).toBeGreaterThan(0);
  });

  it('refuses a mesh the BVH was not built for', async () => {
    const { k, mesh } = await loaded(blob);
    const bvh = buildBvh(mesh);
    const other = meshFromArrays(k, blob.positions.subarray(0, 30), blob.indices.subarray(0, 3));
    expect(() => refitBvh(bvh, other)).toThrow(/BAD_INPUT/);
  });
});

describe('serialisation', () => {
  it('bytes loaded into another instance answer exactly the same', async () => {
    const { mesh } = await loaded(blob);
    const bvh = buildBvh(mesh);
    const bytes = bvhToBytes(bvh);
    expect(bytes.length).toBe(bvh.byteLength);
    const other = await loadKernels();
    other.arenaAlloc(1000); // a different address in the other instance
    const copy = bvhFromBytes(other, bytes);
    expect(copy.ptr).not.toBe(bvh.ptr);
    expect(copy.nodeCount).toBe(bvh.nodeCount);
    expect(copy.depth).toBe(bvh.depth);
    const rays = randomRays(300, 30, 7);
    expect(raycastFirst(copy, rays)).toEqual(raycastFirst(bvh, rays));
    expect(countHits(copy, rays)).toEqual(countHits(bvh, rays));
    const points = randomRays(50, 25, 8).subarray(0, 150);
    expect(closestPoints(copy, points)).toEqual(closestPoints(bvh, points));
    expect(Buffer.from(bvhToBytes(copy)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('rejects bytes that are not a BVH, leaving the arena as it was', async () => {
    const { mesh } = await loaded(blob);
    const bytes = bvhToBytes(buildBvh(mesh));
    const other = await loadKernels();
    const used = other.arenaUsed();
    expect(() => bvhFromBytes(other, bytes.subarray(0, bytes.length - 32))).toThrow(/BAD_INPUT/);
    const cyclic = bytes.slice();
    const view = new DataView(cyclic.buffer);
    view.setUint32(view.getUint32(24, true) + 12, 0, true); // the root's children: itself
    expect(() => bvhFromBytes(other, cyclic)).toThrow(/BAD_INPUT/);
    const outOfRange = bytes.slice();
    const v2 = new DataView(outOfRange.buffer);
    const nodes = v2.getUint32(24, true);
    let leaf = 0;
    while (v2.getUint32(nodes + leaf * 32 + 28, true) === 0) leaf++;
    v2.setUint32(nodes + leaf * 32 + 12, 0xfffffff0, true);
    expect(() => bvhFromBytes(other, outOfRange)).toThrow(/BAD_INPUT/);
    expect(() => bvhFromBytes(other, new Uint8Array(200))).toThrow(/BAD_INPUT/);
    const badId = bytes.slice();
    new DataView(badId.buffer).setUint32(64 + 48 * 7 + 12, 1e9, true); // triangle 7's id
    expect(() => bvhFromBytes(other, badId)).toThrow(/BAD_INPUT/);
    expect(other.arenaUsed()).toBe(used);
  });
});
