// Where a wire's tag corners lie in a generated base: each corner's distance in plan (across the
// base's direction) from the rim, the inner surface's boundary, and whether it lies inside the
// solid (an odd number of crossings along the direction: the plate is a height field along it).
// The automatic design grows the outline where a tag is short of its margin; the goals measure it.
import type { Xyz } from '../../common/pose.ts';
import type { KernelExports } from '../kernels/abi.ts';
import type { BaseMesh } from '../kernels/base.ts';
import { buildBvh, raycastAll } from '../kernels/bvh.ts';
import { meshFromArrays } from '../kernels/mesh.ts';

export interface TagPlace {
  /** Plan distance from the rim (mm): positive inside the plate's plan, negative outside it. */
  rim: number;
  inSolid: boolean;
}

/** Each corner's place in `base` (model frame, the base's direction); `k` a kernel instance for the solid's rays. */
export function tagPlaces(k: KernelExports, base: BaseMesh, corners: readonly Xyz[]): TagPlace[] {
  if (corners.length === 0) return [];
  const d = base.direction;
  const V = base.innerVertexCount;
  // The rim: the inner surface's edges used by one of its triangles.
  const count = new Map<number, number>();
  const I = base.indices;
  for (let t = 0; t < I.length; t += 3) {
    if (I[t]! >= V || I[t + 1]! >= V || I[t + 2]! >= V) continue; // the outer surface and the wall
    for (let e = 0; e < 3; e++) {
      const a = I[t + e]!, b = I[t + ((e + 1) % 3)]!;
      const key = Math.min(a, b) * V + Math.max(a, b);
      count.set(key, (count.get(key) ?? 0) + 1);
    }
  }
  const P = base.positions;
  const plan = (x: number, y: number, z: number): Xyz => {
    const s = x * d[0] + y * d[1] + z * d[2];
    return [x - s * d[0], y - s * d[1], z - s * d[2]];
  };
  const rim: [Xyz, Xyz][] = [];
  for (const [key, n] of count) {
    if (n !== 1) continue;
    const a = Math.floor(key / V), b = key % V;
    rim.push([plan(P[3 * a]!, P[3 * a + 1]!, P[3 * a + 2]!), plan(P[3 * b]!, P[3 * b + 1]!, P[3 * b + 2]!)]);
  }
  const bvh = buildBvh(meshFromArrays(k, base.positions, base.indices));
  return corners.map((c) => {
    const p = plan(c[0], c[1], c[2]);
    let best = Infinity;
    for (const [A, B] of rim) {
      const ab = [B[0] - A[0], B[1] - A[1], B[2] - A[2]], ap = [p[0] - A[0], p[1] - A[1], p[2] - A[2]];
      const l2 = ab[0]! ** 2 + ab[1]! ** 2 + ab[2]! ** 2 || 1;
      const t = Math.max(0, Math.min(1, (ap[0]! * ab[0]! + ap[1]! * ab[1]! + ap[2]! * ab[2]!) / l2));
      best = Math.min(best, Math.hypot(ap[0]! - t * ab[0]!, ap[1]! - t * ab[1]!, ap[2]! - t * ab[2]!));
    }
    const inPlan = raycastAll(bvh, [c[0] - d[0] * 100, c[1] - d[1] * 100, c[2] - d[2] * 100], d).length > 0;
    return { rim: inPlan ? best : -best, inSolid: raycastAll(bvh, c, d).length % 2 === 1 };
  });
}
