// Bending programs over assembly/bend.ts: a designed wire (corners of its centreline, mm) to
// the feed-rotate-bend steps a machine takes (device-protocol `job.steps`), back to the wire
// (forward kinematics, step by step for the simulation view) and the sweep of the bent wire
// against the bending head. Conventions: docs/device-bridge.md, "Step geometry".
// The kernels are tiny (a wire has tens of corners), so these calls are synchronous and work on
// any kernels instance; each releases the arena memory it used.

import type { KernelExports } from './abi.ts';
import { KernelError } from './job.ts';
import { type BendStep, DEFAULT_HEAD, type HeadBox } from '../../common/bend-program.ts';
import { compensateAngle, type SpringbackTable, springbackResult, springbackTableProblem } from '../../common/springback.ts';

export type Vec3 = readonly [number, number, number];

// A step, the head model and the springback rule are the product's (common/): the server checks
// and the editor draws what these kernels compute with.
export { type BendStep, DEFAULT_HEAD, type HeadBox } from '../../common/bend-program.ts';

/** A program step with how it was derived. */
export interface ProgramStep extends BendStep {
  /** The angle the wire keeps (design, capped); `bend` is this plus springback. 0 on the last step. */
  target: number;
  /** Straight wire fed before the bend (mm). */
  straight: number;
  /** Arc material of the bend, R * |target| in radians (mm); part of `feed` when feedIncludesArc. */
  arc: number;
  /** The design's turn at this corner before capping (deg, >= 0). */
  designTurn: number;
  /** Index of the corner in the input points (the last point for the final step). */
  corner: number;
  /** The turn was above the cap and is bent at the cap. */
  capped: boolean;
}

export interface BendGeometry {
  /** Die radius: the radius of the bend arcs' centreline (mm). */
  radius: number;
  /** `feed` includes the arc material of the step's bend (fed, then wrapped). Default true. */
  feedIncludesArc?: boolean;
  /** The head bends both ways: rotate in (-90, 90] and bend signed. Default false: bend >= 0, rotate in (-180, 180]. */
  bidirectional?: boolean;
}

export interface ProgramOptions extends BendGeometry {
  /** Turns above this are bent at it (the spec: 160). */
  arcCapDeg?: number;
  /** The device's springback table for the wire diameter; none: no compensation. */
  springback?: SpringbackTable;
}

export interface BendProgram {
  /** What to send: `job.steps`, springback compensated. */
  steps: BendStep[];
  /** The same steps with their derivation. */
  detail: ProgramStep[];
  /** Input indices of the corners bent at the cap. */
  capped: number[];
  /** Developed length of the wire (mm): straights plus arcs. */
  length: number;
}

const DEFAULT_ARC_CAP_DEG = 160;
const FLAG_FEED_ARC = 1;
const FLAG_BIDIRECTIONAL = 2;

function flagsOf(g: BendGeometry): number {
  return (g.feedIncludesArc === false ? 0 : FLAG_FEED_ARC) | (g.bidirectional ? FLAG_BIDIRECTIONAL : 0);
}

function flatPoints(points: ArrayLike<number> | readonly Vec3[]): Float64Array {
  if (points.length > 0 && Array.isArray(points[0])) {
    const pts = points as readonly Vec3[];
    const out = new Float64Array(pts.length * 3);
    pts.forEach((p, i) => out.set(p, i * 3));
    return out;
  }
  return Float64Array.from(points as ArrayLike<number>);
}

function withArena<T>(k: KernelExports, fn: () => T): T {
  const mark = k.arenaMark();
  try {
    return fn();
  } finally {
    k.arenaRelease(mark);
  }
}

function alloc(k: KernelExports, data: Float64Array): number {
  const ptr = k.arenaAlloc(Math.max(8, data.byteLength)) >>> 0;
  if (ptr === 0) throw new KernelError('OUT_OF_MEMORY');
  new Float64Array(k.memory.buffer, ptr, data.length).set(data);
  return ptr;
}

/**
 * The program of a designed wire: `points` are the corners of its centreline (xyz, mm; flat or
 * as triples), each corner bent around the die radius. Throws KernelError BAD_INPUT when the
 * wire has no length or two corners are too close for their arcs.
 */
export function bendProgram(k: KernelExports, points: ArrayLike<number> | readonly Vec3[], options: ProgramOptions): BendProgram {
  const pts = flatPoints(points);
  const cap = options.arcCapDeg ?? DEFAULT_ARC_CAP_DEG;
  if (options.springback) {
    const problem = springbackTableProblem(options.springback);
    if (problem) throw new KernelError('BAD_INPUT', `springback table: ${problem}`);
  }
  return withArena(k, () => {
    const ptr = alloc(k, pts);
    const n = k.bendProgram(ptr, pts.length / 3, options.radius, cap, flagsOf(options));
    if (n === -2) throw new KernelError('BAD_INPUT', 'the wire has no length');
    if (n === -3) throw new KernelError('BAD_INPUT', `the segment after point ${k.bendErrorIndex()} is too short for the arcs at its ends (die radius ${options.radius} mm)`);
    if (n === -4) throw new KernelError('OUT_OF_MEMORY');
    if (n < 0) throw new KernelError('BAD_INPUT', `bendProgram: ${n}`);
    const rows = new Float64Array(k.memory.buffer, k.bendProgramPtr() >>> 0, n * 8).slice();
    const detail: ProgramStep[] = [];
    let length = 0;
    for (let i = 0; i < n; i++) {
      const r = rows.subarray(i * 8, i * 8 + 8);
      const target = r[2]!;
      const bend = compensateAngle(options.springback, target);
      detail.push({
        feed: r[0]!,
        rotate: r[1]!,
        bend,
        target,
        straight: r[3]!,
        arc: r[4]!,
        designTurn: r[5]!,
        corner: r[6]!,
        capped: r[7]! === 1,
      });
      length += r[3]! + r[4]!;
    }
    return {
      steps: detail.map(({ feed, rotate, bend }) => ({ feed, rotate, bend })),
      detail,
      capped: detail.filter((s) => s.capped).map((s) => s.corner),
      length,
    };
  });
}

export interface SimulateOptions extends BendGeometry {
  /** The table the steps were compensated with: the wire keeps springbackResult(bend). */
  springback?: SpringbackTable;
  /** Largest angle per arc sample in the output polyline. Default 5. */
  arcSegDeg?: number;
}

/** The wire in the head's frame: +X the feed direction, the die exit at the origin. */
export interface WireState {
  /** Steps done. */
  steps: number;
  /** Centreline polyline (xyz), from the tip (the design's first point) to the die exit. */
  points: Float64Array;
  /**
   * The design corners reconstructed: the tip, each bend's corner (where the tangent lines of its
   * straights meet), the die exit (the wire's end once every step is done).
   */
  corners: Float64Array;
}

function kernelSteps(steps: readonly BendStep[], table: SpringbackTable | undefined): Float64Array {
  const out = new Float64Array(steps.length * 4);
  steps.forEach((s, i) => {
    out[i * 4] = s.feed;
    out[i * 4 + 1] = s.rotate;
    out[i * 4 + 2] = s.bend;
    out[i * 4 + 3] = springbackResult(table, s.bend);
  });
  return out;
}

function copyState(k: KernelExports, done: number): WireState {
  return {
    steps: done,
    points: new Float64Array(k.memory.buffer, k.bendSimPointsPtr() >>> 0, k.bendSimPointCount() * 3).slice(),
    corners: new Float64Array(k.memory.buffer, k.bendSimCornersPtr() >>> 0, k.bendSimCornerCount() * 3).slice(),
  };
}

function simulateError(r: number): never {
  if (r === -2) throw new KernelError('BAD_INPUT', 'a feed is shorter than the arc material of its bend');
  if (r === -4) throw new KernelError('OUT_OF_MEMORY');
  throw new KernelError('BAD_INPUT', `bendSimulate: ${r}`);
}

/**
 * Forward kinematics: the wire after the first `upto` steps (all by default) of a program as
 * sent (compensated bends; pass the same springback table to get the shape the wire keeps).
 */
export function simulateBend(k: KernelExports, steps: readonly BendStep[], options: SimulateOptions & { upto?: number }): WireState {
  const data = kernelSteps(steps, options.springback);
  return withArena(k, () => {
    const ptr = alloc(k, data);
    const r = k.bendSimulate(ptr, steps.length, options.radius, flagsOf(options), options.arcSegDeg ?? 5, options.upto ?? -1, 0, 0, 0, 0);
    if (r < 0) simulateError(r);
    return copyState(k, r);
  });
}

/** The wire after each step (index 0: after step 1), for animating the bending. */
export function bendStates(k: KernelExports, steps: readonly BendStep[], options: SimulateOptions): WireState[] {
  return steps.map((_, i) => simulateBend(k, steps, { ...options, upto: i + 1 }));
}

export interface CollisionOptions extends SimulateOptions {
  /** Wire diameter (mm): the boxes are grown by its radius. */
  diameter: number;
  head?: readonly HeadBox[];
  /** Largest rotation or bend increment between checks. Default 2. */
  sweepDeg?: number;
}

export interface BendCollision {
  /** 0-based index of the first step that collides. */
  step: number;
  phase: 'feed' | 'rotate' | 'bend';
  /** The rotate or bend angle reached at the contact (deg). */
  angle: number;
  /** A point of the wire inside the head (head frame, mm). */
  point: Vec3;
}

/**
 * Sweeps the already-bent wire through every feed, rotation and bend (up to the compensated
 * angle) against the head; the first contact, or null.
 */
export function bendCollision(k: KernelExports, steps: readonly BendStep[], options: CollisionOptions): BendCollision | null {
  const data = kernelSteps(steps, options.springback);
  const head = options.head ?? DEFAULT_HEAD;
  const boxes = new Float64Array(head.length * 6);
  head.forEach((b, i) => {
    boxes.set(b.min, i * 6);
    boxes.set(b.max, i * 6 + 3);
  });
  return withArena(k, () => {
    const ptr = alloc(k, data);
    const bptr = alloc(k, boxes);
    const r = k.bendSimulate(ptr, steps.length, options.radius, flagsOf(options), options.arcSegDeg ?? 5, -1, bptr, head.length, options.diameter / 2, options.sweepDeg ?? 2);
    if (r >= 0) return null;
    if (r > -10) simulateError(r);
    const phase = k.bendHitPhase();
    return {
      step: -r - 10,
      phase: phase === 1 ? 'feed' : phase === 2 ? 'rotate' : 'bend',
      angle: k.bendHitAngle(),
      point: [k.bendHitPoint(0), k.bendHitPoint(1), k.bendHitPoint(2)],
    };
  });
}

/** Column-major 4x4 rigid transform. */
export type Mat4 = Float64Array;

function frameOf(p: ArrayLike<number>): { o: Vec3; x: Vec3; y: Vec3; z: Vec3 } | null {
  const n = p.length / 3;
  if (n < 2) return null;
  const o: Vec3 = [p[0]!, p[1]!, p[2]!];
  let x: Vec3 | null = null;
  for (let i = 1; i < n && !x; i++) {
    const d = [p[i * 3]! - o[0], p[i * 3 + 1]! - o[1], p[i * 3 + 2]! - o[2]] as const;
    const l = Math.hypot(...d);
    if (l > 1e-6) x = [d[0] / l, d[1] / l, d[2] / l];
  }
  if (!x) return null;
  for (let i = 1; i < n; i++) {
    const d = [p[i * 3]! - o[0], p[i * 3 + 1]! - o[1], p[i * 3 + 2]! - o[2]];
    const dot = d[0]! * x[0] + d[1]! * x[1] + d[2]! * x[2];
    const v = [d[0]! - dot * x[0], d[1]! - dot * x[1], d[2]! - dot * x[2]];
    const l = Math.hypot(v[0]!, v[1]!, v[2]!);
    if (l > 1e-6) {
      const y: Vec3 = [v[0]! / l, v[1]! / l, v[2]! / l];
      return { o, x, y, z: [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]] };
    }
  }
  // Straight: any perpendicular.
  const a: Vec3 = Math.abs(x[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const z0 = [x[1] * a[2] - x[2] * a[1], x[2] * a[0] - x[0] * a[2], x[0] * a[1] - x[1] * a[0]];
  const zl = Math.hypot(z0[0]!, z0[1]!, z0[2]!);
  const z: Vec3 = [z0[0]! / zl, z0[1]! / zl, z0[2]! / zl];
  return { o, x, y: [z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]], z };
}

/**
 * The rigid transform that puts a simulated wire onto its design: it maps the reconstructed
 * corners' first point, first direction and first plane onto the design's (exact when the
 * program came from that design). Apply it to a state's points to draw the animation in place.
 */
export function placeOnDesign(corners: ArrayLike<number>, design: ArrayLike<number> | readonly Vec3[]): Mat4 {
  const from = frameOf(corners);
  const to = frameOf(flatPoints(design));
  if (!from || !to) throw new KernelError('BAD_INPUT', 'no length to align');
  // M = To * From^T (rotation), translation to.o - M from.o.
  const m = new Float64Array(16);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      m[c * 4 + r] = to.x[r]! * from.x[c]! + to.y[r]! * from.y[c]! + to.z[r]! * from.z[c]!;
    }
  }
  for (let r = 0; r < 3; r++) {
    m[12 + r] = to.o[r]! - (m[r]! * from.o[0] + m[4 + r]! * from.o[1] + m[8 + r]! * from.o[2]);
  }
  m[15] = 1;
  return m;
}

/** Applies a rigid transform to xyz points (a new array). */
export function transformPoints(m: Mat4, p: ArrayLike<number>): Float64Array {
  const out = new Float64Array(p.length);
  for (let i = 0; i < p.length; i += 3) {
    const x = p[i]!, y = p[i + 1]!, z = p[i + 2]!;
    for (let r = 0; r < 3; r++) out[i + r] = m[r]! * x + m[4 + r]! * y + m[8 + r]! * z + m[12 + r]!;
  }
  return out;
}

/**
 * The inverse check before sending: replays `steps` (as sent, compensated with `springback`),
 * places the wire the machine makes on the design, and returns the largest distance between its
 * corners and the design's (mm); Infinity when the corner counts differ (collinear design points
 * are merged, so pass the design without them, or compare program.detail's corners).
 */
export function programDeviation(k: KernelExports, design: ArrayLike<number> | readonly Vec3[], steps: readonly BendStep[], options: SimulateOptions): number {
  const d = flatPoints(design);
  const { corners } = simulateBend(k, steps, options);
  if (corners.length !== d.length) return Infinity;
  const placed = transformPoints(placeOnDesign(corners, d), corners);
  let worst = 0;
  for (let i = 0; i < d.length; i += 3) worst = Math.max(worst, Math.hypot(placed[i]! - d[i]!, placed[i + 1]! - d[i + 1]!, placed[i + 2]! - d[i + 2]!));
  return worst;
}
