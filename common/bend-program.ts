// What a bend program (device-protocol `job.steps`) may ask of a machine: one definition for the
// editor's checks before sending (workers/kernels/bend-checks.ts) and the server's before it
// queues a job (server/modules/device-hub). Pure: no DOM, worker or Node imports, and no zod
// (the geometry worker bundles this file; the request schemas are bend-request.ts).
// Step geometry and units: docs/device-bridge.md, "Step geometry".

// The wire types are wires.ts; re-exported for the callers that read them here.
export { WIRE_TYPES, type WireType } from './wires.ts';

/** Spec section 9: start and end straight lengths 5..100 mm; wraparound bow first straight <= 30 mm. */
export const WIRE_END_MIN = 5;
export const WIRE_END_MAX = 100;
export const WRAPAROUND_FIRST_MAX = 30;

/** The findings of the checks a wire's program passes before it is sent (workers/kernels/bend-checks.ts). */
export type BendIssueCode =
  | 'WIRE_INVALID'
  | 'ARC_CAPPED'
  | 'START_LENGTH'
  | 'END_LENGTH'
  | 'WRAPAROUND_FIRST_STRAIGHT'
  | 'ARROW_DOUBLE_BEND'
  | 'DIAMETER_MISMATCH'
  | 'OVER_MEMORY'
  | 'FEED_LIMIT'
  | 'BEND_LIMIT'
  | 'ROTATE_LIMIT'
  | 'COLLISION';

/** The spec's message of each finding (English source text; the editor translates). */
export const BEND_MESSAGES: Record<BendIssueCode, string> = {
  WIRE_INVALID: 'The wire cannot be bent',
  ARC_CAPPED: 'Arc angles above 160 degrees are capped at 160',
  START_LENGTH: 'valid number from 5 to 100',
  END_LENGTH: 'valid number from 5 to 100',
  WRAPAROUND_FIRST_STRAIGHT: 'The wraparound bow first straight section is advised at or under 30 mm',
  ARROW_DOUBLE_BEND: 'The arrow clasp needs a double bend of two arcs',
  DIAMETER_MISMATCH: 'diameter mismatch',
  OVER_MEMORY: 'Wire data over machine memory',
  FEED_LIMIT: 'A step is outside the machine limits',
  BEND_LIMIT: 'A step is outside the machine limits',
  ROTATE_LIMIT: 'A step is outside the machine limits',
  COLLISION: 'the bending path collided with the machine and was skipped',
};

/** A box of the bending head, in the head's frame (mm): x along the feed, the die exit at 0. */
export interface HeadBox {
  min: readonly [number, number, number];
  max: readonly [number, number, number];
}

/**
 * The default head: the feed tube's nose (5 x 5 mm, 70 mm long, its face 3 mm behind the die exit:
 * the die and the bending pin stand proud of it) and the machine body behind it (200 x 200 mm).
 * The wire bends in front of the face; wire swung back within 2.5 mm of the feed axis, or more
 * than 73 mm behind the die exit, hits the machine. The nose is as long as it is because a
 * wraparound bow, bent from one end, swings its nearly finished arch up to about 55 mm behind the
 * die on its last bends (docs/device-bridge.md, "Bending head"): a shorter nose puts the body in
 * its way. A device may describe its own head (device_info.head, HEAD_LIMITS).
 */
export const DEFAULT_HEAD: readonly HeadBox[] = [
  { min: [-73, -2.5, -2.5], max: [-3, 2.5, 2.5] },
  { min: [-273, -100, -100], max: [-73, 100, 100] },
];

/** What a device's head model may hold: a few boxes, coordinates in mm, the die left clear. */
export const HEAD_LIMITS = {
  minBoxes: 1,
  maxBoxes: 16,
  /** Every coordinate within +-maxCoord mm of the die exit. */
  maxCoord: 1000,
  /** Smallest edge of a box (mm). */
  minEdge: 0.1,
  /** No box may reach within this distance (mm, on every axis) of the die exit, where the wire bends. */
  dieClear: 1,
} as const;

/**
 * Why a head model cannot be used, or null: a list of 1..16 boxes, each min below max by at least
 * HEAD_LIMITS.minEdge on every axis, inside +-maxCoord, none reaching into the cube of
 * +-dieClear mm round the die exit (a head there would hold every wire).
 */
export function headProblem(head: readonly HeadBox[]): string | null {
  const L = HEAD_LIMITS;
  if (head.length < L.minBoxes || head.length > L.maxBoxes) return `a head has ${L.minBoxes} to ${L.maxBoxes} boxes`;
  for (const [i, b] of head.entries()) {
    let overDie = true;
    for (let a = 0; a < 3; a++) {
      const lo = b.min[a]!;
      const hi = b.max[a]!;
      if (!Number.isFinite(lo) || !Number.isFinite(hi) || Math.abs(lo) > L.maxCoord || Math.abs(hi) > L.maxCoord) return `box ${i + 1}: coordinates within ±${L.maxCoord} mm`;
      if (!(hi - lo >= L.minEdge)) return `box ${i + 1}: min must be below max by at least ${L.minEdge} mm`;
      if (hi <= -L.dieClear || lo >= L.dieClear) overDie = false;
    }
    if (overDie) return `box ${i + 1}: reaches within ${L.dieClear} mm of the die exit`;
  }
  return null;
}

/** What one step may ask of the machine. */
export interface MachineLimits {
  /** Longest feed in one step (mm); a feed is > 0. Default 120 (the longest straight, 100, plus an arc). */
  maxFeed: number;
  /**
   * Bend range (deg) after springback compensation. Default -180..180: a device's calibration
   * takes angles 0..180 (device config), and a bidirectional head bends both ways.
   */
  minBend: number;
  maxBend: number;
  /** Largest |rotate| (deg). Default 180; `rotate` is always in (-180, 180] (the protocol's range). */
  maxRotate: number;
}

export const DEFAULT_LIMITS: MachineLimits = { maxFeed: 120, minBend: -180, maxBend: 180, maxRotate: 180 };

/**
 * The most steps one program may have, whatever memory a device declares (the back office accepts
 * up to 10,000,000): a wire has tens of corners, and a job is stored and sent whole.
 */
export const MAX_PROGRAM_STEPS = 1000;

/** A new device's wire diameters and program memory (the device form starts from them; the automatic design checks its wires against them, with DEFAULT_HEAD). */
export const DEFAULT_DEVICE: { readonly diameters: readonly number[]; readonly memory: number } = { diameters: [0.7, 0.8, 0.9, 1], memory: MAX_PROGRAM_STEPS };

/** Rounding allowance of the limit comparisons (the programs are computed in floating point). */
const LIMIT_EPS = 1e-9;

/** One step of a program: feed (mm), then rotate (deg), then bend (deg). */
export interface BendStep {
  feed: number;
  rotate: number;
  bend: number;
}

export type StepField = keyof BendStep;
export type StepLimitCode = 'FEED_LIMIT' | 'ROTATE_LIMIT' | 'BEND_LIMIT';

/** A step value outside the machine's range; `range` in interval notation, e.g. "(0, 120]". */
export interface StepProblem {
  code: StepLimitCode;
  /** 0-based step. */
  step: number;
  field: StepField;
  value: number;
  min: number;
  max: number;
  range: string;
}

const n = (v: number): string => String(Math.round(v * 1e6) / 1e6);

/** The allowed range of each field under `limits`, with whether its ends are included. */
function stepRanges(limits: MachineLimits = DEFAULT_LIMITS): Record<StepField, { code: StepLimitCode; min: number; max: number; minOpen: boolean }> {
  const rot = Math.min(limits.maxRotate, 180);
  return {
    feed: { code: 'FEED_LIMIT', min: 0, max: limits.maxFeed, minOpen: true },
    // (-180, 180]: -180 and 180 are the same turn, and the protocol names it 180.
    rotate: { code: 'ROTATE_LIMIT', min: -rot, max: rot, minOpen: rot >= 180 },
    bend: { code: 'BEND_LIMIT', min: limits.minBend, max: limits.maxBend, minOpen: false },
  };
}

/** Every value of a program outside the machine's limits, step by step, field by field. */
export function stepProblems(steps: readonly BendStep[], limits: MachineLimits = DEFAULT_LIMITS): StepProblem[] {
  const ranges = stepRanges(limits);
  const out: StepProblem[] = [];
  steps.forEach((s, step) => {
    for (const field of ['feed', 'rotate', 'bend'] as const) {
      const r = ranges[field];
      const v = s[field];
      // Open ends take no allowance: a feed of 0 or a rotate of -180 is outside however rounded.
      const aboveMin = r.minOpen ? v > r.min : v >= r.min - LIMIT_EPS;
      if (Number.isFinite(v) && aboveMin && v <= r.max + LIMIT_EPS) continue;
      out.push({ code: r.code, step, field, value: v, min: r.min, max: r.max, range: `${r.minOpen ? '(' : '['}${n(r.min)}, ${n(r.max)}]` });
    }
  });
  return out;
}

/** The most steps a device with this memory takes (its memory, capped at MAX_PROGRAM_STEPS). */
export function programCapacity(memory: number): number {
  return Math.min(memory, MAX_PROGRAM_STEPS);
}
