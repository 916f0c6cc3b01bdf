// The model surface as wire design sees it: closest points with the outward normal there, rays,
// and keeping a wire's corners off the teeth by its radius plus its clearance. Everything here
// is in the model frame of the wire's jaw (the frame of the worker's mesh and of the design).
import type { SurfacePick, WirePoint } from './types.ts';
import type { Xyz } from '../pose.ts';

export interface SurfaceHits {
  /** xyz per query of the closest surface point (NaN when none). */
  point: Float32Array;
  /** Unit outward normal per query (the closest triangle's; 0 when none). */
  normal: Float32Array;
  /** Triangle per query, -1 when none. */
  triangle: Int32Array;
}

export interface RayHitsXyz {
  /** Distance along each ray (its direction need not be unit: in units of its length); Infinity on a miss. */
  t: Float32Array;
  /** xyz of each hit (NaN on a miss). */
  point: Float32Array;
  triangle: Int32Array;
}

/** One jaw's surface, queried in its model frame. */
export interface SurfaceQuery {
  closest(points: Float32Array): Promise<SurfaceHits>;
  /** First hit of each ray (origin xyz, direction xyz per ray; both sides of triangles count). */
  raycast(rays: Float32Array): Promise<RayHitsXyz>;
}

/** The geometry calls a SurfaceQuery needs (GeometryClient has them). */
export interface SurfaceGeometry {
  closestWithNormals(handle: number, points: Float32Array, options?: { maxDistance?: number }): Promise<{ point: Float32Array; normal: Float32Array; triangle: Int32Array }>;
  raycast(handle: number, rays: Float32Array): Promise<{ t: Float32Array; triangle: Int32Array }>;
}

/** A SurfaceQuery on a mesh kept in the geometry worker (`engine.handleOf(jaw)`). */
export function surfaceQuery(geometry: SurfaceGeometry, handle: number, options: { maxDistance?: number } = {}): SurfaceQuery {
  return {
    async closest(points) {
      const r = await geometry.closestWithNormals(handle, points, options);
      return { point: r.point, normal: r.normal, triangle: r.triangle };
    },
    async raycast(rays) {
      const r = await geometry.raycast(handle, rays);
      return rayHits(rays, r.t, r.triangle);
    },
  };
}

/** First hits as points: origin + t * direction per ray (NaN on a miss). */
export function rayHits(rays: Float32Array, t: Float32Array, triangle: Int32Array): RayHitsXyz {
  const point = new Float32Array(t.length * 3).fill(NaN);
  for (let i = 0; i < t.length; i++) {
    const d = t[i]!;
    if (!Number.isFinite(d)) continue;
    for (let a = 0; a < 3; a++) point[i * 3 + a] = rays[i * 6 + a]! + d * rays[i * 6 + 3 + a]!;
  }
  return { t, point, triangle };
}

export interface OffsetResult {
  /** The moved points, xyz each. */
  point: Float32Array;
  /** The surface point each is kept off (xyz) and its triangle (-1: nothing found, the point is unmoved). */
  surface: Float32Array;
  triangle: Int32Array;
}

/**
 * Moves every point to `offset` off the surface: to its closest surface point plus the
 * direction from there to the point (or the outward normal when the point is on or inside the
 * surface) times the offset. Repeated until nothing moves by more than 0.002 mm (at most
 * `iterations` times; after three, half steps), so it settles on curved and concave surfaces
 * where the closest point changes as the point moves.
 */
export async function offsetPoints(points: Float32Array, offset: number, surface: SurfaceQuery, iterations = 16): Promise<OffsetResult> {
  const n = points.length / 3;
  const p = Float32Array.from(points);
  let hits: SurfaceHits = await surface.closest(p);
  for (let it = 0; it < iterations; it++) {
    let moved = 0;
    for (let i = 0; i < n; i++) {
      if (hits.triangle[i]! < 0) continue;
      const o = i * 3;
      const dx = p[o]! - hits.point[o]!, dy = p[o + 1]! - hits.point[o + 1]!, dz = p[o + 2]! - hits.point[o + 2]!;
      const d = Math.hypot(dx, dy, dz);
      const nx = hits.normal[o]!, ny = hits.normal[o + 1]!, nz = hits.normal[o + 2]!;
      // Outside (the offset vector agrees with the outward normal): keep its direction, which is
      // exact at edges and vertices; on or inside the surface: the normal.
      const outside = d > 1e-4 && dx * nx + dy * ny + dz * nz > 0;
      const ux = outside ? dx / d : nx, uy = outside ? dy / d : ny, uz = outside ? dz / d : nz;
      // Full steps first; then half steps, which settle between two facing surfaces (an embrasure)
      // where full steps would jump from one to the other.
      const k = it < 3 ? 1 : 0.5;
      const x = p[o]! + k * (hits.point[o]! + ux * offset - p[o]!);
      const y = p[o + 1]! + k * (hits.point[o + 1]! + uy * offset - p[o + 1]!);
      const z = p[o + 2]! + k * (hits.point[o + 2]! + uz * offset - p[o + 2]!);
      moved = Math.max(moved, Math.hypot(x - p[o]!, y - p[o + 1]!, z - p[o + 2]!));
      p[o] = x;
      p[o + 1] = y;
      p[o + 2] = z;
    }
    hits = await surface.closest(p);
    if (moved < 0.002) break;
  }
  return { point: p, surface: Float32Array.from(hits.point), triangle: Int32Array.from(hits.triangle) };
}

/**
 * A wire's corners kept off the model: every corner with a surface pick moves to
 * `offset` (the wire's radius plus its clearance) off the surface nearest to it, and its pick
 * becomes that surface point; free corners (a tag, a loop in the air) are left as they are.
 */
export async function keepOff(points: readonly WirePoint[], offset: number, surface: SurfaceQuery): Promise<WirePoint[]> {
  const on = points.map((p, i) => (p.surface ? i : -1)).filter((i) => i >= 0);
  if (on.length === 0) return points.map((p) => ({ ...p }));
  const xyz = new Float32Array(on.length * 3);
  on.forEach((i, k) => xyz.set(points[i]!.point, k * 3));
  const r = await offsetPoints(xyz, offset, surface);
  const out = points.map((p) => ({ ...p }));
  on.forEach((i, k) => {
    if (r.triangle[k]! < 0) return;
    out[i] = { point: xyzAt(r.point, k), surface: pickAt(r.surface, r.triangle, k) };
  });
  return out;
}

export function xyzAt(a: ArrayLike<number>, i: number): Xyz {
  return [a[i * 3]!, a[i * 3 + 1]!, a[i * 3 + 2]!];
}

function pickAt(points: Float32Array, triangles: Int32Array, i: number): SurfacePick {
  return { point: xyzAt(points, i), triangle: triangles[i]! };
}
