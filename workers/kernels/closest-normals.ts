// Closest surface points with the surface's normal there: what a wire kept off a tooth needs
// (docs/editor.md "Wire geometry"). The closest point comes from the BVH (bvh.ts); the normal
// is the closest triangle's (counter-clockwise seen from outside, so it points outwards), or,
// with `smooth`, the mesh's vertex normals interpolated with the point's barycentrics.

import { closestPoints, type Bvh } from './bvh.ts';
import { meshViews, type MeshRef } from './mesh.ts';

export interface ClosestWithNormals {
  /** xyz of the closest surface point per query (NaN when none within maxDistance). */
  point: Float32Array;
  /** Unit outward normal per query (0, 0, 0 when none). */
  normal: Float32Array;
  /** Triangle id, -1 when none. */
  triangle: Int32Array;
  /** Unsigned distance, Infinity when none. */
  distance: Float32Array;
  found: number;
}

export interface ClosestNormalOptions {
  maxDistance?: number;
  /** Interpolate the vertex normals (when the mesh has them) instead of the triangle's flat normal. */
  smooth?: boolean;
}

export function closestWithNormals(mesh: MeshRef, bvh: Bvh, points: Float32Array, options: ClosestNormalOptions = {}): ClosestWithNormals {
  const c = closestPoints(bvh, points, { maxDistance: options.maxDistance ?? Infinity });
  // Views after the query: its scratch may have grown the instance's memory.
  const { positions, indices, normals } = meshViews(mesh);
  const smooth = options.smooth === true && normals !== undefined;
  const n = c.triangle.length;
  const normal = new Float32Array(n * 3);
  for (let q = 0; q < n; q++) {
    const t = c.triangle[q]!;
    if (t < 0) continue;
    const a = indices[t * 3]!, b = indices[t * 3 + 1]!, d = indices[t * 3 + 2]!;
    let nx: number, ny: number, nz: number;
    if (smooth) {
      const u = c.u[q]!, v = c.v[q]!, w = 1 - u - v;
      nx = w * normals[a * 3]! + u * normals[b * 3]! + v * normals[d * 3]!;
      ny = w * normals[a * 3 + 1]! + u * normals[b * 3 + 1]! + v * normals[d * 3 + 1]!;
      nz = w * normals[a * 3 + 2]! + u * normals[b * 3 + 2]! + v * normals[d * 3 + 2]!;
    } else {
      const e1x = positions[b * 3]! - positions[a * 3]!, e1y = positions[b * 3 + 1]! - positions[a * 3 + 1]!, e1z = positions[b * 3 + 2]! - positions[a * 3 + 2]!;
      const e2x = positions[d * 3]! - positions[a * 3]!, e2y = positions[d * 3 + 1]! - positions[a * 3 + 1]!, e2z = positions[d * 3 + 2]! - positions[a * 3 + 2]!;
      nx = e1y * e2z - e1z * e2y;
      ny = e1z * e2x - e1x * e2z;
      nz = e1x * e2y - e1y * e2x;
    }
    const l = Math.hypot(nx, ny, nz);
    if (l > 0) {
      normal[q * 3] = nx / l;
      normal[q * 3 + 1] = ny / l;
      normal[q * 3 + 2] = nz / l;
    }
  }
  return { point: c.point, normal, triangle: c.triangle, distance: c.distance, found: c.found };
}
