// Acrylic base generation (docs/geometry.md, "Acrylic base"): a closed,
// printable plate that follows the model inside an outline drawn on it, with
// the undercuts blocked out along the insertion direction d.
//
// The base is a height field over the outline's polygon in the plane
// perpendicular to d (coordinates x, y on the frame u, w with u × w = d; the
// "level" s runs along d, from the model towards the appliance side):
// - inner surface: the first surface a ray coming from the appliance side
//   (from +d towards -d) meets, sampled on a grid; the first hit is by
//   definition never in an undercut, so the base slides off along +d. Each
//   vertex takes the highest sample within one cell of it (a max filter over
//   the triangles it belongs to), so the linear triangles never cut into a
//   tooth wall that passes between samples;
// - outer surface: the upper envelope of balls of radius `thickness` on the
//   inner samples (the exact normal offset, rounded over cliffs, still a
//   height field), and at least `height` above the inner surface along d;
// - a side wall along the rim.
// Inner and outer share one 2D triangulation (base-grid.ts), so the mesh is
// closed, manifold and consistently oriented by construction.

import { boundaryEdges, makeGrid, polygonProblem, triangulateDomain, VertexKind, type BaseGrid, type Domain2D } from './base-grid.ts';
import { bvhBounds, closestPoints, raycastFirst, type Bvh, type Vec3 } from './bvh.ts';
import { KernelError, runChunked, type JobOptions } from './job.ts';
import type { MeshRef } from './mesh.ts';

/** A point of the outline, as a pick on the model returns it. */
export interface OutlinePoint {
  /** The triangle the point was picked on (informational: the position is what counts). */
  triangle: number;
  point: Vec3;
}

/** Fewest outline points that make a base (fewer: TOO_FEW_POINTS). */
export const MIN_OUTLINE_POINTS = 4;
/** Lowest `height` accepted, mm (lower: HEIGHT_TOO_LOW). */
export const MIN_BASE_HEIGHT = 0.5;

export interface BaseSettings {
  /** Insertion direction, from the model towards the appliance side (the undercut kernel's d). Default: the canonical occlusal axis of `jaw`. */
  direction?: Vec3;
  /** Which canonical frame the default direction comes from: lower +z (default), upper -z. */
  jaw?: 'lower' | 'upper';
  /** Plate thickness along the surface normal, mm. Default 2. */
  thickness?: number;
  /** Least material height along d everywhere (vertical thickness), mm, at least MIN_BASE_HEIGHT. Default: thickness. */
  height?: number;
  /** Clearance between model and base along d, mm (0..1): the inner surface is raised by it. Default 0. */
  relief?: number;
  /** Grid spacing in the plane, mm (0.05..2). Default 0.25. */
  resolution?: number;
  /** The editor's check: false fails with NOT_STRAIGHTENED. Default true. */
  straightened?: boolean;
  /** How far an outline point may be from the model, mm. Default max(0.5, 2 × resolution). */
  surfaceTolerance?: number;
}

export type BaseOptions = BaseSettings & JobOptions;

export interface BaseMesh {
  /** xyz f32 per vertex: the inner surface's vertices first (innerVertexCount), then the outer ones in the same order. */
  positions: Float32Array<ArrayBuffer>;
  /** Unit area-weighted vertex normals of the inner and outer surfaces (the wall's are left out, so the rim stays crisp). */
  normals: Float32Array<ArrayBuffer>;
  /** Counter-clockwise seen from outside: inner triangles, outer triangles, wall triangles. */
  indices: Uint32Array<ArrayBuffer>;
  vertexCount: number;
  triangleCount: number;
  innerVertexCount: number;
  /** Rim edges (wall quads). */
  rimEdges: number;
  /** mm³, positive (outward orientation). */
  volume: number;
  /** Area of the outline seen along d, mm². */
  projectedArea: number;
  /** The unit insertion direction used. */
  direction: Vec3;
  thickness: number;
  height: number;
  resolution: number;
  /** Rays cast, and how many found no surface and were filled from their neighbours. */
  rays: number;
  missedRays: number;
  /** Highest blocked-out gap between the inner surface and the model below it along d, mm (0 without undercuts). */
  maxBlockout: number;
}

export type BaseErrorCode = 'NOT_STRAIGHTENED' | 'TOO_FEW_POINTS' | 'HEIGHT_TOO_LOW' | 'SPLIT_FAILED' | 'GENERATION_FAILED';

/** Share of the outlined area that may have no surface under it (holes): filled from around; more fails. */
const MAX_MISSING = 0.25;
/** Most samples (memory and time guard: about 30 bytes each while generating; a whole arch at 0.25 mm needs 0.3 M). */
const MAX_FINE_NODES = 4_000_000;

/**
 * A base that cannot be made from this input (the user's to fix: the editor
 * shows the specification's message for `code`). Infrastructure failures
 * (ABORTED, BAD_INPUT for settings out of range, OUT_OF_MEMORY) are KernelErrors.
 */
export class BaseError extends Error {
  override name = 'BaseError';
  constructor(
    readonly code: BaseErrorCode,
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
  }
}

const fail = (code: BaseErrorCode, detail: string): never => {
  throw new BaseError(code, detail);
};

function unit(v: Vec3, what: string): [number, number, number] {
  const l = Math.hypot(v[0], v[1], v[2]);
  if (!(l > 0) || !Number.isFinite(l)) throw new KernelError('BAD_INPUT', `${what} has no length`);
  return [v[0] / l, v[1] / l, v[2] / l];
}

const cross = (a: Vec3, b: Vec3): [number, number, number] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** u, w with u × w = d. */
function planeFrame(d: Vec3): [Vec3, Vec3] {
  const a: Vec3 = Math.abs(d[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const u = unit(cross(cross(d, a), d), 'the frame');
  return [u, cross(d, u)];
}

function checkNumber(name: string, v: number, min: number, max: number): void {
  if (!Number.isFinite(v) || v < min || v > max) throw new KernelError('BAD_INPUT', `${name} must be between ${min} and ${max} (got ${v})`);
}

/**
 * Generates the base for `outline` on the model (`bvh` built on `model`).
 * Throws BaseError with NOT_STRAIGHTENED, TOO_FEW_POINTS, HEIGHT_TOO_LOW,
 * SPLIT_FAILED (the outline crosses itself, is off the model or encloses no
 * surface) or GENERATION_FAILED (with the reason); KernelError BAD_INPUT
 * (settings out of range) or ABORTED.
 */
export async function generateBase(model: MeshRef, bvh: Bvh, outline: readonly OutlinePoint[], options: BaseOptions = {}): Promise<BaseMesh> {
  if (model.k !== bvh.k || model.triangleCount !== bvh.triangleCount) throw new KernelError('BAD_INPUT', 'the BVH was not built for this mesh');
  if (options.straightened === false) fail('NOT_STRAIGHTENED', 'the model must be straightened before a base is made');
  const thickness = options.thickness ?? 2;
  const height = options.height ?? thickness;
  const step = options.resolution ?? 0.25;
  checkNumber('thickness', thickness, 0.1, 20);
  checkNumber('resolution', step, 0.05, 2);
  const relief = options.relief ?? 0;
  checkNumber('relief', relief, 0, 1);
  if (!Number.isFinite(height) || height < MIN_BASE_HEIGHT) fail('HEIGHT_TOO_LOW', `the height must be at least ${MIN_BASE_HEIGHT} mm (got ${height})`);
  if (height > 50) throw new KernelError('BAD_INPUT', `height must be at most 50 mm (got ${height})`);
  if (outline.length < MIN_OUTLINE_POINTS) fail('TOO_FEW_POINTS', `${outline.length} outline points; at least ${MIN_OUTLINE_POINTS} are needed`);
  const d = unit(options.direction ?? (options.jaw === 'upper' ? [0, 0, -1] : [0, 0, 1]), 'the insertion direction');
  const [u, w] = planeFrame(d);

  // ---- the outline: on the model, then a simple polygon in the plane
  const tolerance = options.surfaceTolerance ?? Math.max(0.5, 2 * step);
  const pts = new Float32Array(outline.length * 3);
  outline.forEach((p, i) => {
    if (!p || !p.point || !p.point.every(Number.isFinite)) throw new KernelError('BAD_INPUT', `outline point ${i} has no finite position`);
    pts.set(p.point, i * 3);
  });
  const near = closestPoints(bvh, pts, { maxDistance: tolerance });
  for (let i = 0; i < outline.length; i++) {
    if (!(near.distance[i]! <= tolerance)) fail('SPLIT_FAILED', `outline point ${i} is not on the model (more than ${tolerance} mm away)`);
  }
  const px: number[] = [];
  const py: number[] = [];
  for (const p of outline) {
    const x = dot(p.point, u), y = dot(p.point, w);
    const n = px.length;
    if (n > 0 && Math.hypot(x - px[n - 1]!, y - py[n - 1]!) < 1e-4) continue;
    px.push(x);
    py.push(y);
  }
  while (px.length > 1 && Math.hypot(px[0]! - px[px.length - 1]!, py[0]! - py[py.length - 1]!) < 1e-4) {
    px.pop();
    py.pop();
  }
  if (px.length < MIN_OUTLINE_POINTS) fail('TOO_FEW_POINTS', `${px.length} distinct outline points seen along the insertion direction; at least ${MIN_OUTLINE_POINTS} are needed`);
  let xs = Float64Array.from(px), ys = Float64Array.from(py);
  const problem = polygonProblem(xs, ys, Math.max(0.5, 4 * step * step));
  if (problem) fail('SPLIT_FAILED', problem);
  let area = 0;
  for (let i = 0, j = xs.length - 1; i < xs.length; j = i++) area += xs[j]! * ys[i]! - xs[i]! * ys[j]!;
  if (area < 0) {
    xs = xs.reverse();
    ys = ys.reverse();
  }
  const projectedArea = Math.abs(area) / 2;

  // ---- grid and 2D triangulation
  const grid = makeGrid(xs, ys, step);
  const { fx, fy, x0, y0, fineInside } = grid;
  if (fx * fy > MAX_FINE_NODES) fail('GENERATION_FAILED', `the outline is too large for a ${step} mm grid (${fx} × ${fy} samples)`);
  const domain = triangulateDomain(xs, ys, grid);
  if (domain.triangles.length === 0) fail('SPLIT_FAILED', `the outline is too narrow for a ${step} mm grid`);
  if (options.shouldCancel?.()) throw new KernelError('ABORTED');

  // ---- rays from the appliance side: inside fine nodes, then the rim's crossings
  const half = step / 2;
  const bounds = bvhBounds(bvh);
  if (!bounds) fail('SPLIT_FAILED', 'the model has no triangles');
  let top = -Infinity;
  for (let c = 0; c < 8; c++) {
    const corner: Vec3 = [c & 1 ? bounds!.max[0] : bounds!.min[0], c & 2 ? bounds!.max[1] : bounds!.min[1], c & 4 ? bounds!.max[2] : bounds!.min[2]];
    top = Math.max(top, dot(corner, d));
  }
  top += 1;
  const fineIds: number[] = [];
  for (let f = 0; f < fineInside.length; f++) if (fineInside[f]) fineIds.push(f);
  const rim: number[] = [];
  for (let v = 0; v < domain.vertexCount; v++) if (domain.kind[v] !== VertexKind.Node) rim.push(v);
  const rayCount = fineIds.length + rim.length;
  const originOf = (x: number, y: number, out: Float32Array, o: number): void => {
    out[o] = u[0] * x + w[0] * y + d[0] * top;
    out[o + 1] = u[1] * x + w[1] * y + d[1] * top;
    out[o + 2] = u[2] * x + w[2] * y + d[2] * top;
    out[o + 3] = -d[0];
    out[o + 4] = -d[1];
    out[o + 5] = -d[2];
  };
  const level = new Float64Array(rayCount).fill(Number.NaN); // s of the first hit
  const progress = options.onProgress;
  await runChunked(
    rayCount,
    16384,
    (start, end) => {
      const rays = new Float32Array((end - start) * 6);
      for (let r = start; r < end; r++) {
        if (r < fineIds.length) {
          const f = fineIds[r]!;
          originOf(x0 + (f % fx) * half, y0 + Math.floor(f / fx) * half, rays, (r - start) * 6);
        } else {
          const v = rim[r - fineIds.length]!;
          originOf(domain.xy[2 * v]!, domain.xy[2 * v + 1]!, rays, (r - start) * 6);
        }
      }
      const hits = raycastFirst(bvh, rays);
      for (let r = start; r < end; r++) {
        const t = hits.t[r - start]!;
        if (Number.isFinite(t)) level[r] = top - t;
      }
    },
    { ...options, onProgress: progress ? (f) => progress(0.6 * f) : undefined },
  );

  // Fine field: NaN outside the outline.
  const raw = new Float64Array(fx * fy).fill(Number.NaN);
  let missed = 0;
  fineIds.forEach((f, r) => {
    raw[f] = level[r]!;
    if (Number.isNaN(level[r]!)) missed++;
  });
  const rimLevel = new Float64Array(domain.vertexCount).fill(Number.NaN);
  rim.forEach((v, r) => {
    rimLevel[v] = level[fineIds.length + r]!;
    if (Number.isNaN(rimLevel[v]!)) missed++;
  });
  if (missed === rayCount) fail('SPLIT_FAILED', 'the outline encloses no surface of the model');
  if (missed > MAX_MISSING * rayCount) {
    fail('GENERATION_FAILED', `${Math.round((100 * missed) / rayCount)} % of the outlined area has no model surface under it (a hole, or beyond the model's edge)`);
  }
  if (missed > 0) fillMissing(raw, fineInside, fx, fy);
  if (relief > 0) {
    for (let f = 0; f < raw.length; f++) raw[f] = raw[f]! + relief;
    for (let v = 0; v < rimLevel.length; v++) rimLevel[v] = rimLevel[v]! + relief;
  }

  // ---- inner levels: the samples themselves, raised where a triangle would dip under a sample
  const V = domain.vertexCount;
  const inner = new Float64Array(V);
  const own = new Float64Array(V); // each vertex's own sample (for maxBlockout)
  for (let v = 0; v < V; v++) {
    const i = domain.gi[v]!, j = domain.gj[v]!;
    let s: number;
    if (domain.kind[v] === VertexKind.Node) s = raw[2 * j * fx + 2 * i]!;
    else s = rimLevel[v]!;
    // A rim crossing whose ray found nothing: the highest sample of the two cells beside its edge.
    if (Number.isNaN(s) && domain.kind[v] === VertexKind.HorizontalEdge) s = maxOver(raw, fx, fy, 2 * i, 2 * i + 2, 2 * j - 2, 2 * j + 2);
    if (Number.isNaN(s) && domain.kind[v] === VertexKind.VerticalEdge) s = maxOver(raw, fx, fy, 2 * i - 2, 2 * i + 2, 2 * j, 2 * j + 2);
    if (Number.isNaN(s)) fail('GENERATION_FAILED', 'part of the outlined area has no model surface under it or near it');
    inner[v] = own[v] = s;
  }
  const surface = liftOverSamples(domain, inner, own, raw, grid, step);
  let maxBlockout = 0;
  for (let v = 0; v < V; v++) maxBlockout = Math.max(maxBlockout, inner[v]! - own[v]!);
  // ---- outer levels: envelope of balls of radius `thickness` on the inner surface, and `height` above it
  const outer = new Float64Array(V);
  const envelope = ballEnvelope(surface, grid, thickness);
  await runChunked(
    V,
    1024,
    (start, end) => {
      for (let v = start; v < end; v++) {
        const best = envelope(domain.xy[2 * v]!, domain.xy[2 * v + 1]!, inner[v]! + thickness);
        outer[v] = Math.max(best, inner[v]! + height);
      }
    },
    { ...options, onProgress: progress ? (f) => progress(0.6 + 0.35 * f) : undefined },
  );
  smoothUpwards(domain, outer, OUTER_SMOOTHING);

  const mesh = assemble(domain, inner, outer, u, w, d);
  progress?.(1);
  return {
    ...mesh,
    projectedArea,
    direction: d,
    thickness,
    height,
    resolution: step,
    rays: rayCount,
    missedRays: missed,
    maxBlockout,
  };
}

/** Rounds of smoothing of the outer surface. */
const OUTER_SMOOTHING = 4;

/**
 * Smooths levels without lowering any: each round a vertex takes the mean of
 * its neighbours when that is higher. The notches of the outer surface over a
 * stepped inner surface (a cliff's flat-topped triangles follow the grid) fill
 * in, its crests stay, so the thickness never drops below the envelope's.
 */
function smoothUpwards(domain: Domain2D, level: Float64Array, rounds: number): void {
  const tris = domain.triangles;
  const sum = new Float64Array(level.length);
  const count = new Uint16Array(level.length);
  for (let r = 0; r < rounds; r++) {
    sum.fill(0);
    count.fill(0);
    for (let t = 0; t < tris.length; t += 3) {
      for (let e = 0; e < 3; e++) {
        const a = tris[t + e]!, b = tris[t + ((e + 1) % 3)]!;
        sum[a] = sum[a]! + level[b]!;
        sum[b] = sum[b]! + level[a]!;
        count[a] = count[a]! + 1;
        count[b] = count[b]! + 1;
      }
    }
    for (let v = 0; v < level.length; v++) {
      if (domain.kind[v] !== VertexKind.Node) continue; // the rim sees one side only: it would creep up the slope
      const mean = sum[v]! / count[v]!;
      if (mean > level[v]!) level[v] = mean;
    }
  }
}

/** Fine samples per side of a block of the envelope's pruning grid. */
const BLOCK = 8;

/**
 * The envelope of balls of radius r on the field's samples: for a point
 * (x, y), max over samples q within r of level(q) + sqrt(r² - |q - xy|²).
 * Blocks of 8 × 8 samples keep their highest level, so a block that cannot
 * beat the best so far (its maximum plus the ball's height at the block's
 * nearest point) is skipped: on a smooth surface most are.
 */
function ballEnvelope(field: Float64Array, g: BaseGrid, r: number): (x: number, y: number, start: number) => number {
  const { fx, fy, x0, y0 } = g;
  const half = g.step / 2;
  const bx = Math.ceil(fx / BLOCK), by = Math.ceil(fy / BLOCK);
  const blockMax = new Float64Array(bx * by).fill(-Infinity);
  for (let J = 0; J < fy; J++) {
    for (let I = 0; I < fx; I++) {
      const s = field[J * fx + I]!;
      const b = Math.floor(J / BLOCK) * bx + Math.floor(I / BLOCK);
      if (s > blockMax[b]!) blockMax[b] = s;
    }
  }
  const r2 = r * r;
  return (x, y, start) => {
    let best = start;
    const bi0 = Math.max(0, Math.floor((x - r - x0) / half / BLOCK)), bi1 = Math.min(bx - 1, Math.floor((x + r - x0) / half / BLOCK));
    const bj0 = Math.max(0, Math.floor((y - r - y0) / half / BLOCK)), bj1 = Math.min(by - 1, Math.floor((y + r - y0) / half / BLOCK));
    for (let bj = bj0; bj <= bj1; bj++) {
      const J0 = bj * BLOCK, J1 = Math.min(fy - 1, J0 + BLOCK - 1);
      const ny = Math.max(0, y0 + J0 * half - y, y - (y0 + J1 * half));
      for (let bi = bi0; bi <= bi1; bi++) {
        const top = blockMax[bj * bx + bi]!;
        if (top === -Infinity) continue;
        const I0 = bi * BLOCK, I1 = Math.min(fx - 1, I0 + BLOCK - 1);
        const nx = Math.max(0, x0 + I0 * half - x, x - (x0 + I1 * half));
        const near = r2 - nx * nx - ny * ny;
        if (near <= 0 || top + Math.sqrt(near) <= best) continue;
        for (let J = J0; J <= J1; J++) {
          const dy = y0 + J * half - y;
          const row = r2 - dy * dy;
          if (row <= 0) continue;
          for (let I = I0; I <= I1; I++) {
            const s = field[J * fx + I]!;
            if (!(s + r > best)) continue; // NaN (no sample) or too low to matter
            const dx = x0 + I * half - x;
            const q = row - dx * dx;
            if (q <= 0) continue;
            const c = s + Math.sqrt(q);
            if (c > best) best = c;
          }
        }
      }
    }
    return best;
  };
}

/** Highest non-NaN value of the fine field in the index box (clipped to the grid); NaN when none. */
function maxOver(field: Float64Array, fx: number, fy: number, i0: number, i1: number, j0: number, j1: number): number {
  let m = Number.NaN;
  for (let J = Math.max(0, j0); J <= Math.min(fy - 1, j1); J++) {
    for (let I = Math.max(0, i0); I <= Math.min(fx - 1, i1); I++) {
      const s = field[J * fx + I]!;
      if (s > m || Number.isNaN(m)) m = Number.isNaN(s) ? m : s;
    }
  }
  return m;
}

export interface OutlinePathOptions {
  direction?: Vec3;
  jaw?: 'lower' | 'upper';
  /** Largest distance between path points in the plane, mm. Default 0.25. */
  spacing?: number;
}

/**
 * The outline as generateBase sees it, for drawing: consecutive points joined
 * by straight segments in the plane perpendicular to d, sampled every
 * `spacing` and projected onto the model along d (the first surface from the
 * appliance side). Closed loop, xyz per point (the first not repeated);
 * samples over a gap in the model are left out.
 */
export function outlinePath(bvh: Bvh, outline: readonly OutlinePoint[], options: OutlinePathOptions = {}): Float32Array<ArrayBuffer> {
  const d = unit(options.direction ?? (options.jaw === 'upper' ? [0, 0, -1] : [0, 0, 1]), 'the insertion direction');
  const spacing = options.spacing ?? 0.25;
  checkNumber('spacing', spacing, 0.01, 10);
  const bounds = bvhBounds(bvh);
  if (!bounds || outline.length < 2) return new Float32Array(0);
  let top = -Infinity;
  for (let c = 0; c < 8; c++) {
    const corner: Vec3 = [c & 1 ? bounds.max[0] : bounds.min[0], c & 2 ? bounds.max[1] : bounds.min[1], c & 4 ? bounds.max[2] : bounds.min[2]];
    top = Math.max(top, dot(corner, d));
  }
  top += 1;
  const rays: number[] = [];
  for (let i = 0; i < outline.length; i++) {
    const p = outline[i]!.point, q = outline[(i + 1) % outline.length]!.point;
    // Only the in-plane part of the segment counts: its length along d is the model's business.
    const pp = [p[0] - d[0] * dot(p, d), p[1] - d[1] * dot(p, d), p[2] - d[2] * dot(p, d)];
    const qq = [q[0] - d[0] * dot(q, d), q[1] - d[1] * dot(q, d), q[2] - d[2] * dot(q, d)];
    const n = Math.max(1, Math.ceil(Math.hypot(qq[0]! - pp[0]!, qq[1]! - pp[1]!, qq[2]! - pp[2]!) / spacing));
    for (let s = 0; s < n; s++) {
      const f = s / n;
      for (let a = 0; a < 3; a++) rays.push(pp[a]! + (qq[a]! - pp[a]!) * f + d[a]! * top);
      rays.push(-d[0], -d[1], -d[2]);
    }
  }
  const r = new Float32Array(rays);
  const hits = raycastFirst(bvh, r);
  const out: number[] = [];
  for (let i = 0; i < hits.t.length; i++) {
    const t = hits.t[i]!;
    if (!Number.isFinite(t)) continue;
    out.push(r[i * 6]! + r[i * 6 + 3]! * t, r[i * 6 + 1]! + r[i * 6 + 4]! * t, r[i * 6 + 2]! + r[i * 6 + 5]! * t);
  }
  return new Float32Array(out);
}

/** Triangles whose samples spread more than this many cell widths are cliffs (an undercut's silhouette). */
const CLIFF = 2;

/**
 * Raises inner levels so that no triangle passes under a sample inside it;
 * returns the inner surface's level at every sample inside a triangle (NaN elsewhere).
 * Cliffs (the drop at an undercut's silhouette, or a wall between samples)
 * lift the whole triangle to its highest sample: the drop may lie anywhere
 * between two samples, and a flat top cannot cut into it. Elsewhere a
 * triangle that passes under a sample (a convex bump) rises by the difference
 * (its sagitta: micrometres), so a smooth surface is followed closely instead
 * of being lifted by its slope times a cell. Raising only ever lifts
 * neighbouring triangles too, so one pass of each suffices.
 */
function liftOverSamples(domain: Domain2D, level: Float64Array, own: Float64Array, raw: Float64Array, g: BaseGrid, step: number): Float64Array {
  const { fx, fy, x0, y0 } = g;
  const half = step / 2;
  const tris = domain.triangles;
  const xy = domain.xy;
  const eps = 1e-9;
  // Visits the samples inside triangle t: (sample level, barycentric weights of a, b, c).
  const samples = (t: number, visit: (s: number, la: number, lb: number, lc: number, f: number) => void): void => {
    const a = tris[t]!, b = tris[t + 1]!, c = tris[t + 2]!;
    const ax = xy[2 * a]!, ay = xy[2 * a + 1]!, bx = xy[2 * b]!, by = xy[2 * b + 1]!, cx = xy[2 * c]!, cy = xy[2 * c + 1]!;
    const det = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    if (!(det > 0)) return;
    const i0 = Math.max(0, Math.ceil((Math.min(ax, bx, cx) - x0) / half - eps)), i1 = Math.min(fx - 1, Math.floor((Math.max(ax, bx, cx) - x0) / half + eps));
    const j0 = Math.max(0, Math.ceil((Math.min(ay, by, cy) - y0) / half - eps)), j1 = Math.min(fy - 1, Math.floor((Math.max(ay, by, cy) - y0) / half + eps));
    for (let J = j0; J <= j1; J++) {
      const py = y0 + J * half;
      for (let I = i0; I <= i1; I++) {
        const s = raw[J * fx + I]!;
        if (Number.isNaN(s)) continue;
        const px = x0 + I * half;
        const lb = ((px - ax) * (cy - ay) - (py - ay) * (cx - ax)) / det;
        const lc = ((bx - ax) * (py - ay) - (by - ay) * (px - ax)) / det;
        const la = 1 - lb - lc;
        if (la < -eps || lb < -eps || lc < -eps) continue;
        visit(s, la, lb, lc, J * fx + I);
      }
    }
  };
  // Cliffs first, judged on the samples alone (judged on raised levels, a lift would spread to every neighbour).
  for (let t = 0; t < tris.length; t += 3) {
    const a = tris[t]!, b = tris[t + 1]!, c = tris[t + 2]!;
    let lo = Math.min(own[a]!, own[b]!, own[c]!), hi = Math.max(own[a]!, own[b]!, own[c]!);
    samples(t, (s) => {
      if (s < lo) lo = s;
      if (s > hi) hi = s;
    });
    if (hi - lo > CLIFF * step) {
      for (const v of [a, b, c]) if (level[v]! < hi) level[v] = hi;
    }
  }
  // Then a triangle that passes under a sample rises by the difference (a few micrometres over a convex bump).
  for (let t = 0; t < tris.length; t += 3) {
    const a = tris[t]!, b = tris[t + 1]!, c = tris[t + 2]!;
    samples(t, (s, la, lb, lc) => {
      const under = s - (la * level[a]! + lb * level[b]! + lc * level[c]!);
      if (under > 0) {
        level[a] = level[a]! + under;
        level[b] = level[b]! + under;
        level[c] = level[c]! + under;
      }
    });
  }
  // The inner surface at the samples (the outer surface is offset from it, not from the samples).
  const surface = new Float64Array(raw.length).fill(Number.NaN);
  for (let t = 0; t < tris.length; t += 3) {
    const a = tris[t]!, b = tris[t + 1]!, c = tris[t + 2]!;
    samples(t, (s, la, lb, lc, f) => {
      const here = la * level[a]! + lb * level[b]! + lc * level[c]!;
      if (!(surface[f]! >= here)) surface[f] = Math.max(here, s);
    });
  }
  return surface;
}

/** Inside samples whose ray found nothing (holes in a scan) take the mean of their found neighbours, growing inwards. */
function fillMissing(field: Float64Array, inside: Uint8Array, fx: number, fy: number): void {
  let todo: number[] = [];
  for (let f = 0; f < field.length; f++) if (inside[f] && Number.isNaN(field[f]!)) todo.push(f);
  while (todo.length > 0) {
    const next: number[] = [];
    const found: [number, number][] = [];
    for (const f of todo) {
      const I = f % fx, J = Math.floor(f / fx);
      let sum = 0, n = 0;
      for (const [a, b] of [[I - 1, J], [I + 1, J], [I, J - 1], [I, J + 1]] as const) {
        if (a < 0 || b < 0 || a >= fx || b >= fy) continue;
        const s = field[b * fx + a]!;
        if (!Number.isNaN(s)) {
          sum += s;
          n++;
        }
      }
      if (n > 0) found.push([f, sum / n]);
      else next.push(f);
    }
    if (found.length === 0) return; // an island of misses without neighbours: stays NaN, its vertices fail
    for (const [f, s] of found) field[f] = s;
    todo = next;
  }
}

/** Inner surface (reversed), outer surface, wall along the rim; positions in model coordinates. */
function assemble(domain: Domain2D, inner: Float64Array, outer: Float64Array, u: Vec3, w: Vec3, d: Vec3) {
  const V = domain.vertexCount;
  const positions = new Float32Array(V * 6);
  for (let v = 0; v < V; v++) {
    const x = domain.xy[2 * v]!, y = domain.xy[2 * v + 1]!;
    for (let a = 0; a < 3; a++) {
      const p = u[a]! * x + w[a]! * y;
      positions[v * 3 + a] = p + d[a]! * inner[v]!;
      positions[(V + v) * 3 + a] = p + d[a]! * outer[v]!;
    }
  }
  const tris = domain.triangles;
  const rim = boundaryEdges(tris, V);
  const T2 = tris.length / 3;
  const indices = new Uint32Array((2 * T2 + rim.length) * 3);
  let o = 0;
  for (let t = 0; t < tris.length; t += 3) {
    indices[o++] = tris[t]!;
    indices[o++] = tris[t + 2]!;
    indices[o++] = tris[t + 1]!;
  }
  for (let t = 0; t < tris.length; t++) indices[o++] = tris[t]! + V;
  for (let e = 0; e < rim.length; e += 2) {
    const a = rim[e]!, b = rim[e + 1]!;
    indices.set([a, b, b + V, a, b + V, a + V], o);
    o += 6;
  }
  const normals = new Float32Array(positions.length);
  let volume = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3, b = indices[t + 1]! * 3, c = indices[t + 2]! * 3;
    const ax = positions[a]!, ay = positions[a + 1]!, az = positions[a + 2]!;
    const e1x = positions[b]! - ax, e1y = positions[b + 1]! - ay, e1z = positions[b + 2]! - az;
    const e2x = positions[c]! - ax, e2y = positions[c + 1]! - ay, e2z = positions[c + 2]! - az;
    const nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
    volume += (ax * nx + ay * ny + az * nz) / 6;
    if (t >= 6 * T2) continue; // wall: a rim vertex shades with its surface, not half-way round the edge
    for (const i of [a, b, c]) {
      normals[i] = normals[i]! + nx;
      normals[i + 1] = normals[i + 1]! + ny;
      normals[i + 2] = normals[i + 2]! + nz;
    }
  }
  for (let i = 0; i < normals.length; i += 3) {
    const l = Math.hypot(normals[i]!, normals[i + 1]!, normals[i + 2]!) || 1;
    normals[i] = normals[i]! / l;
    normals[i + 1] = normals[i + 1]! / l;
    normals[i + 2] = normals[i + 2]! / l;
  }
  return {
    positions,
    normals,
    indices,
    vertexCount: 2 * V,
    triangleCount: indices.length / 3,
    innerVertexCount: V,
    rimEdges: rim.length / 2,
    volume,
  };
}
