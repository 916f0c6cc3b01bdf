import { describe, expect, it } from 'vitest';
import { buildBvh } from '../../workers/kernels/bvh.ts';
import { distanceMap, signedDistances } from '../../workers/kernels/distance.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { rampColor } from '../../workers/kernels/ramp.ts';
import { jawLikeMesh, uvSphereMesh } from '../fixtures/meshes.ts';
import { bruteClosest } from './bvh-brute.ts';
import { loadKernels } from './kernels.ts';

// Fine enough that the facets sit within 0.03 of the true spheres.
const outer = uvSphereMesh({ radius: 10, segments: 96, rings: 48 });
const inner = uvSphereMesh({ radius: 8, segments: 80, rings: 40, center: [0.5, -0.3, 0.2] });

async function twoInstances() {
  const ka = await loadKernels();
  const kb = await loadKernels();
  const a = meshFromArrays(ka, inner.positions, inner.indices);
  const b = meshFromArrays(kb, outer.positions, outer.indices);
  return { a, b, aBvh: buildBvh(a), bBvh: buildBvh(b) };
}

describe('signed distance map', () => {
  it('between concentric spheres is the radius difference, negative inside', async () => {
    const { a, b, aBvh, bBvh } = await twoInstances();
    // Inner sphere's vertices to the outer sphere: inside it, about 2 away
    // (1.4 to 2.6 with the inner one off centre by 0.62).
    const inward = await distanceMap(a, b, bBvh);
    expect(inward.found).toBe(a.vertexCount);
    const offset = Math.hypot(0.5, -0.3, 0.2);
    for (let v = 0; v < a.vertexCount; v++) {
      expect(inward.distance[v]).toBeLessThan(-2 + offset + 0.05);
      expect(inward.distance[v]).toBeGreaterThan(-2 - offset - 0.05);
    }
    expect(inward.min).toBeCloseTo(-2 - offset, 1);
    expect(inward.max).toBeCloseTo(-2 + offset, 1);
    // And back: the outer sphere's vertices lie outside the inner sphere.
    const outward = await distanceMap(b, a, aBvh);
    expect(outward.min).toBeGreaterThan(0);
    expect(outward.min).toBeCloseTo(2 - offset, 1);
    expect(outward.max).toBeCloseTo(2 + offset, 1);
  });

  it('is 2 (less the facets\' sag) for concentric spheres, as brute force says', async () => {
    const k = await loadKernels();
    const small = uvSphereMesh({ radius: 8, segments: 96, rings: 48 });
    const a = meshFromArrays(k, small.positions, small.indices);
    const b = meshFromArrays(k, outer.positions, outer.indices);
    const r = await distanceMap(a, b, buildBvh(b)); // same instance: no copy
    for (let v = 0; v < a.vertexCount; v++) {
      expect(r.distance[v]).toBeLessThanOrEqual(-1.97);
      expect(r.distance[v]).toBeGreaterThanOrEqual(-2.0001);
    }
    for (let v = 0; v < a.vertexCount; v += 97) {
      const p = [small.positions[v * 3]!, small.positions[v * 3 + 1]!, small.positions[v * 3 + 2]!] as const;
      expect(Math.abs(r.distance[v]!)).toBeCloseTo(bruteClosest(outer, p).distance, 4);
      expect(r.triangle[v]).toBeGreaterThanOrEqual(0);
    }
  });

  it('gives colours on the ramp over the legend range the caller picks', async () => {
    const { a, b, bBvh } = await twoInstances();
    const range = { min: -2.5, max: 0 };
    const r = await distanceMap(a, b, bBvh, { colors: range });
    expect(r.range).toEqual(range);
    for (let v = 0; v < a.vertexCount; v += 50) {
      const expected = rampColor(r.distance[v]!, range);
      for (let c = 0; c < 3; c++) expect(r.colors![v * 4 + c]).toBeCloseTo(expected[c]!, 5);
      expect(r.colors![v * 4 + 3]).toBe(1);
    }
    const auto = await distanceMap(a, b, bBvh, { colors: 'auto' });
    expect(auto.range).toEqual({ min: auto.min, max: auto.max });
  });

  it('reports progress, and stops with ABORTED when cancelled, releasing its scratch', async () => {
    const { a, b, bBvh } = await twoInstances();
    const used = b.k.arenaUsed();
    const seen: number[] = [];
    await distanceMap(a, b, bBvh, { chunk: 256, sliceMs: 0, progressIntervalMs: 0, onProgress: (f) => seen.push(f) });
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.at(-1)).toBe(1);
    let polls = 0;
    await expect(distanceMap(a, b, bBvh, { chunk: 256, sliceMs: 0, shouldCancel: () => polls++ > 1 })).rejects.toMatchObject({
      name: 'KernelError',
      code: 'ABORTED',
    });
    expect(b.k.arenaUsed()).toBe(used);
  });

  it('leaves points beyond maxDistance as NaN', async () => {
    const { bBvh } = await twoInstances();
    const points = new Float32Array([0, 0, 9.9, 0, 0, 30, 0, 0, 0]);
    const r = await signedDistances(bBvh, points, { maxDistance: 1 });
    expect(r.found).toBe(1);
    expect(r.distance[0]).toBeCloseTo(-0.1, 1);
    expect(r.distance[1]).toBeNaN();
    expect(r.distance[2]).toBeNaN();
    expect(Array.from(r.triangle.subarray(1))).toEqual([-1, -1]);
    expect(r.min).toBe(r.max);
  });

  it('from an upper to a lower jaw-like arch: contacts near 0, gap above', async () => {
    const lower = jawLikeMesh({ resolution: 120 });
    const upper = jawLikeMesh({ resolution: 120, upper: true, gap: 0.2 });
    const ku = await loadKernels();
    const kl = await loadKernels();
    const u = meshFromArrays(ku, upper.positions, upper.indices);
    const l = meshFromArrays(kl, lower.positions, lower.indices);
    const r = await distanceMap(u, l, buildBvh(l));
    expect(r.min).toBeGreaterThan(0.1); // the lower arch faces up: the upper is in front of it
    expect(r.min).toBeLessThan(0.3);
    expect(r.max).toBeLessThan(25);
  });
});
