// Slotting: cut the channel for a wire's tag (the part of a labial bow or a
// clasp that is anchored in the acrylic) into a generated base, with
// manifold-3d's exact booleans.
//
// The slot solid is a swept ball: for every segment of the tag's centreline,
// the convex hull of two balls of radius diameter / 2 + clearance at its ends
// (a capsule), all unioned. With `depth` > 0 each hull also takes the balls
// moved `depth` mm along `openDirection`, so the slot becomes a channel open
// towards that side (the wire is pressed in from there instead of threaded).
// The base minus that solid is the result. Pure: the input base is not
// changed, so undo/reset is keeping the previous arrays (the editor's job).
//
// Runs in Node (tests) and in workers/slot.worker.ts. manifold's booleans are
// one synchronous wasm call each: cancellation is checked between stages and
// between chunks of segments, not inside the union or the difference.

import type { Manifold, ManifoldToplevel, Vec3 } from 'manifold-3d';
import { segmentDistance } from '../../common/pose.ts';
import { KernelError, runChunked, type JobOptions } from './job.ts';
import { SLOT_MESSAGES, SLOTTABLE_WIRE_TYPES, type SlotErrorCode, type WireType } from './slot-messages.ts';

export { SLOT_MESSAGES, SLOTTABLE_WIRE_TYPES, type SlotErrorCode, type WireType } from './slot-messages.ts';

/** Why this base or wire cannot be slotted (the user's to fix). `detail` is English for logs. */
export class SlotError extends Error {
  override name = 'SlotError';
  constructor(
    readonly code: SlotErrorCode,
    readonly detail: string = SLOT_MESSAGES[code],
  ) {
    super(`${code}: ${detail}`);
  }
}

export interface SlotBase {
  positions: Float32Array;
  indices: Uint32Array;
}

export interface SlotWire {
  type: WireType | string;
  /** Centreline of the tag part in mm: x, y, z per point, at least 2 points. */
  path: Float32Array;
  /** Wire diameter in mm (0.1 .. 5). */
  diameter: number;
  /** Added to the radius all round, mm (0 .. 1). Default DEFAULT_CLEARANCE. */
  clearance?: number;
  /** 0 (default): a closed tube around the path. > 0: the tube swept this far (mm, up to 20) along openDirection. */
  depth?: number;
  /** Where an open channel opens (unit or not; normalised). Default +z (the lower jaw's insertion direction). */
  openDirection?: Vec3;
}

export interface SlotResult {
  positions: Float32Array;
  indices: Uint32Array;
  /** Area-weighted vertex normals of the result (welded: the slot's edges shade soft). */
  normals: Float32Array;
  /** mm³, of the base as given and after the cut. */
  volumeBefore: number;
  volumeAfter: number;
  vertexCount: number;
  triangleCount: number;
}

export const DEFAULT_CLEARANCE = 0.1;
/** Segments of the balls' great circles: the tube's cross-section is a polygon of this many sides. */
const SLOT_SEGMENTS = 24;
/** Components of less volume than this (mm³) are shards a boolean leaves where a cut grazes a rim, not pieces. */
const SHARD = 0.01;
const SEGMENTS_PER_CHUNK = 16;
/** The swept path may leave the given one by this fraction of the slot's radius (0.5 mm: 10 µm). */
const PATH_TOLERANCE = 0.02;

let loading: Promise<ManifoldToplevel> | undefined;

/**
 * manifold-3d's module, instantiated once per thread. `wasmUrl` tells a browser
 * bundle where manifold.wasm is (Node finds it beside manifold.js).
 */
export function loadManifold(wasmUrl?: string): Promise<ManifoldToplevel> {
  loading ??= (async () => {
    const factory = (await import('manifold-3d')).default;
    const wasm = await factory(wasmUrl ? { locateFile: () => wasmUrl } : undefined);
    wasm.setup();
    return wasm;
  })().catch((e: unknown) => {
    loading = undefined; // a later call may try again
    throw new KernelError('KERNEL_FAILED', `manifold.wasm did not load: ${e instanceof Error ? e.message : String(e)}`);
  });
  return loading;
}

function finite(v: number): boolean {
  return Number.isFinite(v);
}

/** The path's points with repeats (closer than 1 µm) dropped. */
function pathPoints(path: Float32Array): Vec3[] {
  if (!(path instanceof Float32Array) || path.length % 3 !== 0) throw new KernelError('BAD_INPUT', 'the path must be a Float32Array of x, y, z triples');
  const points: Vec3[] = [];
  for (let i = 0; i < path.length; i += 3) {
    const p: Vec3 = [path[i]!, path[i + 1]!, path[i + 2]!];
    if (!p.every(finite)) throw new KernelError('BAD_INPUT', `path point ${i / 3} is not finite`);
    const last = points.at(-1);
    if (last && Math.hypot(p[0] - last[0], p[1] - last[1], p[2] - last[2]) < 1e-3) continue;
    points.push(p);
  }
  if (points.length < 2) throw new KernelError('BAD_INPUT', 'the path needs at least 2 distinct points');
  return points;
}

/** Distance from p to the segment ab (the path's simplification; its tests measure with it). */
export { segmentDistance };

/**
 * The path with the points that lie within `tolerance` of the simplified
 * polyline dropped (Douglas-Peucker; the ends stay). An editor path sampled
 * every 0.25 mm has many nearly collinear points, and the union of many
 * overlapping capsules is what costs (64 capsules: 250 ms, most of a cut).
 */
export function simplifyPath(points: readonly Vec3[], tolerance: number): Vec3[] {
  if (points.length <= 2) return [...points];
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack: [number, number][] = [[0, points.length - 1]];
  while (stack.length > 0) {
    const [i, j] = stack.pop()!;
    let worst = -1;
    let at = -1;
    for (let m = i + 1; m < j; m++) {
      const d = segmentDistance(points[m]!, points[i]!, points[j]!);
      if (d > worst) {
        worst = d;
        at = m;
      }
    }
    if (at >= 0 && worst > tolerance) {
      keep[at] = 1;
      stack.push([i, at], [at, j]);
    }
  }
  return points.filter((_, i) => keep[i] === 1);
}

function checkNumber(name: string, v: number, min: number, max: number): number {
  if (!finite(v) || v < min || v > max) throw new KernelError('BAD_INPUT', `${name} must be within ${min}..${max} mm (got ${v})`);
  return v;
}

/** Validates the call; throws SlotError / KernelError('BAD_INPUT'). */
function checkInput(base: SlotBase | null | undefined, wire: SlotWire): { points: Vec3[]; radius: number; depth: number; open: Vec3 } {
  if (!base || !base.positions || !base.indices || base.positions.length < 9 || base.indices.length < 3) throw new SlotError('NO_BASE');
  if (!SLOTTABLE_WIRE_TYPES.includes(wire.type as WireType)) throw new SlotError('SLOT_WIRE_TYPE', `${SLOT_MESSAGES.SLOT_WIRE_TYPE} (got ${String(wire.type)})`);
  const points = pathPoints(wire.path);
  const diameter = checkNumber('the diameter', wire.diameter, 0.1, 5);
  const clearance = checkNumber('the clearance', wire.clearance ?? DEFAULT_CLEARANCE, 0, 1);
  const depth = checkNumber('the depth', wire.depth ?? 0, 0, 20);
  const d = wire.openDirection ?? [0, 0, 1];
  const len = Math.hypot(d[0], d[1], d[2]);
  if (!(len > 1e-9) || !d.every(finite)) throw new KernelError('BAD_INPUT', 'openDirection must be a non-zero vector');
  const radius = diameter / 2 + clearance;
  return { points: simplifyPath(points, radius * PATH_TOLERANCE), radius, depth, open: [d[0] / len, d[1] / len, d[2] / len] };
}

/** Shells of a manifold: solids (positive volume) and voids (sealed cavities: negative volume), shards not counted. */
function shells(m: Manifold): { solids: number; voids: number; shards: number } {
  const pieces = m.decompose();
  let solids = 0;
  let voids = 0;
  let shards = 0;
  for (const p of pieces) {
    const v = p.volume();
    if (Math.abs(v) < SHARD) shards++;
    else if (v < 0) voids++;
    else solids++;
    p.delete();
  }
  return { solids, voids, shards };
}

/** The manifold without its shards (a new one; the same where it has none). */
function withoutShards(wasm: ManifoldToplevel, m: Manifold): Manifold {
  const pieces = m.decompose();
  const kept = pieces.filter((p) => Math.abs(p.volume()) >= SHARD);
  const out = kept.length === pieces.length ? m : wasm.Manifold.compose(kept);
  for (const p of pieces) p.delete();
  return out;
}

/** Vertex normals: sum of the faces' area-weighted normals, normalised. */
export function vertexNormals(positions: Float32Array, indices: Uint32Array): Float32Array {
  const n = new Float32Array(positions.length);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3, b = indices[t + 1]! * 3, c = indices[t + 2]! * 3;
    const ux = positions[b]! - positions[a]!, uy = positions[b + 1]! - positions[a + 1]!, uz = positions[b + 2]! - positions[a + 2]!;
    const vx = positions[c]! - positions[a]!, vy = positions[c + 1]! - positions[a + 1]!, vz = positions[c + 2]! - positions[a + 2]!;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    for (const v of [a, b, c]) {
      n[v] = n[v]! + nx;
      n[v + 1] = n[v + 1]! + ny;
      n[v + 2] = n[v + 2]! + nz;
    }
  }
  for (let i = 0; i < n.length; i += 3) {
    const l = Math.hypot(n[i]!, n[i + 1]!, n[i + 2]!) || 1;
    n[i] = n[i]! / l;
    n[i + 1] = n[i + 1]! / l;
    n[i + 2] = n[i + 2]! / l;
  }
  return n;
}

/**
 * The base minus the slot for the wire's tag. Throws SlotError (NO_BASE,
 * SLOT_WIRE_TYPE, SLOT_BASE_NOT_MANIFOLD, SLOTTING_FAILED) or KernelError
 * (BAD_INPUT, ABORTED). Progress: base 10 %, slot solid to 60 %, union 75 %,
 * difference 95 %, then 1.
 */
export async function cutSlot(wasm: ManifoldToplevel, base: SlotBase | null | undefined, wire: SlotWire, options: JobOptions = {}): Promise<SlotResult> {
  const { points, radius, depth, open } = checkInput(base, wire);
  const { shouldCancel, onProgress } = options;
  const yieldNow = options.yieldToEventLoop ?? ((): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0)));
  const stage = async (fraction: number): Promise<void> => {
    onProgress?.(fraction);
    await yieldNow();
    if (shouldCancel?.()) throw new KernelError('ABORTED');
  };
  if (shouldCancel?.()) throw new KernelError('ABORTED');

  const { Manifold, Mesh } = wasm;
  const owned: { delete(): void }[] = [];
  const keep = <T extends { delete(): void }>(m: T): T => {
    owned.push(m);
    return m;
  };
  try {
    // 1. The base as a manifold: closed, oriented, no self-touching edges.
    let solid: Manifold;
    try {
      const mesh = new Mesh({ numProp: 3, vertProperties: base!.positions, triVerts: base!.indices });
      mesh.merge(); // weld coincident vertices (an unwelded copy of a closed mesh is still closed)
      solid = keep(new Manifold(mesh));
    } catch (e) {
      throw new SlotError('SLOT_BASE_NOT_MANIFOLD', `the base is not a closed, oriented 2-manifold: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (solid.status() !== 'NoError' || solid.isEmpty()) throw new SlotError('SLOT_BASE_NOT_MANIFOLD', `the base is not a closed, oriented 2-manifold (${solid.status()})`);
    const volumeBefore = solid.volume();
    const componentsBefore = shells(solid).solids;
    await stage(0.1);

    // 2. The slot solid: one hull of balls per segment.
    const ball = keep(Manifold.sphere(radius, SLOT_SEGMENTS));
    const lift: Vec3 = [open[0] * depth, open[1] * depth, open[2] * depth];
    const hulls: Manifold[] = [];
    const segments = points.length - 1;
    await runChunked(
      segments,
      SEGMENTS_PER_CHUNK,
      (start, end) => {
        for (let s = start; s < end; s++) {
          const a = points[s]!, b = points[s + 1]!;
          const parts = [keep(ball.translate(a)), keep(ball.translate(b))];
          if (depth > 0) parts.push(keep(ball.translate([a[0] + lift[0], a[1] + lift[1], a[2] + lift[2]])), keep(ball.translate([b[0] + lift[0], b[1] + lift[1], b[2] + lift[2]])));
          hulls.push(keep(Manifold.hull(parts)));
        }
      },
      { shouldCancel, yieldToEventLoop: options.yieldToEventLoop, onProgress: onProgress ? (f) => onProgress(0.1 + 0.5 * f) : undefined },
    );
    const slot = keep(hulls.length === 1 ? hulls[0]!.translate([0, 0, 0]) : Manifold.union(hulls));
    if (slot.status() !== 'NoError') throw new SlotError('SLOTTING_FAILED', `the slot solid could not be built (${slot.status()})`);
    await stage(0.75);

    // 3. The difference, checked.
    const cut = keep(solid.subtract(slot));
    const status = cut.status();
    if (status !== 'NoError' || cut.isEmpty()) throw new SlotError('SLOTTING_FAILED', `the difference failed (${status}${cut.isEmpty() ? ', empty' : ''})`);
    const after = shells(cut);
    const result = after.shards > 0 ? keep(withoutShards(wasm, cut)) : cut;
    if (result.isEmpty()) throw new SlotError('SLOTTING_FAILED', 'the difference failed (empty)');
    const volumeAfter = result.volume();
    if (!(volumeAfter < volumeBefore - 1e-6 * Math.max(1, volumeBefore))) throw new SlotError('SLOTTING_FAILED', 'the wire path does not meet the base: nothing was cut');
    if (after.solids > componentsBefore) throw new SlotError('SLOTTING_FAILED', `the slot cuts the base into ${after.solids} pieces`);
    if (after.voids > 0) throw new SlotError('SLOTTING_FAILED', 'the slot is sealed inside the base: the path must leave the base, or give the slot a depth');
    await stage(0.95);

    const out = result.getMesh();
    let positions: Float32Array;
    if (out.numProp === 3) positions = out.vertProperties.slice();
    else {
      const count = out.vertProperties.length / out.numProp;
      positions = new Float32Array(count * 3);
      for (let v = 0; v < count; v++) for (let a = 0; a < 3; a++) positions[v * 3 + a] = out.vertProperties[v * out.numProp + a]!;
    }
    const indices = out.triVerts.slice();
    onProgress?.(1);
    return {
      positions,
      indices,
      normals: vertexNormals(positions, indices),
      volumeBefore,
      volumeAfter,
      vertexCount: positions.length / 3,
      triangleCount: indices.length / 3,
    };
  } finally {
    for (const m of owned) m.delete();
  }
}
