// The wire geometry's SurfaceQuery (common/wires/surface.ts) over the BVH kernels, for code that
// runs outside the browser (the automatic design in a server thread, the command line, tests):
// the same closest points with normals and first hits as the geometry worker gives the editor.
import { rayHits, type RayHitsXyz, type SurfaceHits, type SurfaceQuery } from '../../common/wires/surface.ts';
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
      return Promise.resolve(rayHits(rays, r.t, r.triangle));
    },
  };
}
