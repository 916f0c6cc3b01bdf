// The simulation view's motion between the kernel's states. The kernel (bendStates) gives the
// wire after each whole step; the view also shows each step happening: the feed pushing the wire
// out along +X, the head turning the bend plane (the wire turns by -rotate about X) and the die
// wrapping the wire (docs/device-bridge.md, "Step geometry"). The part of a step is computed here
// from the state before it; at the end of the step the view shows the kernel's state, which also
// springs the wire back from the compensated angle to the one it keeps.
import type { ProgramStep } from '../../geometry/client.ts';

export type SimPhase = 'feed' | 'rotate' | 'bend';

/** How long each phase takes on screen (ms): a machine's pace, sped up. */
const FEED_MM_PER_S = 40;
const ROTATE_DEG_PER_S = 180;
const BEND_DEG_PER_S = 120;
const MIN_PHASE_MS = 250;
/** A pause after each step (the spring back shows there). */
const STEP_PAUSE_MS = 250;

export interface PhaseSpan {
  step: number;
  phase: SimPhase;
  start: number;
  duration: number;
}

/** The phases of a program on a time line (ms); phases of zero motion are left out. */
export function timeline(steps: readonly ProgramStep[]): { spans: PhaseSpan[]; stepStart: number[]; total: number } {
  const spans: PhaseSpan[] = [];
  const stepStart: number[] = [];
  let at = 0;
  steps.forEach((s, i) => {
    stepStart.push(at);
    const parts: [SimPhase, number][] = [
      ['feed', (s.feed / FEED_MM_PER_S) * 1000],
      ['rotate', s.rotate === 0 ? 0 : (Math.abs(s.rotate) / ROTATE_DEG_PER_S) * 1000],
      ['bend', s.bend === 0 ? 0 : (Math.abs(s.bend) / BEND_DEG_PER_S) * 1000],
    ];
    for (const [phase, ms] of parts) {
      if (ms <= 0) continue;
      const duration = Math.max(MIN_PHASE_MS, ms);
      spans.push({ step: i, phase, start: at, duration });
      at += duration;
    }
    at += STEP_PAUSE_MS;
  });
  return { spans, stepStart, total: at };
}

/** Where the time line is at `time`: inside a phase (t in 0..1) or between steps (the last step done). */
export function positionAt(line: ReturnType<typeof timeline>, time: number): { step: number; phase: SimPhase | null; t: number } {
  for (const span of line.spans) {
    if (time < span.start) break;
    if (time < span.start + span.duration) return { step: span.step, phase: span.phase, t: (time - span.start) / span.duration };
  }
  // Between phases: the latest step whose start is at or before time is done (or in its pause).
  let step = -1;
  for (let i = 0; i < line.stepStart.length; i++) if (line.stepStart[i]! <= time) step = i;
  return { step, phase: null, t: 1 };
}

/**
 * The wire during step `step`: `before` is its centreline before the step (head frame, tip first,
 * die exit last; [0, 0, 0] before the first step), moved through the step's phases up to `phase`
 * at fraction `t`. `radius` is the die radius of the bend arcs' centreline.
 */
export function wireDuring(before: Float64Array, step: ProgramStep, phase: SimPhase, t: number, radius: number): Float64Array {
  const order: SimPhase[] = ['feed', 'rotate', 'bend'];
  const upto = order.indexOf(phase);
  let pts = Array.from(before);
  // Feed: everything moves out along +X; new wire comes out of the die exit.
  const feed = step.feed * (upto > 0 ? 1 : t);
  if (feed > 0) {
    for (let i = 0; i < pts.length; i += 3) pts[i]! += feed;
    pts.push(0, 0, 0);
  }
  if (upto < 1) return Float64Array.from(pts);
  // Rotate: the head turns the bend plane by `rotate` about +X, so the wire turns by -rotate.
  const a = (-step.rotate * (upto > 1 ? 1 : t) * Math.PI) / 180;
  if (a !== 0) {
    const c = Math.cos(a);
    const s = Math.sin(a);
    for (let i = 0; i < pts.length; i += 3) {
      const y = pts[i + 1]!;
      const z = pts[i + 2]!;
      pts[i + 1] = y * c - z * s;
      pts[i + 2] = y * s + z * c;
    }
  }
  if (upto < 2) return Float64Array.from(pts);
  return Float64Array.from(wrap(pts, (step.bend * t * Math.PI) / 180, radius, step.feed));
}

/**
 * Bends the fed wire round the die by `angle` (rad, positive toward +Y): the last R·|angle| mm
 * (at most the newly fed straight) wrap on the die, whose centre is (0, ±R, 0); the rest turns
 * rigidly with the end of the wrapped part.
 */
function wrap(pts: number[], angle: number, radius: number, fed: number): number[] {
  if (angle === 0) return pts;
  const sgn = Math.sign(angle);
  const a = Math.abs(angle);
  const wrapped = Math.min(radius * a, fed);
  const th = radius > 0 ? wrapped / radius : 0;
  // The end of the wrapped part, where the rigid part is attached.
  const ax = radius * Math.sin(th);
  const ay = sgn * radius * (1 - Math.cos(th));
  const c = Math.cos(sgn * a);
  const s = Math.sin(sgn * a);
  // Arc length from the die exit (the last point) back to each point.
  const n = pts.length / 3;
  const along = new Float64Array(n);
  for (let i = n - 2; i >= 0; i--) {
    along[i] = along[i + 1]! + Math.hypot(pts[i * 3]! - pts[i * 3 + 3]!, pts[i * 3 + 1]! - pts[i * 3 + 4]!, pts[i * 3 + 2]! - pts[i * 3 + 5]!);
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    if (along[i]! <= wrapped + 1e-9) break;
    const x = pts[i * 3]! - wrapped;
    const y = pts[i * 3 + 1]!;
    out.push(ax + x * c - y * s, ay + x * s + y * c, pts[i * 3 + 2]!);
  }
  const segments = Math.max(1, Math.ceil((th * 180) / Math.PI / 5));
  for (let k = segments; k >= 0; k--) {
    const u = (th * k) / segments;
    out.push(radius * Math.sin(u), sgn * radius * (1 - Math.cos(u)), 0);
  }
  return out;
}
