// The 2D triangulation under every base (workers/kernels/base-grid.ts) on
// seeded random outlines: counter-clockwise triangles, conforming (every edge
// in at most two triangles, the border a set of simple loops), the polygon's
// area within a cell's width along its perimeter, and self-crossing outlines
// refused.

import { describe, expect, it } from 'vitest';
import { boundaryEdges, makeGrid, polygonProblem, signedArea, triangulateDomain } from '../../workers/kernels/base-grid.ts';
import { random } from '../fixtures/mesh.ts';

/** A star-shaped polygon with `n` points, radii between r/2 and r, counter-clockwise. */
function star(n: number, r: number, rnd: () => number): { xs: Float64Array; ys: Float64Array } {
  const xs = new Float64Array(n), ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * (i + 0.3 * rnd())) / n;
    const rr = r * (0.5 + 0.5 * rnd());
    xs[i] = 3 + rr * Math.cos(a);
    ys[i] = -2 + rr * Math.sin(a);
  }
  return { xs, ys };
}

function perimeter(xs: Float64Array, ys: Float64Array): number {
  let p = 0;
  for (let i = 0, j = xs.length - 1; i < xs.length; j = i++) p += Math.hypot(xs[i]! - xs[j]!, ys[i]! - ys[j]!);
  return p;
}

describe('outline triangulation', () => {
  it('is conforming, counter-clockwise and as large as the polygon on random star outlines', () => {
    const rnd = random(7);
    for (let c = 0; c < 40; c++) {
      const { xs, ys } = star(5 + Math.floor(rnd() * 60), 2 + rnd() * 12, rnd);
      const step = [0.1, 0.25, 0.5][c % 3]!;
      expect(polygonProblem(xs, ys, 0)).toBeNull();
      const g = makeGrid(xs, ys, step);
      const d = triangulateDomain(xs, ys, g);
      const T = d.triangles;
      // Counted, then asserted once: an expect per triangle made this test take 10-30 s.
      let area = 0, clockwise = 0;
      for (let t = 0; t < T.length; t += 3) {
        const a = T[t]!, b = T[t + 1]!, cc = T[t + 2]!;
        const cross = (d.xy[2 * b]! - d.xy[2 * a]!) * (d.xy[2 * cc + 1]! - d.xy[2 * a + 1]!) - (d.xy[2 * b + 1]! - d.xy[2 * a + 1]!) * (d.xy[2 * cc]! - d.xy[2 * a]!);
        if (!(cross > 0)) clockwise++;
        area += cross / 2;
      }
      expect(clockwise, `case ${c}: triangles not counter-clockwise`).toBe(0);
      const exact = signedArea(xs, ys);
      expect(Math.abs(area - exact)).toBeLessThan(perimeter(xs, ys) * step * 0.5);
      // Every directed edge once at most; the border: each vertex starts and ends one border edge (simple loops).
      const directed = new Set<number>();
      let repeated = 0;
      for (let t = 0; t < T.length; t += 3) {
        for (let e = 0; e < 3; e++) {
          const key = T[t + e]! * d.vertexCount + T[t + ((e + 1) % 3)]!;
          if (directed.has(key)) repeated++;
          directed.add(key);
        }
      }
      expect(repeated, `case ${c}: directed edges used twice`).toBe(0);
      const border = boundaryEdges(T, d.vertexCount);
      const out = new Map<number, number>(), inn = new Map<number, number>();
      for (let e = 0; e < border.length; e += 2) {
        out.set(border[e]!, (out.get(border[e]!) ?? 0) + 1);
        inn.set(border[e + 1]!, (inn.get(border[e + 1]!) ?? 0) + 1);
      }
      for (const [v, n] of out) {
        expect(n).toBe(1);
        expect(inn.get(v)).toBe(1);
      }
    }
  });

  it('refuses crossing and touching outlines, and ones that enclose too little', () => {
    // A bow tie.
    expect(polygonProblem(Float64Array.from([0, 4, 4, 0]), Float64Array.from([0, 4, 0, 4]), 0)).toMatch(/crosses itself/);
    // A point of the outline on another segment.
    expect(polygonProblem(Float64Array.from([0, 4, 4, 2, 2]), Float64Array.from([0, 0, 4, 0, 4]), 0)).toMatch(/crosses itself/);
    // Going back over itself.
    expect(polygonProblem(Float64Array.from([0, 4, 2, 6]), Float64Array.from([0, 0, 0, 0]), 0)).toMatch(/crosses itself|encloses/);
    expect(polygonProblem(Float64Array.from([0, 1, 1, 0]), Float64Array.from([0, 0, 1, 1]), 2)).toMatch(/encloses 1\.000/);
    expect(polygonProblem(Float64Array.from([0, 1, 1, 0]), Float64Array.from([0, 0, 1, 1]), 0.5)).toBeNull();
  });
});
