// Where a wire's tag corners lie in a generated base: each corner's distance in plan (across the
// base's direction) from the rim, the inner surface's boundary, and whether it lies inside the
// solid (an odd number of crossings along the direction: the plate is a height field along it).
// The automatic design grows the outline where a tag is short of its margin; the goals measure it;
// the editor's geometry worker measures the designer's wires against the base it shows.
import { across, segmentDistance, type Xyz } from '../../common/pose.ts';
import type { KernelExports } from '../kernels/abi.ts';
import type { BaseMesh } from '../kernels/base.ts';
import { buildBvh, raycastAll, type Bvh } from '../kernels/bvh.ts';
import { meshFromArrays } from '../kernels/mesh.ts';

export interface TagPlace {
  /** Plan distance from the rim (mm): positive inside the plate's plan, negative outside it. */
  rim: number;
  inSolid: boolean;
}

/** What the rim needs of a generated base: its arrays, the inner surface's vertex count and its direction. */
export type BaseShape = Pick<BaseMesh, 'positions' | 'indices' | 'innerVertexCount' | 'direction'>;

/** The rim's edges in plan (across the base's direction): the inner surface's edges used by one of its triangles. */
export function baseRim(base: BaseShape): [Xyz, Xyz][] {
  const d = base.direction;
  const V = base.innerVertexCount;
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
  const rim: [Xyz, Xyz][] = [];
  for (const [key, n] of count) {
    if (n !== 1) continue;
    const a = Math.floor(key / V), b = key % V;
    rim.push([across([P[3 * a]!, P[3 * a + 1]!, P[3 * a + 2]!], d), across([P[3 * b]!, P[3 * b + 1]!, P[3 * b + 2]!], d)]);
  }
  return rim;
}

/** Each corner's place given the base's rim (baseRim), its solid's BVH and its direction. */
export function placesIn(rim: readonly [Xyz, Xyz][], bvh: Bvh, d: Xyz, corners: readonly Xyz[]): TagPlace[] {
  return corners.map((c) => {
    const p = across(c, d);
    let best = Infinity;
    for (const [A, B] of rim) best = Math.min(best, segmentDistance(p, A, B));
    const over = raycastAll(bvh, [c[0] - d[0] * 100, c[1] - d[1] * 100, c[2] - d[2] * 100], d).length > 0;
    return { rim: over ? best : -best, inSolid: raycastAll(bvh, c, d).length % 2 === 1 };
  });
}

/** Each corner's place in `base` (model frame, the base's direction); `k` a kernel instance for the solid's rays. */
export function tagPlaces(k: KernelExports, base: BaseMesh, corners: readonly Xyz[]): TagPlace[] {
  if (corners.length === 0) return [];
  const bvh = buildBvh(meshFromArrays(k, base.positions, base.indices));
  return placesIn(baseRim(base), bvh, base.direction, corners);
}
