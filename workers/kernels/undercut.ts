// Undercut analysis for an insertion direction (path of draw), and the search
// for the best direction in a cone around a hint. Kernels: undercutMap and
// undercutScore in assembly/bvh-analysis.ts.
//
// A vertex is in undercut when the ray from it towards +d hits the model (the
// origin is moved eps along d first, so the vertex's own triangles lie behind
// it; a vertex not facing away from d is also moved normalEps out along its
// normal, so that on a wall parallel to d the ray does not run along the
// wall's own edges). Its depth is the distance from the vertex to that blocking surface
// along d; free vertices have depth 0. The undercut area is the sum over
// undercut vertices of a third of the area of their triangles.
//
// Both offsets are tiny (rayOffsets): the answer must be that of a ray from the
// vertex itself. An offset of 0.1 mm (it was 1e-3 of the diagonal) crossed the
// 0.05 mm gap of a narrow contact into the neighbouring tooth (flagged, with
// depths of several mm) and carried rays of vertices under an overhang's
// shadow edge past it (reported free); see docs/geometry.md.

import { bvhBounds, bvhDiagonal, type Bvh, type Vec3 } from './bvh.ts';
import { jobClock, KernelError, runChunked, type JobOptions } from './job.ts';
import type { MeshRef } from './mesh.ts';
import { vertexNormalsInto } from './mesh-ops.ts';
import { rampColors, type RampRange } from './ramp.ts';

export interface UndercutOptions extends JobOptions {
  /** Origin offset along d in model units. Default 1e-5 of the model's bounding-box diagonal (0.001 mm on a jaw). */
  eps?: number;
  /**
   * Origin offset along the vertex normal (walls parallel to d). Default 1e-6 of the diagonal
   * (0.0001 mm on a jaw), at least 8 float32 steps of the largest coordinate.
   */
  normalEps?: number;
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

/** n.d above -UNDERCUT_TANGENT gets the normal offset: TANGENT of assembly/bvh-analysis.ts (keep them equal). */
export const UNDERCUT_TANGENT = 0.002;

/** The origin offsets of the vertex rays: along d, and out along the normal (see UndercutOptions). */
export function rayOffsets(bvh: Bvh, options: UndercutOptions = {}): { eps: number; normalEps: number } {
  const diagonal = bvhDiagonal(bvh);
  const b = bvhBounds(bvh);
  const largest = b ? Math.max(...b.min.map(Math.abs), ...b.max.map(Math.abs)) : 0;
  return {
    eps: options.eps ?? diagonal * 1e-5,
    // 2^-20 of the largest coordinate is 8 steps of float32 there: the offset must survive the rounding.
    normalEps: options.normalEps ?? Math.max(diagonal * 1e-6, largest * 2 ** -20),
  };
}

/** The mesh's vertex normals, or area-weighted ones computed by the kernel into scratch when it has none. */
function vertexNormalsPtr(mesh: MeshRef, alloc: (bytes: number) => number): number {
  if (mesh.normalsPtr) return mesh.normalsPtr;
  const ptr = alloc(mesh.vertexCount * 12);
  vertexNormalsInto(mesh, ptr);
  return ptr;
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
  const { eps, normalEps } = rayOffsets(bvh, options);
  const { k } = mesh;
  const n = mesh.vertexCount;
  return withJobScratch(mesh, async (alloc) => {
    const [weights, totalArea] = vertexWeights(mesh, alloc);
    const normals = vertexNormalsPtr(mesh, alloc);
    const depthPtr = alloc(n * 4);
    const flagsPtr = alloc(n);
    let area = 0;
    await runChunked(
      n,
      options.chunk ?? 4096,
      (start, end) => {
        area += k.undercutMap(bvh.ptr, mesh.positionsPtr, normals, weights, start, end, d[0], d[1], d[2], eps, normalEps, depthPtr, flagsPtr);
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
  /** Refinement rounds around each of the 3 best directions, each at half the previous radius. Default 3. */
  refineRounds?: number;
  /** Directions per refinement round. Default 8. */
  refineSamples?: number;
  /**
   * The search scores at most this many vertices (an even stride through
   * them, weighted by area, so the score estimates the area); the returned
   * areas use all. Default 4,000. Cost: about (1 + samples + 3 × refineRounds
   * × refineSamples) × maxSampleVertices + 2 × vertexCount rays.
   */
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

/** Sample vertices for scoring: ids (u32, or 0 for every vertex) and weights (f32), in the arena. */
interface Samples {
  ids: number;
  weights: number;
  count: number;
}

/**
 * About `max` sample vertices whose weighted undercut estimates the area:
 * every vertex heavier than total / max (big triangles, like a model's
 * plinth, would make a plain stride noisy), plus an even stride through the
 * rest with weights scaled so they sum to the rest's area.
 */
function pickSamples(mesh: MeshRef, weightsPtr: number, total: number, max: number, alloc: (bytes: number) => number): Samples {
  const n = mesh.vertexCount;
  const ids = alloc(max * 2 * 4);
  const out = alloc(max * 2 * 4);
  const w = new Float32Array(mesh.k.memory.buffer, weightsPtr, n);
  const heavyLimit = total / max;
  const heavy: number[] = [];
  let lightCount = 0;
  let lightTotal = 0;
  for (let v = 0; v < n; v++) {
    if (w[v]! >= heavyLimit) heavy.push(v);
    else {
      lightCount++;
      lightTotal += w[v]!;
    }
  }
  const step = Math.max(1, Math.ceil(lightCount / Math.max(1, max - heavy.length)));
  const light: number[] = [];
  let picked = 0;
  for (let v = 0, seen = 0; v < n; v++) {
    if (w[v]! >= heavyLimit) continue;
    if (seen++ % step === 0) {
      light.push(v);
      picked += w[v]!;
    }
  }
  const scale = picked > 0 ? lightTotal / picked : 0;
  const idView = new Uint32Array(mesh.k.memory.buffer, ids, heavy.length + light.length);
  const wView = new Float32Array(mesh.k.memory.buffer, out, heavy.length + light.length);
  heavy.forEach((v, i) => {
    idView[i] = v;
    wView[i] = w[v]!;
  });
  light.forEach((v, i) => {
    idView[heavy.length + i] = v;
    wView[heavy.length + i] = w[v]! * scale;
  });
  return { ids, weights: out, count: heavy.length + light.length };
}

/** Directions whose neighbourhoods the search refines. */
const REFINE_SEEDS = 3;

interface Scored {
  direction: Vec3;
  score: number;
  angle: number;
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
  const refineSamples = Math.max(1, Math.floor(options.refineSamples ?? 8));
  const { eps, normalEps } = rayOffsets(bvh, options);
  const chunk = options.chunk ?? 4096;
  const { k } = mesh;
  const n = mesh.vertexCount;
  const maxSamples = Math.max(1, Math.floor(options.maxSampleVertices ?? 4_000));

  return withJobScratch(mesh, async (alloc) => {
    const [weights, totalArea] = vertexWeights(mesh, alloc);
    const normals = vertexNormalsPtr(mesh, alloc);
    const all: Samples = { ids: 0, weights, count: n };
    const sample = n > maxSamples ? pickSamples(mesh, weights, totalArea, maxSamples, alloc) : all;
    // Progress: in units of one sampled score; the two exact areas at the end weigh n / samples each.
    const exactWeight = sample === all ? 0 : n / sample.count;
    const totalEvals = 1 + samples + REFINE_SEEDS * rounds * refineSamples + 2 * exactWeight;
    let done = 0;
    // One clock for every score: each takes a few milliseconds, so alone none would yield.
    const clock = jobClock();
    const score = async (d: Vec3, set: Samples, weight: number): Promise<number> => {
      let sum = 0;
      await runChunked(
        set.count,
        chunk,
        (start, end) => {
          sum += k.undercutScore(bvh.ptr, mesh.positionsPtr, normals, set.ids, set.weights, start, end, d[0], d[1], d[2], eps, normalEps);
        },
        {
          ...options,
          clock,
          onProgress: options.onProgress ? (f) => options.onProgress!(Math.min(1, (done + f * weight) / totalEvals)) : undefined,
        },
      );
      done += weight;
      return sum;
    };

    const tolerance = totalArea * 1e-9;
    // Lower score first; among equal scores, closer to the hint.
    const better = (x: Scored, y: Scored): boolean =>
      x.score < y.score - tolerance || (x.score <= y.score + tolerance && x.angle < y.angle);
    const scored: Scored[] = [];
    const consider = async (d: Vec3): Promise<Scored> => {
      const c = { direction: d, score: await score(d, sample, 1), angle: angleBetween(d, h) };
      scored.push(c);
      return c;
    };
    const hintScored = await consider(h);
    for (const d of capDirections(h, cone, samples)) await consider(d);
    // Refine around the best few (the landscape has several valleys): caps
    // starting at the spiral's spacing, halved each round.
    const ranked = [...scored].sort((x, y) => (better(x, y) ? -1 : better(y, x) ? 1 : 0));
    const seeds = ranked.slice(0, Math.min(REFINE_SEEDS, ranked.length));
    const spacing = Math.sqrt((2 * Math.PI * (1 - Math.cos(cone))) / samples);
    for (let seed = 0; seed < seeds.length; seed++) {
      let local = seeds[seed]!;
      let radius = spacing;
      for (let r = 0; r < rounds; r++) {
        const centre = local.direction;
        for (const d of capDirections(centre, radius, refineSamples)) {
          if (angleBetween(d, h) > cone + 1e-9) {
            done += 1;
            continue;
          }
          const c = await consider(d);
          if (better(c, local)) local = c;
        }
        radius /= 2;
      }
    }
    let top = hintScored;
    for (const c of scored) if (better(c, top)) top = c;
    const best = top.direction;
    const bestScore = top.score;
    const bestAngle = top.angle;
    const hintScore = hintScored.score;
    const evaluated = scored.length;
    const area = sample === all ? bestScore : await score(best, all, exactWeight);
    const hintArea = sample === all ? hintScore : await score(h, all, exactWeight);
    options.onProgress?.(1);
    return { direction: best, area, hintArea, angleDeg: (bestAngle * 180) / Math.PI, evaluated, totalArea };
  });
}
