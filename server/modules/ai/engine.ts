// The automatic design's engine boundary: what the `autodesign` job hands the engine and what it
// answers. The engine (another module, being built) runs in the job's worker thread
// (autodesign.thread.ts); the server only knows this interface. Until it lands,
// runAutodesign fails cleanly with ENGINE_UNAVAILABLE, which becomes the order's aiStatus fail
// reason. Tests run other thread code through autodesignKind({ module, fn }).
import type { BiteResult } from '../../../common/bite.ts';
import type { Prescription } from '../../../common/prescription.ts';
import type { Jaw, StoredTeeth } from '../../../common/teeth.ts';
import type { WireType } from '../../../common/wires.ts';
import type { WireAiMark } from '../../../common/ai.ts';

export const ENGINE_UNAVAILABLE = 'the built-in engine is not available';

/** One jaw model: its bytes' storage key (under `uploads`) and its stored teeth, if segmented. */
export interface AutodesignJaw {
  fileId: number;
  key: string;
  teeth: StoredTeeth | null;
}

export interface AutodesignInput {
  orderId: number;
  /** Where the models' bytes live (space/storage.ts localBlobPath). */
  uploads: string;
  upper: AutodesignJaw | null;
  lower: AutodesignJaw | null;
  /** The registered bite (order_bite), when the order has one. */
  bite: BiteResult | null;
  /** The order's prescription, else the lab's default. */
  prescription: Prescription;
}

/** What became of one prescribed wire. */
export interface WireReport {
  /** The design's wire id (absent when the wire could not be made). */
  wireId?: string;
  jaw: Jaw;
  type: WireType;
  teeth: number[];
  ok: boolean;
  /** Why it was not made, or a warning. */
  message?: string;
}

/** A design document (common/design.ts format) whose wires the engine made carry `ai`. */
export interface AutodesignDocument {
  schemaVersion: number;
  wires: ({ id: string; type: WireType; ai: WireAiMark } & Record<string, unknown>)[];
  [key: string]: unknown;
}

export interface AutodesignResult {
  design: AutodesignDocument;
  report: WireReport[];
}

export type AutodesignEngine = (input: AutodesignInput, onProgress: (f: number) => void) => Promise<AutodesignResult>;

/** The built-in engine: not available yet (the design engine is another module's work). */
export const runAutodesign: AutodesignEngine = async () => {
  throw new Error(ENGINE_UNAVAILABLE);
};
