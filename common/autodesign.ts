// The automatic design's report per prescribed wire (workers/design/autodesign.ts): placed, or
// failed with a code and the specification's message ("AI detection failed for the labial bow,
// single-arm clasp and arrow clasp on teeth 5 to 7 and the wraparound bow on teeth 6 or 7; the
// bending path collided with the machine and was skipped"). Pure: no zod, the workers load it.
import { universalToFdi } from './teeth.ts';
import { WIRE_TYPE_LABELS, type WireType } from './wires.ts';

/**
 * DETECTION_FAILED: a named tooth was not detected or has no face to place on, or the template
 * could not be laid on it; CHECKS_FAILED: the placed wire fails the bending checks (left out);
 * COLLISION: its only failing check is the collision sweep: the bending path meets the machine.
 */
export type AutodesignFailure = 'DETECTION_FAILED' | 'CHECKS_FAILED' | 'COLLISION';

export interface AutodesignWireReport {
  jaw: 'upper' | 'lower';
  type: WireType;
  /** The prescribed teeth (Universal numbers). */
  teeth: number[];
  status: 'placed' | 'failed';
  /** The design's wire id when placed. */
  wireId?: string;
  /** The die radius the template made room for when the first (1 mm) did not pass the checks. */
  dieRadius?: number;
  /** A single-arm clasp's tip: the undercut (mm) below the height of contour it ends in, when it could be put in one. */
  tipUndercut?: number;
  code?: AutodesignFailure;
  /** The tooth that failed (Universal), when one is to blame. */
  tooth?: number;
  /** English, the specification's wording with the wire and the tooth (FDI). */
  message?: string;
  /** What went wrong underneath (the anchor's or template's error, the checks' messages). */
  detail?: string;
}

/** The specification's message for a failed wire, in English. */
export function autodesignMessage(code: AutodesignFailure, type: WireType, tooth?: number): string {
  const wire = WIRE_TYPE_LABELS[type].en.toLowerCase();
  const on = tooth === undefined ? '' : ` on tooth ${universalToFdi(tooth)}`;
  if (code === 'DETECTION_FAILED') return `AI detection failed for the ${wire}${on}`;
  if (code === 'COLLISION') return `The bending path of the ${wire}${on} collided with the machine and was skipped`;
  return `The ${wire}${on} fails the bending checks and was skipped`;
}

/**
 * Why a jaw's base was not made: OUTLINE_FAILED, no outline could be drawn from its teeth (too
 * few detected, or the surface too small); the base kernel's codes (SPLIT_FAILED,
 * GENERATION_FAILED, ...) when the outline did not make a closed base.
 */
export type AutodesignBaseFailure = 'OUTLINE_FAILED' | 'SPLIT_FAILED' | 'GENERATION_FAILED' | 'TOO_FEW_POINTS' | 'HEIGHT_TOO_LOW' | 'NOT_STRAIGHTENED';

/** One slot the automatic design cut into a base to check it (kept in the document when cut). */
export interface AutodesignSlotReport {
  wireId: string;
  status: 'cut' | 'failed';
  /** The slot kernel's code and reason when it failed. */
  code?: string;
  detail?: string;
}

/** The automatic design's report for a jaw whose prescription asks for a base. */
export interface AutodesignBaseReport {
  jaw: 'upper' | 'lower';
  status: 'generated' | 'failed';
  /** palate: across the palate behind the last molars; horseshoe: a lingual (palatal) flange closing behind them. */
  shape?: 'palate' | 'horseshoe';
  outlinePoints?: number;
  /** Of the base as generated, mm³. */
  volume?: number;
  code?: AutodesignBaseFailure;
  /** English, for the report. */
  message?: string;
  detail?: string;
  slots: AutodesignSlotReport[];
  /**
   * The tags the generated base holds less well than it should, for the designer to look at: a
   * corner less than 1 mm inside the rim in plan (`inside`, mm, the least; negative outside the
   * plan) or corners outside the solid (`outside`, how many). Absent when every tag is held.
   */
  tags?: { wireId: string; inside: number; outside: number }[];
}

/** The message for a base that was not made, in English (its wires are kept). */
export function autodesignBaseMessage(jaw: 'upper' | 'lower'): string {
  return `The ${jaw} base could not be designed automatically; the wires are kept`;
}
