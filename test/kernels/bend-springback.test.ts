// Springback tables: interpolation, the edges (clamped), the inverse, and a compensated program
// that bends back to the design.
import { beforeAll, describe, expect, it } from 'vitest';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import { bendProgram, placeOnDesign, programDeviation, simulateBend, transformPoints, type Vec3 } from '../../workers/kernels/bend.ts';
import { compensateAngle, type SpringbackTable, springbackAt, springbackResult, springbackTableProblem } from '../../workers/kernels/bend-springback.ts';
import { loadKernels } from './kernels.ts';

let k: KernelExports;
beforeAll(async () => {
  k = await loadKernels();
});

const TABLE: SpringbackTable = [
  [10, 2],
  [45, 4],
  [90, 6],
  [150, 9],
];

describe('springback', () => {
  it('interpolates linearly between rows and clamps outside them', () => {
    expect(springbackAt(TABLE, 10)).toBe(2);
    expect(springbackAt(TABLE, 27.5)).toBeCloseTo(3, 12);
    expect(springbackAt(TABLE, 60)).toBeCloseTo(4 + (2 * 15) / 45, 12);
    expect(springbackAt(TABLE, 150)).toBe(9);
    // Below the first row and above the last: the end rows' values, not extrapolated.
    expect(springbackAt(TABLE, 3)).toBe(2);
    expect(springbackAt(TABLE, 175)).toBe(9);
    // Negative bends use |angle|.
    expect(springbackAt(TABLE, -60)).toBeCloseTo(springbackAt(TABLE, 60), 12);
    expect(springbackAt(undefined, 60)).toBe(0);
    expect(springbackAt([], 60)).toBe(0);
  });

  it('compensates: target + springback(target), signed; and the inverse gives the target back', () => {
    expect(compensateAngle(TABLE, 90)).toBe(96);
    expect(compensateAngle(TABLE, -90)).toBe(-96);
    expect(compensateAngle(TABLE, 0)).toBe(0);
    for (let a = -179; a <= 179; a += 0.5) {
      expect(springbackResult(TABLE, compensateAngle(TABLE, a))).toBeCloseTo(a, 9);
    }
    // One row: a constant springback.
    expect(springbackResult([[90, 5]], compensateAngle([[90, 5]], 30))).toBeCloseTo(30, 12);
  });

  it('refuses a table whose compensation would not rise with the target', () => {
    expect(springbackTableProblem(TABLE)).toBeNull();
    expect(springbackTableProblem([[10, 2], [10, 3]])).toMatch(/angles must rise/);
    expect(springbackTableProblem([[10, 20], [20, 5]])).toMatch(/must rise with the target/);
    expect(() => bendProgram(k, [[0, 0, 0], [10, 0, 0], [10, 10, 0]], { radius: 1, springback: [[10, 20], [20, 5]] })).toThrow(/springback table/);
  });

  it('a compensated program bends over and springs back to the design', () => {
    const design: Vec3[] = [
      [0, 0, 0],
      [15, 0, 0],
      [15, 10, 0],
      [15, 10, 12],
      [3, 14, 12],
    ];
    const p = bendProgram(k, design, { radius: 1.5, springback: TABLE });
    p.detail.slice(0, -1).forEach((s) => {
      expect(s.bend).toBeCloseTo(s.target + springbackAt(TABLE, s.target), 12);
      expect(s.bend).toBeGreaterThan(s.target);
    });
    const kept = simulateBend(k, p.steps, { radius: 1.5, springback: TABLE });
    const placed = transformPoints(placeOnDesign(kept.corners, design), kept.corners);
    design.forEach((q, i) => {
      expect(Math.hypot(placed[i * 3]! - q[0], placed[i * 3 + 1]! - q[1], placed[i * 3 + 2]! - q[2])).toBeLessThan(0.01);
    });
    // The inverse check the editor runs before sending, with the right and a wrong table.
    expect(programDeviation(k, design, p.steps, { radius: 1.5, springback: TABLE })).toBeLessThan(0.01);
    expect(programDeviation(k, design, p.steps, { radius: 1.5, springback: [[0, 1]] })).toBeGreaterThan(1);
    // Without springback the same program would leave the wire overbent, off the design.
    const overbent = simulateBend(k, p.steps, { radius: 1.5 });
    const off = transformPoints(placeOnDesign(overbent.corners, design), overbent.corners);
    const last = design.length - 1;
    expect(Math.hypot(off[last * 3]! - design[last]![0], off[last * 3 + 1]! - design[last]![1], off[last * 3 + 2]! - design[last]![2])).toBeGreaterThan(1);
  });
});
