// The specification's rules for the acrylic base (product spec, "Design editor"): what must hold
// before a base is generated, and the codes of every way it can fail. The UI turns each code
// into its sentence (messages.ts); the worker's own codes (workers/kernels/base.ts) are
// passed through unchanged.
import { modelToCanonical, type DesignDocument, type Jaw } from '../../engine/document.ts';
import type { Xyz } from '../../engine/pose.ts';

/** Fewest outline (cutting) points (as the kernel's MIN_OUTLINE_POINTS). */
export const MIN_OUTLINE_POINTS = 4;
/** Lowest base height, mm (as the kernel's MIN_BASE_HEIGHT). */
export const MIN_BASE_HEIGHT = 0.5;

export type BaseProblemCode =
  | 'NOT_STRAIGHTENED'
  | 'TOO_FEW_POINTS'
  | 'HEIGHT_TOO_LOW'
  | 'WIRE_EXISTS'
  | 'DATA_EXPIRED'
  | 'MODEL_TOO_LARGE'
  | 'NO_MODEL'
  | 'SPLIT_FAILED'
  | 'GENERATION_FAILED'
  | 'INIT_FAILED'
  | 'MEASURE_WHILE_ACCESSORY';

export interface BaseProblem {
  code: BaseProblemCode;
  /** The worker's reason (GENERATION_FAILED), shown after the sentence. */
  detail?: string;
}

/** What the rules need to know of the jaw's model. */
export interface JawModelState {
  status: 'loading' | 'ready' | 'error' | 'absent';
  errorCode?: string;
}

/** The first rule the design breaks for generating the base of `jaw`, or null (the other jaw's base and wires do not matter). */
export function checkBaseRules(doc: DesignDocument, jaw: Jaw, model: JawModelState): BaseProblem | null {
  const base = doc.bases?.[jaw];
  if (model.status === 'error' || model.status === 'absent') {
    if (model.errorCode === 'STL_TOO_LARGE' || model.errorCode === 'OUT_OF_MEMORY') return { code: 'MODEL_TOO_LARGE' };
    return { code: 'DATA_EXPIRED' };
  }
  if (!doc.straightening) return { code: 'NOT_STRAIGHTENED' };
  if (doc.wires?.some((w) => w.jaw === jaw)) return { code: 'WIRE_EXISTS' };
  if (!base || base.outline.length < MIN_OUTLINE_POINTS) return { code: 'TOO_FEW_POINTS' };
  if (!(base.height >= MIN_BASE_HEIGHT)) return { code: 'HEIGHT_TOO_LOW' };
  if (model.status !== 'ready') return { code: 'NO_MODEL' };
  return null;
}

/**
 * The jaw's insertion direction in its model's own frame: the analysis's direction for that jaw
 * (canonical frame) or the jaw's canonical occlusal axis, turned back by the rotation of the
 * jaw's bite and straightening (column-major, model → canonical: model = Rᵀ · canonical).
 */
export function insertionInModelFrame(doc: DesignDocument, jaw: Jaw): [number, number, number] {
  const d: Xyz = doc.insertionDirections?.[jaw] ?? (jaw === 'upper' ? [0, 0, -1] : [0, 0, 1]);
  // The jaw's model → canonical frame: its bite, then the straightening.
  const m = modelToCanonical(doc, jaw);
  const out: [number, number, number] = [0, 0, 0];
  for (let j = 0; j < 3; j++) out[j] = m[j * 4]! * d[0] + m[j * 4 + 1]! * d[1] + m[j * 4 + 2]! * d[2];
  const l = Math.hypot(...out) || 1;
  return [out[0] / l, out[1] / l, out[2] / l];
}
