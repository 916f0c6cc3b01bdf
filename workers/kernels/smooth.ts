// The smoothing brush ("smudging") and whole-region smoothing, over
// assembly/smooth.ts. A dab costs what it touches (a walk over the adjacency
// from the seed vertex), so it stays interactive on any mesh size. Positions
// and normals change in place in the mesh's instance: the caller must refit
// the mesh's BVH afterwards (bvh kernels) and update the listed vertices in
// the renderer (the result carries their new positions and normals).

import { type JobOptions, KernelError, runChunked } from './job.ts';
import { type MeshRef, meshViews } from './mesh.ts';
import { check, hasTopology, type Point3 } from './topology.ts';

export interface TaubinOptions {
  /** 0..1, scales every step. Default 0.5 for a dab, 1 for a region. */
  strength?: number;
  /** λ/μ rounds. Default 3 for a dab, 10 for a region. */
  iterations?: number;
  /** Shrinking step. Default 0.5. */
  lambda?: number;
  /** Inflating step, below -λ. Default -0.53. 0 gives plain Laplacian smoothing (which shrinks). */
  mu?: number;
}

export interface DabOptions extends TaubinOptions {
  /**
   * 'taubin' (default): `iterations` λ/μ rounds, each step scaled by strength × falloff (the
   * first brush: gentle, about a couple of edges). 'fair': the `FAIR_STEPS` filter on the
   * vertices in the sphere (each step scaled by the falloff), each vertex's move capped at a
   * quarter of the radius, then `strength` of it taken (strong and shrink-free, below).
   */
  filter?: 'taubin' | 'fair';
  /** Brush centre, normally the picked surface point. */
  center: Point3;
  /** Model units; vertices closer than this to the centre (and connected to the seed through such vertices) move. */
  radius: number;
  /** The picked triangle: its corner nearest the centre seeds the walk. */
  triangle?: number;
  /** Or the seed vertex itself. */
  vertex?: number;
}

export interface SmoothResult {
  /** Vertices that were smoothed: the first `moved` entries of `vertices`. */
  moved: number;
  /** Moved vertices, then their one-ring (whose normals changed too). */
  vertices: Uint32Array;
  /** New xyz per listed vertex. */
  positions: Float32Array;
  /** New unit normal per listed vertex, when the mesh has normals. */
  normals: Float32Array | undefined;
  /** Smallest and largest listed vertex id (for a partial buffer upload); 0, -1 when none. */
  minVertex: number;
  maxVertex: number;
}

const DAB_DEFAULTS = { strength: 0.5, iterations: 3, lambda: 0.5, mu: -0.53 };

/**
 * The 'fair' dab's filter: steps x ← x − t·L(Lx) (uniform Laplacian L). A step is a Taubin pair
 * (I − λL)(I + λL) with μ = −λ, λ = √t: its pass-band is 0, so no frequency is amplified and a
 * surface of constant curvature (a sphere, a cylinder: L(Lx) = 0) keeps its size. The t are the
 * inverses of the Chebyshev nodes of [cutoff², 4] (the range of (Lκ)²), so the product of the
 * steps is the Chebyshev polynomial that stays below 1/T_n on [cutoff², 4]: wrinkles of a few
 * edges (a fissure, a scan artefact; κ ≥ cutoff) are cut to about a quarter in one dab, where
 * plain pairs of λ 0.5 would need hundreds of rounds. Large and small t alternate, so no partial
 * product exceeds 127 on [0, 4] (f64 keeps the intermediate results exact enough).
 */
export function fairSteps(pairs = 10, cutoff = 0.2): number[] {
  const lo = cutoff * cutoff, hi = 4;
  const t: number[] = [];
  for (let j = 1; j <= pairs; j++) t.push(1 / ((hi + lo) / 2 - ((hi - lo) / 2) * Math.cos(((2 * j - 1) * Math.PI) / (2 * pairs))));
  const order: number[] = [];
  for (let a = 0, b = t.length - 1; a <= b; ) {
    order.push(t[a++]!);
    if (a <= b) order.push(t[b--]!);
  }
  return order;
}
export const FAIR_STEPS: readonly number[] = fairSteps();

const REGION_DEFAULTS = { strength: 1, iterations: 10, lambda: 0.5, mu: -0.53 };

function requireTopology(m: MeshRef): void {
  if (!hasTopology(m)) throw new KernelError('BAD_INPUT', 'no topology for this mesh: await ensureTopology(mesh) first');
  // Allocated with the tables; only re-allocated if an arena release lost them.
  check(m.k.smoothPrepare(), 'smoothPrepare');
}

/** The corner of triangle t nearest p. */
export function nearestCorner(m: MeshRef, t: number, p: Point3): number {
  if (!(t >= 0 && t < m.triangleCount)) throw new KernelError('BAD_INPUT', `triangle ${t} out of range`);
  const buf = m.k.memory.buffer;
  const idx = new Uint32Array(buf, m.indicesPtr + t * 12, 3);
  const pos = new Float32Array(buf, m.positionsPtr, m.vertexCount * 3);
  let best = idx[0]!;
  let bestD = Infinity;
  for (const v of idx) {
    const d = (pos[v * 3]! - p[0]) ** 2 + (pos[v * 3 + 1]! - p[1]) ** 2 + (pos[v * 3 + 2]! - p[2]) ** 2;
    if (d < bestD) {
      bestD = d;
      best = v;
    }
  }
  return best;
}

/** Copies the kernel's vertex list and the listed vertices' positions and normals. */
function readList(m: MeshRef, moved: number): SmoothResult {
  const k = m.k;
  const total = k.smoothTotalCount() >>> 0;
  const buf = k.memory.buffer;
  const listPtr = k.smoothListPtr() >>> 0;
  const vertices = new Uint32Array(buf.slice(listPtr, listPtr + total * 4));
  const views = meshViews(m);
  const { positions, normals } = gather(vertices, views.positions, views.normals);
  return {
    moved,
    vertices,
    positions,
    normals,
    minVertex: total ? k.smoothMinVertex() >>> 0 : 0,
    maxVertex: total ? k.smoothMaxVertex() >>> 0 : -1,
  };
}

/**
 * One brush dab (synchronous: it costs the vertices touched). Needs the
 * mesh's topology (ensureTopology). Refit the BVH afterwards.
 */
export function smoothDab(m: MeshRef, dab: DabOptions): SmoothResult {
  requireTopology(m);
  const o = { ...DAB_DEFAULTS, ...dab };
  const seed = dab.vertex ?? (dab.triangle !== undefined ? nearestCorner(m, dab.triangle, dab.center) : undefined);
  if (seed === undefined) throw new KernelError('BAD_INPUT', 'a dab needs a seed triangle or vertex');
  const [cx, cy, cz] = dab.center;
  if (dab.filter === 'fair') return fairDab(m, seed, dab.center, dab.radius, Math.min(1, Math.max(0, o.strength)));
  const moved = check(
    m.k.smoothDab(seed, cx, cy, cz, o.radius, o.strength, Math.max(0, Math.round(o.iterations)), o.lambda, o.mu),
    'smoothDab',
  );
  return readList(m, moved);
}

/**
 * The 'fair' dab (assembly/smooth.ts smoothFairDab): the FAIR_STEPS filter in f64 on the vertices
 * in the sphere with their one-ring fixed, each step scaled by the falloff; then each vertex
 * takes strength × its move, capped at a quarter of the radius. Cost: the vertices touched × steps.
 */
function fairDab(m: MeshRef, seed: number, center: Point3, radius: number, strength: number): SmoothResult {
  const k = m.k;
  FAIR_STEPS.forEach((t, i) => check(k.smoothSetFairStep(i, t, FAIR_STEPS.length), 'smoothSetFairStep'));
  const moved = check(k.smoothFairDab(seed, center[0], center[1], center[2], radius, strength), 'smoothFairDab');
  return readList(m, moved);
}

export interface RegionOptions extends TaubinOptions {
  /** Vertex ids to smooth; the whole mesh when absent. */
  vertices?: Uint32Array;
}

const REGION_CHUNK = 1 << 15;

/**
 * Taubin smoothing of a vertex set (or the whole mesh) with one uniform
 * weight, in chunks (progress, cancellation). Refit the BVH afterwards.
 * All or nothing: cancelled (KernelError ABORTED) or failed part way, it puts
 * the listed vertices' positions and normals back as they were before it
 * rejects (a snapshot of the region and its ring, or of the whole mesh).
 */
export async function smoothRegion(m: MeshRef, region: RegionOptions = {}, job: JobOptions = {}): Promise<SmoothResult> {
  requireTopology(m);
  const k = m.k;
  const o = { ...REGION_DEFAULTS, ...region };
  let moved: number;
  if (region.vertices) {
    const ids = region.vertices;
    const mark = k.arenaMark() >>> 0;
    try {
      const ptr = k.arenaAlloc(ids.byteLength) >>> 0;
      if (ptr === 0) throw new KernelError('OUT_OF_MEMORY', 'vertex list');
      new Uint32Array(k.memory.buffer, ptr, ids.length).set(ids);
      moved = check(k.smoothRegionBegin(ptr, ids.length, o.strength), 'smoothRegionBegin');
    } finally {
      k.arenaRelease(mark);
    }
  } else {
    moved = check(k.smoothRegionBeginAll(o.strength), 'smoothRegionBeginAll');
  }
  const total = k.smoothTotalCount() >>> 0;
  const iterations = Math.max(0, Math.round(o.iterations));
  const steps = o.mu !== 0 ? [o.lambda, o.mu] : [o.lambda];
  // Two passes per half-step (compute, apply), then the normals.
  const passes: { count: number; run: (start: number, end: number) => void }[] = [];
  for (let it = 0; it < iterations; it++) {
    for (const factor of steps) {
      passes.push({ count: moved, run: (s, e) => k.smoothPass(factor, s, e) });
      passes.push({ count: moved, run: (s, e) => k.smoothApply(s, e) });
    }
  }
  passes.push({ count: total, run: (s, e) => k.smoothNormals(s, e) });
  // The chunks of every pass in one job: time slices, progress throttling and cancellation then
  // span the passes. (A job per pass restarted its slice each pass, and a pass over a region of
  // 90,000 vertices takes about a millisecond: 2,000 rounds ran without a yield, so no cancel got
  // through, and each pass reported its progress.)
  const chunks = (n: number): number => Math.ceil(n / REGION_CHUNK);
  const totalChunks = passes.reduce((sum, p) => sum + chunks(p.count), 0);
  let pass = 0;
  let chunk = 0;
  const before = snapshot(m, region.vertices === undefined);
  try {
    await runChunked(
      totalChunks,
      1,
      () => {
        while (chunk >= chunks(passes[pass]!.count)) {
          pass++;
          chunk = 0;
        }
        const p = passes[pass]!;
        const start = chunk++ * REGION_CHUNK;
        p.run(start, Math.min(p.count, start + REGION_CHUNK));
      },
      job,
    );
  } catch (e) {
    // Cancelled (or failed) between passes: a half-smoothed region would no longer match what
    // the page draws, and the caller gets no result to redraw with. Nothing happened, then.
    restore(m, before);
    throw e;
  }
  return readList(m, moved);
}

/** Positions and normals of the kernel's list (the region and its ring), or of the whole mesh. */
interface Snapshot {
  /** The listed vertex ids; undefined: every vertex, in order. */
  vertices: Uint32Array | undefined;
  positions: Float32Array;
  normals: Float32Array | undefined;
}

function snapshot(m: MeshRef, whole: boolean): Snapshot {
  const { positions, normals } = meshViews(m);
  if (whole) return { vertices: undefined, positions: positions.slice(), normals: normals?.slice() };
  const k = m.k;
  const total = k.smoothTotalCount() >>> 0;
  const listPtr = k.smoothListPtr() >>> 0;
  const vertices = new Uint32Array(k.memory.buffer.slice(listPtr, listPtr + total * 4));
  return { vertices, ...gather(vertices, positions, normals) };
}

/** The positions and normals of the listed vertices, xyz each in list order. */
function gather(vertices: Uint32Array, pos: Float32Array, nrm: Float32Array | undefined): { positions: Float32Array; normals: Float32Array | undefined } {
  const positions = new Float32Array(vertices.length * 3);
  const normals = nrm ? new Float32Array(vertices.length * 3) : undefined;
  for (let i = 0; i < vertices.length; i++) {
    const v = vertices[i]! * 3;
    positions[i * 3] = pos[v]!;
    positions[i * 3 + 1] = pos[v + 1]!;
    positions[i * 3 + 2] = pos[v + 2]!;
    if (normals && nrm) {
      normals[i * 3] = nrm[v]!;
      normals[i * 3 + 1] = nrm[v + 1]!;
      normals[i * 3 + 2] = nrm[v + 2]!;
    }
  }
  return { positions, normals };
}

function restore(m: MeshRef, before: Snapshot): void {
  if (before.vertices) {
    scatter(m, before.vertices, before.positions, before.normals);
    return;
  }
  const { positions, normals } = meshViews(m);
  positions.set(before.positions);
  if (normals && before.normals) normals.set(before.normals);
}

/**
 * Writes positions (and normals) of the listed vertices, xyz each in list order, into the mesh
 * (the brush's undo and redo, an aborted region put back). Ids must be below the vertex count.
 */
export function scatter(m: MeshRef, vertices: Uint32Array, p: Float32Array, n?: Float32Array): void {
  // Fresh views: memory may have grown since the values were read.
  const { positions, normals } = meshViews(m);
  for (let i = 0; i < vertices.length; i++) {
    const v = vertices[i]! * 3;
    positions[v] = p[i * 3]!;
    positions[v + 1] = p[i * 3 + 1]!;
    positions[v + 2] = p[i * 3 + 2]!;
    if (normals && n) {
      normals[v] = n[i * 3]!;
      normals[v + 1] = n[i * 3 + 1]!;
      normals[v + 2] = n[i * 3 + 2]!;
    }
  }
}
