// The wire geometry's SurfaceQuery (common/wires/surface.ts) over the BVH kernels, for code that
// runs outside the browser (the automatic design in a server thread, the command line, tests):
// the same closest points with normals and first hits as the geometry worker gives the editor.
import type { RayHitsXyz, SurfaceHits, SurfaceQuery } from '../../common/wires/surface.ts';
import { buildBvh, raycastFirst, type Bvh } from '../kernels/bvh.ts';
import { closestWithNormals } from '../kernels/closest-normals.ts';
import type { MeshRef } from '../kernels/mesh.ts';

/** A SurfaceQuery on a mesh in kernel memory (its BVH built here unless given). */
export function kernelSurface(mesh: MeshRef, bvh: Bvh = buildBvh(mesh), options: { maxDistance?: number } = {}): SurfaceQuery {
  return {
    closest(points: Float32Array): Promise<SurfaceHits> {
      const r = closestWithNormals(mesh, bvh, points, options);
      return Promise.resolve({ point: r.point, normal: r.normal, triangle: r.triangle });
    },
    raycast(rays: Float32Array): Promise<RayHitsXyz> {
      const r = raycastFirst(bvh, rays);
      const n = r.t.length;
      const point = new Float32Array(n * 3).fill(NaN);
      for (let i = 0; i < n; i++) {
        const t = r.t[i]!;
        if (!Number.isFinite(t)) continue;
        for (let a = 0; a < 3; a++) point[i * 3 + a] = rays[i * 6 + a]! + t * rays[i * 6 + 3 + a]!;
      }
      return Promise.resolve({ t: r.t, point, triangle: r.triangle });
    },
  };
}
