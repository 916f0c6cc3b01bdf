// Shared by the base tests: outlines picked on a model the way the editor
// picks them (a ray from the appliance side), and the checks every generated
// base must pass.

import { expect } from 'vitest';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import type { BaseMesh, OutlinePoint } from '../../workers/kernels/base.ts';
import { buildBvh, closestPoints, raycastAny, raycastFirst, raycastOne, type Bvh, type Vec3 } from '../../workers/kernels/bvh.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { analyzeMesh } from '../../workers/kernels/topology.ts';

/** Outline points picked on the model at plane positions (x, y) seen from +d far away (d = ±z). */
export function pickOutline(bvh: Bvh, xy: readonly (readonly [number, number])[], d: Vec3 = [0, 0, 1]): OutlinePoint[] {
  return xy.map(([x, y]) => {
    const hit = raycastOne(bvh, [x + d[0] * 200, y + d[1] * 200, d[2] * 200], [-d[0], -d[1], -d[2]]);
    if (!hit) throw new Error(`nothing to pick at ${x}, ${y}`);
    return { triangle: hit.triangle, point: hit.point };
  });
}

export function circle(cx: number, cy: number, r: number, n: number, ry = r): [number, number][] {
  return Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n;
    return [cx + r * Math.cos(a), cy + ry * Math.sin(a)] as [number, number];
  });
}

/** Closed, manifold, consistently oriented (the topology kernel's health report), positive volume. */
export async function expectPrintable(k: KernelExports, base: BaseMesh, shells = 1): Promise<void> {
  k.arenaReset();
  const health = await analyzeMesh(meshFromArrays(k, base.positions, base.indices));
  expect({ openEdges: health.openEdges, nonManifold: health.nonManifoldEdges, inconsistent: health.inconsistentEdges, degenerate: health.degenerateTriangles }).toEqual({
    openEdges: 0,
    nonManifold: 0,
    inconsistent: 0,
    degenerate: 0,
  });
  expect(health.closed && health.manifold).toBe(true);
  expect(health.shellCount).toBe(shells);
  expect(base.volume).toBeGreaterThan(0);
  expect(base.triangleCount).toBe(base.indices.length / 3);
}

function innerPoints(base: BaseMesh): { vertices: Float32Array; centroids: Float32Array } {
  const n = base.innerVertexCount;
  const vertices = base.positions.slice(0, n * 3);
  const c: number[] = [];
  for (let t = 0; t < base.indices.length; t += 3) {
    const a = base.indices[t]!, b = base.indices[t + 1]!, cc = base.indices[t + 2]!;
    if (a >= n || b >= n || cc >= n) continue;
    for (let i = 0; i < 3; i++) c.push((base.positions[a * 3 + i]! + base.positions[b * 3 + i]! + base.positions[cc * 3 + i]!) / 3);
  }
  return { vertices, centroids: Float32Array.from(c) };
}

/**
 * No undercut and no penetration: from every inner-surface vertex and every
 * inner triangle's centroid, the ray towards +d (the way the base comes off)
 * meets no model surface. The inner surface is a height field along d, so this
 * says the whole model under the base lies below it: the base slides off
 * along +d, and it does not cut into the model. Tolerance `tMin` (10 µm,
 * under any printer's resolution): a linear triangle over a convex bump passes
 * under it by its sagitta between two samples.
 */
export function expectRemovable(modelBvh: Bvh, base: BaseMesh, tMin = 0.01): void {
  const d = base.direction;
  const { vertices, centroids } = innerPoints(base);
  for (const pts of [vertices, centroids]) {
    const n = pts.length / 3;
    const rays = new Float32Array(n * 6);
    for (let i = 0; i < n; i++) rays.set([pts[i * 3]!, pts[i * 3 + 1]!, pts[i * 3 + 2]!, d[0], d[1], d[2]], i * 6);
    const blocked = raycastAny(modelBvh, rays, { tMin });
    let count = 0;
    for (const b of blocked) count += b;
    expect(count, `${count} of ${n} inner points have model above them along the insertion direction`).toBe(0);
  }
}

/** Distances from the inner vertices to the model: how closely the base follows it. */
export function innerGaps(modelBvh: Bvh, base: BaseMesh): Float32Array {
  const r = closestPoints(modelBvh, innerPoints(base).vertices);
  return r.distance;
}

/** Distances from every outer-surface vertex to the inner surface (the base's own, in a scratch instance). */
export function thicknessSamples(k: KernelExports, base: BaseMesh): Float32Array {
  const n = base.innerVertexCount;
  const innerTris: number[] = [];
  for (let t = 0; t < base.indices.length; t += 3) {
    if (base.indices[t]! < n && base.indices[t + 1]! < n && base.indices[t + 2]! < n) innerTris.push(base.indices[t]!, base.indices[t + 1]!, base.indices[t + 2]!);
  }
  k.arenaReset();
  const inner = meshFromArrays(k, base.positions.slice(0, n * 3), Uint32Array.from(innerTris));
  const bvh = buildBvh(inner);
  return closestPoints(bvh, base.positions.slice(n * 3)).distance;
}

export function percentile(values: ArrayLike<number>, p: number): number {
  const s = Float64Array.from(values).sort();
  return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))]!;
}

/**
 * Plane points of a lingual horseshoe for a model without a palate (a lower
 * study model, straightened): round the arch from the left back through the
 * front to the right back, the model's inner edge found by rays along ±z
 * marching out from (0, cy); the band runs from 1.5 mm to 5 mm outside it
 * (over the lingual gum, up to the teeth).
 */
export function lingualHorseshoe(bvh: Bvh, dz: 1 | -1, cy = 8): [number, number][] {
  const edge = (deg: number): number => {
    const a = (deg * Math.PI) / 180;
    for (let r = 2; r < 40; r += 0.25) {
      const h = raycastFirst(bvh, new Float32Array([r * Math.cos(a), cy + r * Math.sin(a), 100 * dz, 0, 0, -dz]));
      if (h.hits) return r;
    }
    throw new Error(`no model towards ${deg}°`);
  };
  const angles = Array.from({ length: 23 }, (_, i) => 160 + (220 * i) / 22);
  const radii = angles.map(edge);
  const at = (deg: number, r: number): [number, number] => [r * Math.cos((deg * Math.PI) / 180), cy + r * Math.sin((deg * Math.PI) / 180)];
  return [...angles.map((a, i) => at(a, radii[i]! + 5)), ...angles.map((a, i) => at(a, radii[i]! + 1.5)).reverse()];
}
