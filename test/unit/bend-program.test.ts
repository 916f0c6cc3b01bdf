// One definition of what a program may ask of a machine: the editor's checks and the server's
// refusals use common/bend-program.ts, so what one accepts the other accepts.
import { describe, expect, it } from 'vitest';
import * as common from '../../common/bend-program.ts';
import * as checks from '../../workers/kernels/bend-checks.ts';

describe('common/bend-program', () => {
  it('is the definition the editor checks with', () => {
    expect(checks.DEFAULT_LIMITS).toBe(common.DEFAULT_LIMITS);
  });

  it('ranges: feed (0, max], rotate (-180, 180], bend [min, max]; non-finite values are outside', () => {
    const at = (s: common.BendStep) => common.stepProblems([s]).map((p) => `${p.field} ${p.range}`);
    expect(at({ feed: 120, rotate: 180, bend: -180 })).toEqual([]);
    expect(at({ feed: 0, rotate: -180, bend: 180.5 })).toEqual(['feed (0, 120]', 'rotate (-180, 180]', 'bend [-180, 180]']);
    expect(at({ feed: Number.NaN, rotate: Number.POSITIVE_INFINITY, bend: 0 })).toEqual(['feed (0, 120]', 'rotate (-180, 180]']);
    // A narrower head: both ends included.
    expect(common.stepProblems([{ feed: 1, rotate: -45, bend: 0 }], { ...common.DEFAULT_LIMITS, maxRotate: 45 })).toEqual([]);
    expect(common.programCapacity(10_000_000)).toBe(common.MAX_PROGRAM_STEPS);
    expect(common.programCapacity(5)).toBe(5);
  });
});
