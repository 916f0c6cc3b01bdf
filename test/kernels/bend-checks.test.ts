// The checks before a wire is sent: each rule with its code and the spec's message, and the
// collision sweep against the default bending head.
import { beforeAll, describe, expect, it } from 'vitest';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import { bendCollision, bendProgram, type Vec3 } from '../../workers/kernels/bend.ts';
import { type BendCheckInput, checkBend } from '../../workers/kernels/bend-checks.ts';
import { loadKernels } from './kernels.ts';

let k: KernelExports;
beforeAll(async () => {
  k = await loadKernels();
});

/** A clean labial-bow-like U: 20 mm legs, 12 mm apart (straights 19, 10, 19 at R = 1). */
const GOOD: Vec3[] = [
  [0, 0, 0],
  [20, 0, 0],
  [20, 12, 0],
  [0, 12, 0],
];

function input(over: Partial<BendCheckInput> = {}): BendCheckInput {
  return {
    points: GOOD,
    wire: { type: 'labialBow', diameter: 0.8 },
    program: { radius: 1 },
    device: { diameters: [0.7, 0.8, 0.9], memory: 10 },
    ...over,
  };
}

const codes = (i: BendCheckInput): string[] => checkBend(k, i).issues.map((x) => x.code);

describe('bend checks', () => {
  it('a good wire passes with no finding', () => {
    const r = checkBend(k, input());
    expect(r.issues).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.program!.steps).toHaveLength(3);
  });

  it('arc angles above 160 are capped at 160, the corners reported (a warning)', () => {
    const a = (170 * Math.PI) / 180;
    const pts: Vec3[] = [
      [0, 0, 0],
      [20, 0, 0],
      [20 + 15 * Math.cos(a), 15 * Math.sin(a), 0],
    ];
    const r = checkBend(k, input({ points: pts }));
    expect(r.issues).toEqual([expect.objectContaining({ code: 'ARC_CAPPED', severity: 'warning', messageKey: 'Arc angles above 160 degrees are capped at 160', corners: [1] })]);
    expect(r.ok).toBe(true);
    expect(r.program!.steps[0]!.bend).toBeCloseTo(160, 9);
    expect(r.program!.detail[0]!.designTurn).toBeCloseTo(170, 9);
  });

  it('start and end straights must be 5 to 100 mm', () => {
    const short = checkBend(k, input({ points: [[0, 0, 0], [5, 0, 0], [5, 12, 0], [0, 12, 0]] }));
    // Start straight 5 - R tan 45° = 4 mm; end 4 mm.
    expect(short.issues.map((i) => [i.code, i.messageKey, i.step])).toEqual([
      ['START_LENGTH', 'valid number from 5 to 100', 0],
      ['END_LENGTH', 'valid number from 5 to 100', 2],
    ]);
    expect(short.issues[0]!.message).toBe('Start straight length: valid number from 5 to 100 (is 4 mm)');
    expect(short.ok).toBe(false);
    const long = codes(input({ points: [[0, 0, 0], [20, 0, 0], [20, 12, 0], [-90, 12, 0]] }));
    expect(long).toEqual(['END_LENGTH']);
    // Exactly 5 and exactly 100 are fine.
    expect(codes(input({ points: [[0, 0, 0], [6, 0, 0], [6, 12, 0], [-95, 12, 0]] }))).toEqual([]);
  });

  it('the wraparound bow first straight is advised at or under 30 mm (a warning)', () => {
    const pts: Vec3[] = [
      [0, 0, 0],
      [40, 0, 0],
      [40, 12, 0],
      [20, 12, 0],
    ];
    const r = checkBend(k, input({ points: pts, wire: { type: 'wraparoundBow', diameter: 0.8 }, skipCollision: true }));
    expect(r.issues.map((i) => [i.code, i.severity, i.messageKey])).toEqual([
      ['WRAPAROUND_FIRST_STRAIGHT', 'warning', 'The wraparound bow first straight section is advised at or under 30 mm'],
    ]);
    expect(r.ok).toBe(true);
    // The same wire as a labial bow: no advice.
    expect(codes(input({ points: pts, skipCollision: true }))).toEqual([]);
  });

  it('the arrow clasp needs a double bend of two arcs', () => {
    const arrow = { type: 'arrowClasp' as const, diameter: 0.8 };
    // Two 90° bends 3 mm apart: 1 mm of straight between the arcs.
    const ok: Vec3[] = [
      [0, 0, 0],
      [10, 0, 0],
      [10, 3, 0],
      [20, 3, 0],
    ];
    expect(codes(input({ points: ok, wire: arrow }))).toEqual([]);
    const apart: Vec3[] = [
      [0, 0, 0],
      [10, 0, 0],
      [10, 8, 0],
      [20, 8, 0],
    ];
    const r = checkBend(k, input({ points: apart, wire: arrow }));
    expect(r.issues.map((i) => [i.code, i.messageKey])).toEqual([['ARROW_DOUBLE_BEND', 'The arrow clasp needs a double bend of two arcs']]);
    expect(r.ok).toBe(false);
    expect(codes(input({ points: [[0, 0, 0], [30, 0, 0]], wire: arrow }))).toEqual(['ARROW_DOUBLE_BEND']);
  });

  it('the diameter must be one the device takes', () => {
    const r = checkBend(k, input({ wire: { type: 'labialBow', diameter: 1.0 } }));
    expect(r.issues.map((i) => [i.code, i.messageKey, i.message])).toEqual([
      ['DIAMETER_MISMATCH', 'diameter mismatch', 'Wire diameter mismatch: the device takes 0.7, 0.8, 0.9 mm, not 1 mm'],
    ]);
  });

  it('the program must fit the device memory', () => {
    const r = checkBend(k, input({ device: { diameters: [0.8], memory: 2 } }));
    expect(r.issues.map((i) => [i.code, i.messageKey, i.message])).toEqual([
      ['OVER_MEMORY', 'Wire data over machine memory', 'Wire data over machine memory (3 steps, the device holds 2)'],
    ]);
    expect(codes(input({ device: { diameters: [0.8], memory: 3 } }))).toEqual([]);
  });

  it('every step within the machine limits: feed, bend range, rotate range', () => {
    expect(codes(input({ limits: { maxFeed: 15 } }))).toEqual(['FEED_LIMIT', 'FEED_LIMIT']);
    const bend = checkBend(k, input({ limits: { maxBend: 80 } }));
    expect(bend.issues.map((i) => [i.code, i.step])).toEqual([
      ['BEND_LIMIT', 0],
      ['BEND_LIMIT', 1],
    ]);
    expect(bend.issues[0]!.message).toBe("Step 1: bend 90° is outside the machine's -180° to 80°");
    // The out-of-plane Z turns the bend plane by -90.
    const z: Vec3[] = [
      [0, 0, 0],
      [20, 0, 0],
      [20, 20, 0],
      [20, 20, 20],
    ];
    expect(codes(input({ points: z, limits: { maxRotate: 45 } }))).toEqual(['ROTATE_LIMIT']);
    expect(codes(input({ points: z }))).toEqual([]);
  });

  it('a wire that curls back into the head collides on the bend that swings it there', () => {
    // Legs 30 mm, 2 mm apart: the second bend swings the first leg back along the feed tube.
    const curl: Vec3[] = [
      [0, 0, 0],
      [30, 0, 0],
      [30, 2.2, 0],
      [0, 2.2, 0],
    ];
    const p = bendProgram(k, curl, { radius: 1 });
    const hit = bendCollision(k, p.steps, { radius: 1, diameter: 0.8 });
    expect(hit).toMatchObject({ step: 1, phase: 'bend' });
    expect(hit!.angle).toBeGreaterThan(0);
    expect(hit!.angle).toBeLessThanOrEqual(90);
    // The contact is on the feed tube's nose (x from -73 to -3, |y|, |z| <= 2.5, grown by 0.4).
    expect(hit!.point[0]).toBeLessThan(-2.6);
    expect(Math.abs(hit!.point[1])).toBeLessThanOrEqual(2.9);
    const r = checkBend(k, input({ points: curl }));
    expect(r.issues.map((i) => [i.code, i.messageKey, i.step])).toEqual([['COLLISION', 'the bending path collided with the machine and was skipped', 1]]);
    expect(r.ok).toBe(false);
    // The same legs 12 mm apart clear the head; with no head nothing collides.
    expect(bendCollision(k, bendProgram(k, GOOD, { radius: 1 }).steps, { radius: 1, diameter: 0.8 })).toBeNull();
    expect(bendCollision(k, p.steps, { radius: 1, diameter: 0.8, head: [] })).toBeNull();
  });

  it('the rotation sweeps the bent wire: rotate +90 carries a standing leg down into a table below', () => {
    // A head that is only a table 6 mm below the feed axis. After the first bend the tip leg
    // stands along +Y; rotate +90 turns the bend direction to +Z, i.e. the wire by -90 about +X,
    // so the leg swings down (+Y to -Z) and meets the table on the way.
    const table = [{ min: [-100, -100, -60], max: [100, 100, -6] }] as const;
    const down: Vec3[] = [
      [0, 0, 0],
      [20, 0, 0],
      [20, 20, 0],
      [20, 20, -20],
    ];
    const p = bendProgram(k, down, { radius: 1 });
    expect(p.steps[1]!.rotate).toBeCloseTo(90, 9);
    const hit = bendCollision(k, p.steps, { radius: 1, diameter: 0.8, head: table });
    expect(hit).toMatchObject({ step: 1, phase: 'rotate' });
    expect(hit!.angle).toBeGreaterThan(10);
    expect(hit!.angle).toBeLessThan(45);
    expect(hit!.point[2]).toBeLessThan(-5.6);
    // Its mirror image rotates -90: the leg swings up and clears the table.
    const up: Vec3[] = down.map(([x, y, z]) => [x, y, -z]);
    const q = bendProgram(k, up, { radius: 1 });
    expect(q.steps[1]!.rotate).toBeCloseTo(-90, 9);
    expect(bendCollision(k, q.steps, { radius: 1, diameter: 0.8, head: table })).toBeNull();
  });

  it('a long leg swung back past the face of the machine body collides during the bend', () => {
    // The body's face is 73 mm behind the die exit: a 90 mm leg swung back reaches it.
    const long: Vec3[] = [
      [0, 0, 0],
      [90, 0, 0],
      [90, 10, 0],
      [80, 10, 0],
    ];
    const hit = bendCollision(k, bendProgram(k, long, { radius: 1 }).steps, { radius: 1, diameter: 0.8 });
    expect(hit).toMatchObject({ step: 1, phase: 'bend' });
    expect(hit!.point[0]).toBeLessThan(-42.6);
  });

  it('a wire that cannot be bent is one finding, not an exception', () => {
    const r = checkBend(k, input({ points: [[0, 0, 0], [10, 0, 0], [10, 1, 0], [0, 1, 0]] }));
    expect(r.issues.map((i) => i.code)).toEqual(['WIRE_INVALID']);
    expect(r.program).toBeNull();
  });
});
