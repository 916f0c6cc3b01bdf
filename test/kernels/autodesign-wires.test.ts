// The automatic design's wires against the goals of the specification (workers/design/
// autodesign.ts, docs/autodesign.md) beyond the default design (autodesign.test.ts): a wire that
// meets the bending head is left out with the specification's reason, and a failed bite
// registration is ignored as the editor ignores it.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRESCRIPTION } from '../../common/prescription.ts';
import { compileKernels } from '../../workers/kernels/abi.ts';
import { autodesign } from '../../workers/design/autodesign.ts';
import { teethJaw } from '../fixtures/teeth-jaws.ts';
import { WASM_PATH } from './kernels.ts';

let module: WebAssembly.Module;
beforeAll(async () => {
  module = await compileKernels(readFileSync(WASM_PATH));
});

describe('automatic design: collision, bite', () => {
  const upper = teethJaw({ jaw: 'upper' });
  const lower = teethJaw({ jaw: 'lower' });

  it('leaves out a wire whose bending path meets the machine, with the specification reason, and keeps the others', async () => {
    // a head whose body stands right in front of the die: the first feed of every wire runs into it
    const head = [{ min: [0.5, -50, -50], max: [60, 50, 50] }] as const;
    const r = await autodesign(module, { lower, prescription: { upper: null, lower: DEFAULT_PRESCRIPTION.lower } }, { head });
    expect(r.report.map((x) => [x.type, x.status, x.code])).toEqual([
      ['singleArmClasp', 'failed', 'COLLISION'],
      ['singleArmClasp', 'failed', 'COLLISION'],
      ['labialBow', 'failed', 'COLLISION'],
    ]);
    expect(r.report[0]!.message).toBe('The bending path of the single-arm clasp on tooth 46 collided with the machine and was skipped');
    expect(r.report[0]!.detail).toMatch(/collided with the machine/);
    expect(r.document.wires).toEqual([]);
  }, 120_000);

  it('ignores a failed registration (the editor does too)', async () => {
    const r = await autodesign(module, { upper, lower, prescription: DEFAULT_PRESCRIPTION, bite: { upper: [1], lower: [2], error: 'no overlap', code: 'BITE_NO_OVERLAP' } });
    expect(r.document.bite).toBeUndefined();
    expect(r.report.every((x) => x.status === 'placed')).toBe(true);
  }, 120_000);
});
