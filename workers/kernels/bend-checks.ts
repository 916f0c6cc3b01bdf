// The checks a wire's bending program passes before it is sent to a machine (spec sections 5,
// 8, 9). Each finding has a stable `code`, a severity, the spec's message as
// `messageKey` (the English source the editor translates) and an English `message` with values.

import type { KernelExports } from './abi.ts';
import { KernelError } from './job.ts';
import { type BendCollision, bendCollision, type BendProgram, bendProgram, type HeadBox, type ProgramOptions, type Vec3 } from './bend.ts';
import {
  BEND_MESSAGES,
  type BendIssueCode,
  DEFAULT_LIMITS,
  type MachineLimits,
  programCapacity,
  stepProblems,
  WIRE_END_MAX,
  WIRE_END_MIN,
  type WireType,
  WRAPAROUND_FIRST_MAX,
} from '../../common/bend-program.ts';

// The machine's limits, the wire rules and the findings' codes and messages are the product's
// (common/): the server refuses what these refuse, and the editor reads them from there.
export { BEND_MESSAGES, type BendIssueCode, DEFAULT_LIMITS, type MachineLimits, WIRE_END_MAX, WIRE_END_MIN, type WireType, WRAPAROUND_FIRST_MAX };

/** The arrow clasp's double bend: two consecutive arcs with at most this much straight between them (mm). */
const DOUBLE_BEND_MAX_GAP = 2;

export interface BendIssue {
  code: BendIssueCode;
  /** Errors stop the sending; warnings are shown. */
  severity: 'error' | 'warning';
  /** The spec's message (English source text). */
  messageKey: string;
  /** English with the values. */
  message: string;
  /** 0-based program step concerned. */
  step?: number;
  /** Input point indices concerned (corners). */
  corners?: number[];
  collision?: BendCollision;
}

export interface BendCheckInput {
  /** Corners of the wire's centreline (mm). */
  points: ArrayLike<number> | readonly Vec3[];
  wire: { type: WireType; diameter: number };
  /** Program geometry: die radius, feed convention, springback table, arc cap. */
  program: ProgramOptions;
  /** The device's wire diameters and memory (max steps); skipped when absent. */
  device?: { diameters: readonly number[]; memory: number };
  limits?: Partial<MachineLimits>;
  /** Bending head model; default DEFAULT_HEAD. */
  head?: readonly HeadBox[];
  /** Skip the collision sweep (e.g. while dragging a point). */
  skipCollision?: boolean;
}

export interface BendCheckResult {
  program: BendProgram | null;
  issues: BendIssue[];
  /** No error (warnings allowed). */
  ok: boolean;
}

const mm = (v: number): string => `${Math.round(v * 100) / 100} mm`;
const deg = (v: number): string => `${Math.round(v * 100) / 100}°`;

function issue(code: BendIssueCode, severity: BendIssue['severity'], message: string, extra: Partial<BendIssue> = {}): BendIssue {
  return { code, severity, messageKey: BEND_MESSAGES[code], message, ...extra };
}

/** Every check of a wire against the rules and the machine, in the order a designer fixes them. */
export function checkBend(k: KernelExports, input: BendCheckInput): BendCheckResult {
  const issues: BendIssue[] = [];
  const { wire, device } = input;
  if (device && !device.diameters.some((d) => Math.abs(d - wire.diameter) < 1e-6)) {
    issues.push(issue('DIAMETER_MISMATCH', 'error', `Wire diameter mismatch: the device takes ${device.diameters.join(', ')} mm, not ${wire.diameter} mm`));
  }
  let program: BendProgram;
  try {
    program = bendProgram(k, input.points, input.program);
  } catch (e) {
    if (!(e instanceof KernelError) || e.code !== 'BAD_INPUT') throw e;
    issues.push(issue('WIRE_INVALID', 'error', e.message.replace(/^BAD_INPUT: /, '')));
    return { program: null, issues, ok: false };
  }
  const { detail, steps } = program;
  if (program.capped.length > 0) {
    issues.push(issue('ARC_CAPPED', 'warning', `Arc angles above 160 degrees are capped at 160 (corners ${program.capped.join(', ')})`, { corners: program.capped }));
  }
  const first = detail[0]!;
  const last = detail[detail.length - 1]!;
  const ends: [BendIssueCode, string, number, number][] = [
    ['START_LENGTH', 'Start straight length', first.straight, 0],
    ['END_LENGTH', 'End straight length', last.straight, detail.length - 1],
  ];
  for (const [code, label, v, step] of ends) {
    if (!(v >= WIRE_END_MIN - 1e-9 && v <= WIRE_END_MAX + 1e-9)) {
      issues.push(issue(code, 'error', `${label}: valid number from 5 to 100 (is ${mm(v)})`, { step }));
    }
  }
  if (wire.type === 'wraparoundBow' && first.straight > WRAPAROUND_FIRST_MAX + 1e-9) {
    issues.push(issue('WRAPAROUND_FIRST_STRAIGHT', 'warning', `The wraparound bow first straight section is advised at or under 30 mm (is ${mm(first.straight)})`, { step: 0 }));
  }
  if (wire.type === 'arrowClasp') {
    const bends = detail.filter((s) => s.target !== 0).length;
    let found = false;
    for (let i = 1; i < detail.length - 1 && !found; i++) {
      found = detail[i - 1]!.target !== 0 && detail[i]!.target !== 0 && detail[i]!.straight <= DOUBLE_BEND_MAX_GAP + 1e-9;
    }
    if (!found) {
      issues.push(issue('ARROW_DOUBLE_BEND', 'error', `The arrow clasp needs a double bend of two arcs (two bends at most ${DOUBLE_BEND_MAX_GAP} mm apart; the wire has ${bends} bends)`));
    }
  }
  if (device && steps.length > programCapacity(device.memory)) {
    issues.push(issue('OVER_MEMORY', 'error', `Wire data over machine memory (${steps.length} steps, the device holds ${programCapacity(device.memory)})`));
  }
  for (const p of stepProblems(steps, { ...DEFAULT_LIMITS, ...input.limits })) {
    const i = p.step;
    const over = p.value > p.max;
    const message =
      p.field === 'feed'
        ? over
          ? `Step ${i + 1}: feed ${mm(p.value)} is over the machine's ${mm(p.max)}`
          : `Step ${i + 1}: feed ${mm(p.value)} is not more than 0 mm`
        : p.field === 'bend'
          ? `Step ${i + 1}: bend ${deg(p.value)} is outside the machine's ${deg(p.min)} to ${deg(p.max)}`
          : over || p.value < p.min
            ? `Step ${i + 1}: rotate ${deg(p.value)} is over the machine's ±${deg(p.max)}`
            : `Step ${i + 1}: rotate ${deg(p.value)} is outside ${p.range}°`;
    issues.push(issue(p.code, 'error', message, { step: i }));
  }
  if (!input.skipCollision) {
    const hit = bendCollision(k, steps, { ...input.program, diameter: wire.diameter, head: input.head });
    if (hit) {
      issues.push(issue('COLLISION', 'error', `Step ${hit.step + 1}: the bending path collided with the machine and was skipped (during the ${hit.phase}, at ${deg(hit.angle)})`, { step: hit.step, collision: hit }));
    }
  }
  return { program, issues, ok: !issues.some((i) => i.severity === 'error') };
}
