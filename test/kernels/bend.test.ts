// Bending programs on analytic wires with known programs: design -> program (inverse
// kinematics) -> wire (forward kinematics) = design. Conventions: docs/device-bridge.md.
import { beforeAll, describe, expect, it } from 'vitest';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import { bendProgram, bendStates, placeOnDesign, simulateBend, transformPoints, type Vec3 } from '../../workers/kernels/bend.ts';
import { loadKernels } from './kernels.ts';

let k: KernelExports;
beforeAll(async () => {
  k = await loadKernels();
});

const HALF_PI_ARC = Math.PI / 2; // arc material of a 90° bend at R = 1

/** Largest distance between the reconstructed corners, placed on the design, and the design. */
function roundTripError(design: readonly Vec3[], corners: Float64Array): number {
  expect(corners.length).toBe(design.length * 3);
  const placed = transformPoints(placeOnDesign(corners, design), corners);
  let worst = 0;
  design.forEach((p, i) => {
    worst = Math.max(worst, Math.hypot(placed[i * 3]! - p[0], placed[i * 3 + 1]! - p[1], placed[i * 3 + 2]! - p[2]));
  });
  return worst;
}

function polylineLength(p: Float64Array): number {
  let sum = 0;
  for (let i = 3; i < p.length; i += 3) sum += Math.hypot(p[i]! - p[i - 3]!, p[i + 1]! - p[i - 2]!, p[i + 2]! - p[i - 1]!);
  return sum;
}

const U: Vec3[] = [
  [0, 0, 0],
  [10, 0, 0],
  [10, 6, 0],
  [0, 6, 0],
];

describe('bending program', () => {
  it('a straight wire is one feed of its length, also through a collinear point', () => {
    const p = bendProgram(k, [[0, 0, 0], [20, 0, 0], [50, 0, 0]], { radius: 1 });
    expect(p.steps).toEqual([{ feed: 50, rotate: 0, bend: 0 }]);
    expect(p.length).toBeCloseTo(50, 9);
    const s = simulateBend(k, p.steps, { radius: 1 });
    // Head frame: fed along +X, the tip 50 mm out, the end at the die exit.
    expect(Array.from(s.corners)).toEqual([50, 0, 0, 0, 0, 0]);
  });

  it('a planar U-bend: two 90° bends in one plane, rotate 0; feeds with the arc material by default', () => {
    const p = bendProgram(k, U, { radius: 1 });
    // Tangent length R tan(45°) = 1: straights 10 - 1, 6 - 2, 10 - 1; arcs R·π/2.
    const want = [
      [9 + HALF_PI_ARC, 0, 90],
      [4 + HALF_PI_ARC, 0, 90],
      [9, 0, 0],
    ];
    expect(p.steps).toHaveLength(3);
    p.steps.forEach((s, i) => {
      expect(s.feed).toBeCloseTo(want[i]![0]!, 9);
      expect(s.rotate).toBe(want[i]![1]);
      expect(s.bend).toBeCloseTo(want[i]![2]!, 9);
    });
    expect(p.detail.map((d) => d.straight)).toEqual([9, 4, 9].map((v) => expect.closeTo(v, 9)));
    expect(p.detail.map((d) => d.corner)).toEqual([1, 2, 3]);
    // The sum of the feeds is the developed length.
    expect(p.steps.reduce((a, s) => a + s.feed, 0)).toBeCloseTo(22 + Math.PI, 9);
    expect(p.length).toBeCloseTo(22 + Math.PI, 9);
  });

  it('the U-bend with feed excluding the arc material: straights only, same wire', () => {
    const p = bendProgram(k, U, { radius: 1, feedIncludesArc: false });
    expect(p.steps.map((s) => s.feed)).toEqual([9, 4, 9].map((v) => expect.closeTo(v, 9)));
    const s = simulateBend(k, p.steps, { radius: 1, feedIncludesArc: false });
    expect(roundTripError(U, s.corners)).toBeLessThan(0.01);
    // Read with the other convention the same numbers make another wire.
    const wrong = simulateBend(k, p.steps, { radius: 1 });
    expect(roundTripError(U, wrong.corners)).toBeGreaterThan(1);
  });

  it('the U-bend in the head frame: the worked example of docs/device-bridge.md', () => {
    const p = bendProgram(k, U, { radius: 1 });
    const s = simulateBend(k, p.steps, { radius: 1 });
    // Tip (design point 0), the corners, the end at the die exit; bends swing toward +Y.
    const c = Array.from(s.corners).map((v) => Math.round(v * 1e6) / 1e6 + 0);
    expect(c).toEqual([0, 6, 0, 10, 6, 0, 10, 0, 0, 0, 0, 0]);
    const first = simulateBend(k, p.steps, { radius: 1, upto: 1 });
    // After step 1: the first leg swung to +Y around the die centre (0, 1, 0); its corner at
    // (R tan 45°, 0, 0); the wire ends at the die exit.
    expect(Array.from(first.corners).map((v) => Math.round(v * 1e6) / 1e6 + 0)).toEqual([1, 10, 0, 1, 0, 0, 0, 0, 0]);
    // After step 2: the first leg points back over the head, 6 mm off the feed axis.
    const second = simulateBend(k, p.steps, { radius: 1, upto: 2 });
    expect(Array.from(second.corners).map((v) => Math.round(v * 1e6) / 1e6 + 0)).toEqual([-9, 6, 0, 1, 6, 0, 1, 0, 0, 0, 0, 0]);
    // With 4° of springback at 90° the job bends to 94, feeds unchanged.
    const sb = bendProgram(k, U, { radius: 1, springback: [[90, 4]] });
    expect(sb.steps.map((s) => [s.feed, s.bend])).toEqual(p.steps.map((s) => [s.feed, s.bend === 0 ? 0 : 94]));
  });

  it('an L then an out-of-plane Z: rotate -90 (the bend direction turns from +Y to -Z)', () => {
    const Z: Vec3[] = [
      [0, 0, 0],
      [20, 0, 0],
      [20, 20, 0],
      [20, 20, 20],
    ];
    const p = bendProgram(k, Z, { radius: 1 });
    expect(p.steps.map((s) => [s.rotate, s.bend])).toEqual([
      [0, 90],
      [-90, expect.closeTo(90, 9)],
      [0, 0],
    ]);
    const s = simulateBend(k, p.steps, { radius: 1 });
    expect(roundTripError(Z, s.corners)).toBeLessThan(0.01);
    // The mirror image needs the opposite rotation.
    const mirror: Vec3[] = Z.map(([x, y, z]) => [x, y, -z]);
    expect(bendProgram(k, mirror, { radius: 1 }).steps[1]!.rotate).toBeCloseTo(90, 9);
    // A head that bends both ways: rotate in (-90, 90], so +90 with a negative bend.
    const both = bendProgram(k, Z, { radius: 1, bidirectional: true });
    expect([both.steps[1]!.rotate, both.steps[1]!.bend]).toEqual([expect.closeTo(90, 9), expect.closeTo(-90, 9)]);
    expect(roundTripError(Z, simulateBend(k, both.steps, { radius: 1, bidirectional: true }).corners)).toBeLessThan(0.01);
  });

  it('a planar S: rotate 180 with one-way bends, rotate 0 and a negative bend on a two-way head', () => {
    const S: Vec3[] = [
      [0, 0, 0],
      [10, 0, 0],
      [10, 8, 0],
      [20, 8, 0],
    ];
    const one = bendProgram(k, S, { radius: 1 });
    expect(one.steps.map((s) => [s.rotate, Math.round(s.bend)])).toEqual([
      [0, 90],
      [180, 90],
      [0, 0],
    ]);
    const both = bendProgram(k, S, { radius: 1, bidirectional: true });
    expect(both.steps.map((s) => [s.rotate, Math.round(s.bend)])).toEqual([
      [0, 90],
      [0, -90],
      [0, 0],
    ]);
    expect(roundTripError(S, simulateBend(k, one.steps, { radius: 1 }).corners)).toBeLessThan(0.01);
    expect(roundTripError(S, simulateBend(k, both.steps, { radius: 1, bidirectional: true }).corners)).toBeLessThan(0.01);
  });

  it('a helix-like wire: the same bend and rotate at every corner, and the round trip', () => {
    const r = 10;
    const alpha = (30 * Math.PI) / 180;
    const h = 2;
    const helix: Vec3[] = [];
    for (let i = 0; i <= 12; i++) helix.push([r * Math.cos(i * alpha), r * Math.sin(i * alpha), h * i]);
    const d = (i: number): Vec3 => {
      const a = helix[i]!;
      const b = helix[i + 1]!;
      const l = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
      return [(b[0] - a[0]) / l, (b[1] - a[1]) / l, (b[2] - a[2]) / l];
    };
    const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
    // Independent expectations: the turn between segments, and minus the signed angle between
    // successive bend planes' normals about the segment between them.
    const turn = (Math.acos(dot(d(0), d(1))) * 180) / Math.PI;
    const n1 = cross(d(0), d(1));
    const n2 = cross(d(1), d(2));
    const rotate = (-Math.atan2(dot(cross(n1, n2), d(1)), dot(n1, n2)) * 180) / Math.PI;
    expect(rotate).toBeLessThan(0); // a right-handed helix turns the bend plane the negative way

    for (const R of [0, 1, 2]) {
      const p = bendProgram(k, helix, { radius: R });
      expect(p.steps).toHaveLength(12);
      p.steps.slice(0, 11).forEach((s, i) => {
        expect(s.bend).toBeCloseTo(turn, 9);
        expect(s.rotate).toBeCloseTo(i === 0 ? 0 : rotate, 9);
      });
      // Inner feeds are equal too: chord minus two tangent lengths plus the arc.
      const chord = Math.hypot(2 * r * Math.sin(alpha / 2), h);
      const t = R * Math.tan((turn * Math.PI) / 360);
      const arc = (R * turn * Math.PI) / 180;
      p.steps.slice(1, 11).forEach((s) => expect(s.feed).toBeCloseTo(chord - 2 * t + arc, 9));
      expect(roundTripError(helix, simulateBend(k, p.steps, { radius: R }).corners)).toBeLessThan(0.01);
    }
  });

  it('corners closer than their arcs need are refused', () => {
    expect(() => bendProgram(k, [[0, 0, 0], [10, 0, 0], [10, 1, 0], [0, 1, 0]], { radius: 1 })).toThrow(/BAD_INPUT: the segment after point 1 is too short/);
    expect(() => bendProgram(k, [[1, 1, 1], [1, 1, 1]], { radius: 1 })).toThrow(/no length/);
  });

  it('the wire after each step: the developed length grows by each feed', () => {
    const p = bendProgram(k, U, { radius: 1 });
    const states = bendStates(k, p.steps, { radius: 1, arcSegDeg: 1 });
    expect(states.map((s) => s.steps)).toEqual([1, 2, 3]);
    let fed = 0;
    states.forEach((s, i) => {
      fed += p.steps[i]!.feed;
      expect(polylineLength(s.points)).toBeCloseTo(fed, 3);
    });
    // The last state is the finished wire; its polyline runs from the tip to the die exit.
    const last = states[2]!.points;
    expect(Array.from(last.slice(0, 3))).toEqual(Array.from(states[2]!.corners.slice(0, 3)));
    expect(Array.from(last.slice(-3))).toEqual([0, 0, 0]);
  });
});
