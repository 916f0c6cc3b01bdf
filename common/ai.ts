// The automatic ("AI") design's shared vocabulary: the order's aiStatus moves (server side
// server/modules/ai/status.ts), which wires of a design are still the engine's, the system param
// that holds the lab's default prescription, and the statistics the dashboard shows
// (GET /admin/design/aiStatistics, POST /admin/dashboard/info/aiInfo). Pure, without zod (the
// browser reads it); the calls' request schemas are ai-request.ts.
import { AI_STATUS, type AiStatus } from './orders.ts';

/** The system param (base_sys_param.keyName) holding the lab's default prescription as JSON. */
export const PRESCRIPTION_PARAM_KEY = 'aiPrescription';

/**
 * The aiStatus moves: [from, to, why]. submit (save with AI on, switch on, models changed, retry
 * of a failed one) -> submitted; the job's start -> processing; its end -> ready | fail; switching
 * AI off -> notEnabled from anywhere.
 */
export const AI_TRANSITIONS: readonly (readonly [AiStatus, AiStatus, 'submit' | 'retry' | 'start' | 'done' | 'failed' | 'off'])[] = [
  [AI_STATUS.notEnabled, AI_STATUS.submitted, 'submit'],
  [AI_STATUS.ready, AI_STATUS.submitted, 'submit'],
  [AI_STATUS.fail, AI_STATUS.submitted, 'submit'],
  [AI_STATUS.submitted, AI_STATUS.submitted, 'submit'],
  [AI_STATUS.processing, AI_STATUS.submitted, 'submit'],
  [AI_STATUS.fail, AI_STATUS.submitted, 'retry'],
  [AI_STATUS.submitted, AI_STATUS.processing, 'start'],
  [AI_STATUS.processing, AI_STATUS.processing, 'start'],
  [AI_STATUS.processing, AI_STATUS.ready, 'done'],
  [AI_STATUS.submitted, AI_STATUS.fail, 'failed'],
  [AI_STATUS.processing, AI_STATUS.fail, 'failed'],
  [AI_STATUS.submitted, AI_STATUS.notEnabled, 'off'],
  [AI_STATUS.processing, AI_STATUS.notEnabled, 'off'],
  [AI_STATUS.ready, AI_STATUS.notEnabled, 'off'],
  [AI_STATUS.fail, AI_STATUS.notEnabled, 'off'],
];

/** What the engine marks on each wire it made; a designer's accept (or edit) sets accepted. */
export interface WireAiMark {
  accepted: boolean;
}

/** A wire is the designer's when the engine did not make it or a designer accepted it. */
export function isDesignerWire(wire: { ai?: WireAiMark | null } | null | undefined): boolean {
  return !wire?.ai || wire.ai.accepted === true;
}

/** The AI figures of a period: orders created in it, in the caller's scope. */
export interface AiStatistics {
  period: string;
  /** First instant counted, or null for all time. */
  start: string | null;
  unit: 'hour' | 'day' | 'month';
  /** Orders of the period, and those with AI on (the former flag count). */
  orders: number;
  enabled: number;
  /** enabled / orders (0 without orders). */
  ratio: number;
  /** Orders with AI on by aiStatus. */
  byStatus: { submitted: number; processing: number; ready: number; fail: number };
  /** ready / (ready + fail): the share of finished AI designs that succeeded (0 when none finished). */
  successRate: number;
  /** Mean time from submission to the end (ready or fail), in seconds; null when none finished. */
  meanSeconds: number | null;
  /** Per bucket of the period: AI orders submitted, ready and failed. */
  series: { time: string; enabled: number; ready: number; fail: number }[];
}
