// Signed distance maps: for each vertex of mesh A, the distance to the
// closest point of mesh B (through B's BVH), negative when the vertex lies
// behind B's face at that point (inside B when B is closed and its triangles
// face outwards). Upper to lower jaw gives occlusal contacts (near 0) and
// penetrations (negative); base to model gives thickness.
//
// Cross-mesh: A's positions are copied into B's instance for the job (the
// MeshRef convention); the scratch is released afterwards.

import type { Bvh } from './bvh.ts';
import { KernelError, runChunked, type JobOptions } from './job.ts';
import { meshViews, type MeshRef } from './mesh.ts';
import { rampColors, type RampRange } from './ramp.ts';

export interface DistanceOptions extends JobOptions {
  /** Points farther than this from B get NaN (faster). Default unlimited. */
  maxDistance?: number;
  /** Points per kernel call. Default 4096. */
  chunk?: number;
  /**
   * Colours: the legend range of the ramp, or 'auto' for the finite min and
   * max of the distances; omit for no colours.
   */
  colors?: RampRange | 'auto';
}

export interface DistanceResult {
  /** Signed distance per point (NaN beyond maxDistance). */
  distance: Float32Array<ArrayBuffer>;
  /** B's closest triangle per point, -1 beyond maxDistance. */
  triangle: Int32Array<ArrayBuffer>;
  /** Points within maxDistance. */
  found: number;
  /** Smallest and largest finite distance (0, 0 when none). */
  min: number;
  max: number;
  /** The legend range the colours use (when colours were asked for). */
  range?: RampRange;
  /** RGBA f32 per point on the ramp (when asked for). */
  colors?: Float32Array<ArrayBuffer>;
}

/** Signed distances from `points` (xyz f32 each, any thread) to the mesh of `targetBvh`. */
export async function signedDistances(targetBvh: Bvh, points: Float32Array, options: DistanceOptions = {}): Promise<DistanceResult> {
  if (points.length % 3 !== 0) throw new KernelError('BAD_INPUT', 'points are 3 floats each');
  const { k } = targetBvh;
  const n = points.length / 3;
  const mark = k.arenaMark() >>> 0;
  try {
    const alloc = (bytes: number): number => {
      const ptr = k.arenaAlloc(Math.max(4, bytes)) >>> 0;
      if (ptr === 0) throw new KernelError('OUT_OF_MEMORY', `no room for ${bytes} bytes of scratch`);
      return ptr;
    };
    const pointsPtr = alloc(points.byteLength);
    new Uint8Array(k.memory.buffer, pointsPtr, points.byteLength).set(new Uint8Array(points.buffer, points.byteOffset, points.byteLength));
    return await distancesAt(targetBvh, pointsPtr, n, alloc, options);
  } finally {
    k.arenaRelease(mark);
  }
}

/** Signed distance from every vertex of `from` to the mesh `to` (whose BVH is `toBvh`), in to's instance. */
export async function distanceMap(from: MeshRef, to: MeshRef, toBvh: Bvh, options: DistanceOptions = {}): Promise<DistanceResult> {
  if (to.k !== toBvh.k || to.triangleCount !== toBvh.triangleCount) {
    throw new KernelError('BAD_INPUT', 'the BVH was not built for the target mesh in its instance');
  }
  if (from.k === to.k) {
    const mark = to.k.arenaMark() >>> 0;
    try {
      return await distancesAt(toBvh, from.positionsPtr, from.vertexCount, scratch(to), options);
    } finally {
      to.k.arenaRelease(mark);
    }
  }
  return signedDistances(toBvh, meshViews(from).positions, options);
}

function scratch(m: MeshRef): (bytes: number) => number {
  return (bytes) => {
    const ptr = m.k.arenaAlloc(Math.max(4, bytes)) >>> 0;
    if (ptr === 0) throw new KernelError('OUT_OF_MEMORY', `no room for ${bytes} bytes of scratch`);
    return ptr;
  };
}

async function distancesAt(
  bvh: Bvh,
  pointsPtr: number,
  n: number,
  alloc: (bytes: number) => number,
  options: DistanceOptions,
): Promise<DistanceResult> {
  const { k } = bvh;
  const out = alloc(n * 4);
  const triOut = alloc(n * 4);
  const maxDistance = options.maxDistance ?? Infinity;
  let found = 0;
  await runChunked(
    n,
    options.chunk ?? 4096,
    (start, end) => {
      found += k.distanceMap(bvh.ptr, pointsPtr, start, end, maxDistance, out, triOut) >>> 0;
    },
    options,
  );
  const distance = new Float32Array(k.memory.buffer.slice(out, out + n * 4));
  const triangle = new Int32Array(k.memory.buffer.slice(triOut, triOut + n * 4));
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const d = distance[i]!;
    if (d < min) min = d;
    if (d > max) max = d;
  }
  if (!(min <= max)) min = max = 0;
  const result: DistanceResult = { distance, triangle, found, min, max };
  if (options.colors) {
    const range = options.colors === 'auto' ? { min, max } : options.colors;
    result.range = range;
    result.colors = rampColors(k, distance, range);
  }
  return result;
}
