// Prescriptions on the server: the lab's default (system param aiPrescription, else
// DEFAULT_PRESCRIPTION), an order's own, and the one check every path runs (common/prescription.ts
// prescriptionSchema), answered with a message that names the jaw, the wire and the teeth (as
// Universal numbers with their FDI names) in the caller's language.
import { PRESCRIPTION_PARAM_KEY } from '../../../common/ai.ts';
import { DEFAULT_PRESCRIPTION, PRESCRIPTION_TEETH, prescriptionProblem, type Prescription, type PrescriptionProblemCode } from '../../../common/prescription.ts';
import { prescriptionSchema } from '../../../common/prescription-schema.ts';
import { universalToFdi, type Jaw } from '../../../common/teeth.ts';
import type { WireType } from '../../../common/wires.ts';
import { Code } from '../../core/envelope.ts';
import { ApiError } from '../../core/errors.ts';
import { t, type Lang, type MessageKey } from '../../core/i18n.ts';
import type { Db } from '../../db/index.ts';
import { validationError } from '../../core/validate.ts';

const WIRE_NAMES: Record<WireType, MessageKey> = {
  labialBow: 'wireLabialBow',
  singleArmClasp: 'wireSingleArmClasp',
  arrowClasp: 'wireArrowClasp',
  wraparoundBow: 'wireWraparoundBow',
};

const PROBLEM_MESSAGES: Record<Exclude<PrescriptionProblemCode, 'TEETH_COUNT'>, MessageKey> = {
  WRONG_JAW: 'prescriptionWrongJaw',
  NOT_NEIGHBOURS: 'prescriptionNotNeighbours',
  SAME_TEETH: 'prescriptionSameTeeth',
};

const teethText = (teeth: readonly number[]) => teeth.map((n) => (n >= 1 && n <= 32 ? `${n} (FDI ${universalToFdi(n)})` : String(n))).join(', ');

/**
 * The prescription in `value`, checked; throws 1002 with a message naming the problem. `field`:
 * the body's name for it (prescription, data).
 */
export function checkPrescription(lang: Lang, value: unknown, field: string): Prescription {
  const parsed = prescriptionSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  // The shape first (types, diameters, unknown keys): "<field>.upper.wires.0.type is invalid".
  const custom = parsed.error.issues.find((i) => i.code === 'custom');
  if (!custom) throw validationError(parsed.error.issues.map((i) => ({ path: [field, ...i.path] })), { [field]: value });
  const jaw = custom.path[0] as Jaw;
  const problem = prescriptionProblem(jaw, (value as Prescription)[jaw]!);
  if (!problem) throw new ApiError(Code.validation, 'fieldInvalid', 200, { field: `${field}.${jaw}` });
  const w = problem.wire;
  const params = { field: `${field}.${jaw}`, jaw: t(lang, jaw === 'upper' ? 'jawUpper' : 'jawLower'), wire: t(lang, WIRE_NAMES[w.type]), teeth: teethText(w.teeth) };
  if (problem.code === 'TEETH_COUNT') throw new ApiError(Code.validation, 'prescriptionTeethCount', 200, { ...params, count: PRESCRIPTION_TEETH[w.type] });
  throw new ApiError(Code.validation, PROBLEM_MESSAGES[problem.code], 200, params);
}

/** The lab's default: the param's prescription when it is one, else DEFAULT_PRESCRIPTION. */
export async function labPrescription(db: Db): Promise<Prescription> {
  const row = await db.selectFrom('base_sys_param').select('data').where('keyName', '=', PRESCRIPTION_PARAM_KEY).executeTakeFirst();
  if (!row?.data) return DEFAULT_PRESCRIPTION;
  try {
    const parsed = prescriptionSchema.safeParse(JSON.parse(row.data));
    return parsed.success ? parsed.data : DEFAULT_PRESCRIPTION;
  } catch {
    return DEFAULT_PRESCRIPTION;
  }
}

/** The prescription an order is designed with: its own (JSON column) or the lab's. */
export async function orderPrescription(db: Db, stored: string | null): Promise<Prescription> {
  if (stored) {
    try {
      const parsed = prescriptionSchema.safeParse(JSON.parse(stored));
      if (parsed.success) return parsed.data;
    } catch {
      // a stored value that no longer parses: the lab's
    }
  }
  return labPrescription(db);
}
