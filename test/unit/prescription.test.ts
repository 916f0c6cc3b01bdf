// The automatic design's prescription (common/prescription.ts): the default passes its own
// check; teeth of the other jaw, a wrong count, an arrow clasp between teeth that do not touch and
// unknown fields are refused with a reason.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRESCRIPTION, isPrescription } from '../../common/prescription.ts';
import { prescriptionSchema } from '../../common/prescription-schema.ts';

describe('prescription', () => {
  it('accepts the default and a jaw left out', () => {
    expect(prescriptionSchema.safeParse(DEFAULT_PRESCRIPTION).success).toBe(true);
    expect(isPrescription(DEFAULT_PRESCRIPTION)).toBe(true);
    expect(prescriptionSchema.safeParse({ ...DEFAULT_PRESCRIPTION, lower: null }).success).toBe(true);
    const arrow = { wires: [{ type: 'arrowClasp', teeth: [4, 3] }], base: true, diameter: 0.9 };
    expect(prescriptionSchema.safeParse({ upper: arrow, lower: null }).success).toBe(true);
    expect(isPrescription({ upper: arrow, lower: null })).toBe(true);
  });

  it('refuses teeth of the other jaw, wrong counts, non-neighbours, bad diameters and unknown fields', () => {
    const jaw = (wires: unknown[], extra: object = {}) => ({ upper: { wires, base: true, diameter: 0.8, ...extra }, lower: null });
    const bad = [
      jaw([{ type: 'singleArmClasp', teeth: [30] }]),
      jaw([{ type: 'singleArmClasp', teeth: [3, 4] }]),
      jaw([{ type: 'labialBow', teeth: [6] }]),
      jaw([{ type: 'labialBow', teeth: [6, 6] }]),
      jaw([{ type: 'arrowClasp', teeth: [4, 6] }]),
      jaw([{ type: 'hook', teeth: [3] }]),
      jaw([{ type: 'singleArmClasp', teeth: [0] }]),
      jaw([], { diameter: 0.75 }),
      jaw([], { script: 'x' }),
      { upper: null },
    ];
    for (const p of bad) {
      expect(prescriptionSchema.safeParse(p).success, JSON.stringify(p)).toBe(false);
      expect(isPrescription(p), JSON.stringify(p)).toBe(false); // the browser's pure check agrees
    }
    const r = prescriptionSchema.safeParse(jaw([{ type: 'arrowClasp', teeth: [4, 6] }]));
    expect(r.error?.issues[0]?.message).toMatch(/not neighbours/);
  });
});
