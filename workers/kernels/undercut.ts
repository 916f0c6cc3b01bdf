// Undercut analysis for an insertion direction (path of draw), and the search
// for the best direction in a cone around a hint. Kernels: undercutMap and
// undercutScore in assembly/bvh-analysis.ts.
//
// A vertex is in undercut when the ray from it towards +d hits the model (the
// origin is moved eps along d first, so the vertex's own triangles lie behind
// it). Its depth is the distance from the vertex to that blocking surface
// along d; free vertices have depth 0. The undercut area is the sum over
// undercut vertices of a third of the area of their triangles.

import { bvhDiagonal, type Bvh, type Vec3 } from './bvh.ts';
import { KernelError, runChunked, type JobOptions } from './job.ts';
import type { MeshRef } from './mesh.ts';
import { rampColors, type RampRange } from './ramp.ts';

export interface UndercutOptions extends JobOptions {
  /** Origin offset along d in model units. Default 1e-5 of the model's bounding-box diagonal. */
  eps?: number;
  /** Vertices per kernel call. Default 4096. */
  chunk?: number;
}

export interface UndercutMapOptions extends UndercutOptions {
  /**
   * Heatmap colours of the depth: the legend range, or 'auto' for [0, maxDepth].
   * Free vertices get the ramp's no-value grey. Omit for no colours.
   */
  colors?: RampRange | 'auto';
}

export interface UndercutResult {
  /** The insertion direction, unit length. */
  direction: Vec3;
  /** Per vertex: distance along d to the surface that blocks it, 0 when free. */
  depth: Float32Array<ArrayBuffer>;
  /** Per vertex: 1 in undercut, 0 free. */
  undercut: Uint8Array<ArrayBuffer>;
  /** Vertices in undercut. */
  count: number;
  /** Undercut area (model units squared). */
  area: number;
  /** The whole mesh's area. */
  totalArea: number;
  /** Largest depth (0 when no undercut): the natural legend range is [0, maxDepth]. */
  maxDepth: number;
  /** The legend range the colours use (when asked for). */
  range?: RampRange;
  /** RGBA f32 per vertex (when asked for): depth on the ramp, free vertices grey. */
  colors?: Float32Array<ArrayBuffer>;
}

function unit(d: Vec3): Vec3 {
  const len = Math.hypot(d[0], d[1], d[2]);
  if (!(len > 0) || !Number.isFinite(len)) throw new KernelError('BAD_INPUT', 'the insertion direction has no length');
  return [d[0] / len, d[1] / len, d[2] / len];
}

function checkPair(mesh: MeshRef, bvh: Bvh): void {
  if (mesh.k !== bvh.k || mesh.triangleCount !== bvh.triangleCount) {
    throw new KernelError('BAD_INPUT', 'the BVH was not built for this mesh in this instance');
  }
}

/** Allocates scratch for a job and drops it afterwards (even when cancelled). */
async function withJobScratch<T>(mesh: MeshRef, body: (alloc: (bytes: number) => number) => Promise<T>): Promise<T> {
  const { k } = mesh;
  const mark = k.arenaMark() >>> 0;
  try {
    return await body((bytes) => {
      const ptr = k.arenaAlloc(Math.max(4, bytes)) >>> 0;
      if (ptr === 0) throw new KernelError('OUT_OF_MEMORY', `no room for ${bytes} bytes of scratch`);
      return ptr;
    });
  } finally {
    k.arenaRelease(mark);
  }
}

/** Per-vertex weights (a third of each incident triangle's area) in scratch; returns [pointer, total area]. */
function vertexWeights(mesh: MeshRef, alloc: (bytes: number) => number): [number, number] {
  const ptr = alloc(mesh.vertexCount * 4);
  const total = mesh.k.meshVertexAreas(mesh.positionsPtr, mesh.indicesPtr, mesh.triangleCount, mesh.vertexCount, ptr);
  return [ptr, total];
}

/** Undercut map of the mesh for insertion direction `direction` (need not be unit). */
export async function undercutMap(mesh: MeshRef, bvh: Bvh, direction: Vec3, options: UndercutMapOptions = {}): Promise<UndercutResult> {
  checkPair(mesh, bvh);
  const d = unit(direction);
  const eps = options.eps ?? bvhDiagonal(bvh) * 1e-5;
  const { k } = mesh;
  const n = mesh.vertexCount;
  return withJobScratch(mesh, async (alloc) => {
    const [weights, totalArea] = vertexWeights(mesh, alloc);
    const depthPtr = alloc(n * 4);
    const flagsPtr = alloc(n);
    let area = 0;
    await runChunked(
      n,
      options.chunk ?? 4096,
      (start, end) => {
        area += k.undercutMap(bvh.ptr, mesh.positionsPtr, weights, start, end, d[0], d[1], d[2], eps, depthPtr, flagsPtr);
      },
      options,
    );
    const depth = new Float32Array(k.memory.buffer.slice(depthPtr, depthPtr + n * 4));
    const undercut = new Uint8Array(k.memory.buffer.slice(flagsPtr, flagsPtr + n));
    let count = 0;
    let maxDepth = 0;
    for (let v = 0; v < n; v++) {
      if (undercut[v]) {
        count++;
        if (depth[v]! > maxDepth) maxDepth = depth[v]!;
      }
    }
    const result: UndercutResult = { direction: d, depth, undercut, count, area, totalArea, maxDepth };
    if (options.colors) {
      const range = options.colors === 'auto' ? { min: 0, max: maxDepth } : options.colors;
      const values = depth.map((v, i) => (undercut[i] ? v : Number.NaN));
      result.range = range;
      result.colors = rampColors(k, values, range);
    }
    return result;
  });
}

export interface BestDirectionOptions extends UndercutOptions {
  /** Half-angle of the cone around the hint, degrees. Default 30. */
  halfAngleDeg?: number;
  /** Directions sampled on the cone (Fibonacci spiral), besides the hint. Default 64. */
  samples?: number;
  /** Refinement rounds around the best so far, each at half the previous radius. Default 3. */
  refineRounds?: number;
  /** Directions per refinement round. Default 16. */
  refineSamples?: number;
  /** The search scores at most this many vertices (an even stride through them); the answer's area uses all. Default 20,000. */
  maxSampleVertices?: number;
}

export interface BestDirectionResult {
  /** Unit direction with the least undercut area in the cone; among equals, the closest to the hint. */
  direction: Vec3;
  /** Its undercut area (all vertices). */
  area: number;
  /** Undercut area for the hint itself (all vertices). */
  hintArea: number;
  /** Angle between the result and the hint, degrees. */
  angleDeg: number;
  /** Directions scored. */
  evaluated: number;
  totalArea: number;
}

/** Two unit vectors orthogonal to unit `h` and to each other. */
function frame(h: Vec3): [Vec3, Vec3] {
  const a: Vec3 = Math.abs(h[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const u = unit([h[1] * a[2] - h[2] * a[1], h[2] * a[0] - h[0] * a[2], h[0] * a[1] - h[1] * a[0]]);
  const w: Vec3 = [h[1] * u[2] - h[2] * u[1], h[2] * u[0] - h[0] * u[2], h[0] * u[1] - h[1] * u[0]];
  return [u, w];
}

/** `count` directions spread evenly (Fibonacci spiral) over the cap of half-angle `angle` (radians) around unit `c`. */
export function capDirections(c: Vec3, angle: number, count: number): Vec3[] {
  const [u, w] = frame(c);
  const golden = Math.PI * (3 - Math.sqrt(5));
  const cosMax = Math.cos(angle);
  const out: Vec3[] = [];
  for (let i = 0; i < count; i++) {
    const cos = 1 - (1 - cosMax) * ((i + 0.5) / count);
    const sin = Math.sqrt(Math.max(0, 1 - cos * cos));
    const phi = i * golden;
    const x = sin * Math.cos(phi), y = sin * Math.sin(phi);
    out.push([u[0] * x + w[0] * y + c[0] * cos, u[1] * x + w[1] * y + c[1] * cos, u[2] * x + w[2] * y + c[2] * cos]);
  }
  return out;
}

const angleBetween = (a: Vec3, b: Vec3): number => Math.acos(Math.min(1, Math.max(-1, a[0] * b[0] + a[1] * b[1] + a[2] * b[2])));

/**
 * The insertion direction within `halfAngleDeg` of `hint` with the least
 * undercut area: scores a Fibonacci spiral of directions on the cone, then
 * refines around the best in rounds of shrinking radius.
 */
export async function bestInsertionDirection(
  mesh: MeshRef,
  bvh: Bvh,
  hint: Vec3,
  options: BestDirectionOptions = {},
): Promise<BestDirectionResult> {
  checkPair(mesh, bvh);
  const h = unit(hint);
  const cone = ((options.halfAngleDeg ?? 30) * Math.PI) / 180;
  const samples = Math.max(1, Math.floor(options.samples ?? 64));
  const rounds = Math.max(0, Math.floor(options.refineRounds ?? 3));
  const refineSamples = Math.max(1, Math.floor(options.refineSamples ?? 16));
  const eps = options.eps ?? bvhDiagonal(bvh) * 1e-5;
  const chunk = options.chunk ?? 4096;
  const { k } = mesh;
  const n = mesh.vertexCount;
  const stride = Math.max(1, Math.ceil(n / Math.max(1, options.maxSampleVertices ?? 20_000)));
  const sampleCount = Math.ceil(n / stride);
  // Progress: every scored direction costs the same; the two exact areas at the end count as scored directions too.
  const totalEvals = 1 + samples + rounds * refineSamples + (stride > 1 ? 2 * stride : 0);
  let done = 0;

  return withJobScratch(mesh, async (alloc) => {
    const [weights, totalArea] = vertexWeights(mesh, alloc);
    const score = async (d: Vec3, step: number, count: number, weight: number): Promise<number> => {
      let sum = 0;
      await runChunked(
        count,
        chunk,
        (start, end) => {
          sum += k.undercutScore(bvh.ptr, mesh.positionsPtr, weights, n, start, end, step, d[0], d[1], d[2], eps);
        },
        {
          ...options,
          onProgress: options.onProgress ? (f) => options.onProgress!(Math.min(1, (done + f * weight) / totalEvals)) : undefined,
        },
      );
      done += weight;
      return sum;
    };

    const tolerance = totalArea * 1e-9;
    let best = h;
    const hintScore = await score(h, stride, sampleCount, 1);
    let bestScore = hintScore;
    let bestAngle = 0;
    let evaluated = 1;
    const consider = async (d: Vec3): Promise<void> => {
      const s = await score(d, stride, sampleCount, 1);
      evaluated++;
      const a = angleBetween(d, h);
      if (s < bestScore - tolerance || (s <= bestScore + tolerance && a < bestAngle)) {
        best = d;
        bestScore = s;
        bestAngle = a;
      }
    };
    for (const d of capDirections(h, cone, samples)) await consider(d);
    // Refine around the best: start at the spiral's spacing, halve each round.
    let radius = Math.sqrt((2 * Math.PI * (1 - Math.cos(cone))) / samples);
    for (let r = 0; r < rounds; r++) {
      const centre = best;
      for (const d of capDirections(centre, radius, refineSamples)) {
        if (angleBetween(d, h) <= cone + 1e-9) await consider(d);
        else done += 1;
      }
      radius /= 2;
    }
    const area = stride === 1 ? bestScore : await score(best, 1, n, stride);
    const hintArea = stride === 1 ? hintScore : await score(h, 1, n, stride);
    options.onProgress?.(1);
    return { direction: best, area, hintArea, angleDeg: (bestAngle * 180) / Math.PI, evaluated, totalArea };
  });
}
