// The bending head model: the default head lets a wraparound bow be bent (its nearly finished arch
// swings about 55 mm behind the die exit on the last bends, clear of the machine body), a head that
// is too big stops it, and a device's head model is held to its limits.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HEAD, type HeadBox, headProblem, HEAD_LIMITS } from '../../common/bend-program.ts';
import { headRowsSchema, headSchema, parseHead } from '../../common/device-request.ts';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import { bendCollision, bendProgram, simulateBend } from '../../workers/kernels/bend.ts';
import { checkBend } from '../../workers/kernels/bend-checks.ts';
import { WRAPAROUND_BOW } from '../fixtures/wraparound-bow.ts';
import { loadKernels } from './kernels.ts';

let k: KernelExports;
beforeAll(async () => {
  k = await loadKernels();
});

const WIRE = { type: 'wraparoundBow', diameter: 0.8 } as const;
const device = { diameters: [0.8], memory: 100 };

/** The default head with its nose `length` mm long and `half` mm from the feed axis. */
function head(length: number, half = 2.5): HeadBox[] {
  const face = -3 - length;
  return [
    { min: [face, -half, -half], max: [-3, half, half] },
    { min: [face - 200, -100, -100], max: [face, 100, 100] },
  ];
}

describe('the wraparound bow and the bending head', () => {
  it('passes every check, the collision sweep included, with the default head', () => {
    const r = checkBend(k, { points: WRAPAROUND_BOW, wire: WIRE, program: { radius: 1 }, device });
    expect(r.issues).toEqual([]);
    expect(r.program!.steps).toHaveLength(38);
  });

  it("swings its arch about 55 mm behind the die exit, short of the default body's face", () => {
    const p = bendProgram(k, WRAPAROUND_BOW, { radius: 1 });
    let behind = 0;
    for (let s = 1; s <= p.steps.length; s++) {
      const { points } = simulateBend(k, p.steps, { radius: 1, upto: s });
      for (let i = 0; i < points.length; i += 3) behind = Math.max(behind, -points[i]!);
    }
    expect(behind).toBeGreaterThan(50);
    // The default body's face (73 mm behind the die) leaves it room, with more than the wire's radius to spare.
    expect(-DEFAULT_HEAD[1]!.max[0] - behind).toBeGreaterThan(WIRE.diameter / 2 + 5);
  });

  it('collides with the old head, whose body face stood 43 mm behind the die: step 31 of 38, during the bend', () => {
    const p = bendProgram(k, WRAPAROUND_BOW, { radius: 1 });
    const hit = bendCollision(k, p.steps, { radius: 1, diameter: 0.8, head: head(40) });
    expect(hit).toMatchObject({ step: 30, phase: 'bend' });
    // The contact is on the body's face.
    expect(hit!.point[0]).toBeLessThan(-42.5);
  });

  it('collides with a head that is too big: a fat nose, or a body too close', () => {
    const p = bendProgram(k, WRAPAROUND_BOW, { radius: 1 });
    const fat = bendCollision(k, p.steps, { radius: 1, diameter: 0.8, head: head(70, 8) });
    expect(fat).not.toBeNull();
    expect(fat!.step).toBeGreaterThan(0);
    expect(bendCollision(k, p.steps, { radius: 1, diameter: 0.8, head: head(47) })).toMatchObject({ step: 30 });
    // Through the checks as the editor runs them for a device with such a head.
    const r = checkBend(k, { points: WRAPAROUND_BOW, wire: WIRE, program: { radius: 1 }, device, head: head(70, 8) });
    expect(r.issues.map((i) => i.code)).toEqual(['COLLISION']);
    expect(r.ok).toBe(false);
  });
});

describe('a device head model', () => {
  it('the default head is a valid model', () => {
    expect(headProblem(DEFAULT_HEAD)).toBeNull();
    expect(headRowsSchema.safeParse(DEFAULT_HEAD).success).toBe(true);
  });

  it('refuses no boxes, too many, an inverted or flat box, coordinates out of range and a box over the die', () => {
    const box = (min: [number, number, number], max: [number, number, number]): HeadBox => ({ min, max });
    expect(headProblem([])).toMatch(/1 to 16 boxes/);
    expect(headProblem(Array.from({ length: HEAD_LIMITS.maxBoxes + 1 }, () => DEFAULT_HEAD[0]!))).toMatch(/boxes/);
    expect(headProblem([box([-10, -1, -1], [-20, 1, 1])])).toMatch(/box 1: min must be below max/);
    expect(headProblem([box([-10, -1, -1], [-10.05, 1, 1])])).toMatch(/box 1: min must be below max/);
    expect(headProblem([DEFAULT_HEAD[0]!, box([-2000, -1, -1], [-10, 1, 1])])).toMatch(/box 2: coordinates/);
    expect(headProblem([box([-5, -5, -5], [5, 5, 5])])).toMatch(/box 1: reaches within 1 mm of the die exit/);
    // Touching the die's clearance cube from outside is allowed (a table 1 mm below, say).
    expect(headProblem([box([-50, -50, -20], [50, 50, -1])])).toBeNull();
    expect(headRowsSchema.safeParse([box([-5, -5, -5], [5, 5, 5])]).success).toBe(false);
    expect(headRowsSchema.safeParse([{ min: [0, 0], max: [1, 1, 1] }]).success).toBe(false);
  });

  it('is stored as JSON text, null for the default head, and read back', () => {
    expect(headSchema.parse(null)).toBeNull();
    expect(headSchema.parse('')).toBeNull();
    const text = headSchema.parse(head(60));
    expect(parseHead(text)).toEqual(head(60));
    expect(headSchema.parse(text)).toBe(text);
    expect(parseHead(null)).toBeNull();
    expect(headSchema.safeParse('not json').success).toBe(false);
  });
});
