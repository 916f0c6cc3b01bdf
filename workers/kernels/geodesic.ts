// Geodesic distance along the surface between two picked points, over
// assembly/geodesic.ts: A* over vertices plus Steiner points on the edges,
// then the path's edge points slide along their edges until the polyline is
// locally shortest. Returns the length and the polyline for drawing.

import { KernelError, runSteps, type JobOptions } from './job.ts';
import type { MeshRef } from './mesh.ts';
import { check, ensureTopology, type Point3, straightDistance } from './topology.ts';

export interface SurfacePoint {
  /** The triangle the point lies on (a pick's hit triangle). */
  triangle: number;
  point: Point3;
}

export interface GeodesicOptions extends JobOptions {
  /** Steiner points per edge (0..8). More: straighter graph paths, more memory. Default 2. */
  steinerPoints?: number;
  /** Shortening sweeps over the path (stops early once it has settled). Default 500. */
  sweeps?: number;
}

export interface GeodesicResult {
  /** Along the surface, model units. */
  length: number;
  /** Straight line between the two points. */
  straight: number;
  /** xyz per polyline point, from a to b, on the surface. */
  path: Float32Array;
  /** Length of the graph path before shortening. */
  graphLength: number;
  /** Search nodes settled (the work done). */
  settledNodes: number;
}

const STEP_BUDGET = 20_000;

/**
 * Geodesic distance from a to b. Builds the mesh's topology when needed; the
 * first call per mesh also allocates the search arrays for good (about
 * 24 bytes per vertex and per Steiner point: ~170 bytes per vertex with 2).
 */
export async function geodesicDistance(m: MeshRef, a: SurfacePoint, b: SurfacePoint, options: GeodesicOptions = {}): Promise<GeodesicResult> {
  // The search's progress is not known until it ends: only the final 1 is reported.
  const { onProgress, ...job } = options;
  await ensureTopology(m, job);
  const k = m.k;
  for (const p of [a, b]) {
    if (!(p.triangle >= 0 && p.triangle < m.triangleCount)) throw new KernelError('BAD_INPUT', `triangle ${p.triangle} out of range`);
  }
  check(k.geoPrepare(options.steinerPoints ?? 2), 'geoPrepare');
  if (job.shouldCancel?.()) throw new KernelError('ABORTED');
  check(k.geoBegin(a.triangle, a.point[0], a.point[1], a.point[2], b.triangle, b.point[0], b.point[1], b.point[2]), 'geoBegin');
  const step = (): boolean => {
    const r = k.geoStep(STEP_BUDGET);
    if (r === -4) throw new KernelError('BAD_INPUT', 'the two points lie on separate shells');
    if (r < 0) check(r, 'geoStep');
    return r !== 0;
  };
  await runSteps(step, () => 0, job);
  const mark = k.arenaMark() >>> 0;
  try {
    const count = check(k.geoFinish(options.sweeps ?? 500), 'geoFinish');
    const ptr = k.geoPathPtr() >>> 0;
    const result: GeodesicResult = {
      length: k.geoLength(),
      straight: straightDistance(a.point, b.point),
      path: new Float32Array(k.memory.buffer.slice(ptr, ptr + count * 12)),
      graphLength: k.geoGraphLength(),
      settledNodes: k.geoSettledCount() >>> 0,
    };
    onProgress?.(1);
    return result;
  } finally {
    k.arenaRelease(mark);
  }
}
