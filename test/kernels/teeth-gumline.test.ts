// Gum lines (workers/kernels/teeth-gumline.ts) on a flat grid whose labels are known: a disk is
// one closed loop around it, as long as its circle; two teeth give two seams; a tooth cut by the
// border of an open scan gives an open line.
import { describe, expect, it } from 'vitest';
import { gumLines, loopLength } from '../../workers/kernels/teeth-gumline.ts';

function grid(n: number, step: number): { positions: Float32Array; indices: Uint32Array } {
  const positions = new Float32Array((n + 1) * (n + 1) * 3);
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) positions.set([i * step, j * step, 0], 3 * (j * (n + 1) + i));
  const idx: number[] = [];
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    const a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
    idx.push(a, b, d, a, d, c);
  }
  return { positions, indices: new Uint32Array(idx) };
}

function disk(positions: Float32Array, labels: Uint8Array, cx: number, cy: number, r: number, n: number): void {
  for (let v = 0; v < labels.length; v++) if (Math.hypot(positions[3 * v]! - cx, positions[3 * v + 1]! - cy) < r) labels[v] = n;
}

describe('gum lines from tooth labels', () => {
  it('a disk-shaped tooth has one closed seam as long as its circle, lying between its vertices and the gum', () => {
    const { positions, indices } = grid(80, 0.25);
    const labels = new Uint8Array(positions.length / 3);
    disk(positions, labels, 10, 10, 4, 14);
    const lines = gumLines(positions, indices, labels);
    expect(lines.map((l) => l.number)).toEqual([14]);
    expect(lines[0]!.open).toBe(false);
    expect(lines[0]!.loops).toHaveLength(1);
    const loop = lines[0]!.loops[0]!;
    expect(loopLength(loop)).toBeGreaterThan(2 * Math.PI * 4 * 0.95);
    expect(loopLength(loop)).toBeLessThan(2 * Math.PI * 4 * 1.2);
    for (let i = 0; i < loop.length; i += 3) {
      const r = Math.hypot(loop[i]! - 10, loop[i + 1]! - 10);
      expect(Math.abs(r - 4)).toBeLessThan(0.3);
    }
  });

  it('two neighbouring teeth each get their own seam, also where they touch', () => {
    const { positions, indices } = grid(80, 0.25);
    const labels = new Uint8Array(positions.length / 3);
    for (let v = 0; v < labels.length; v++) {
      const x = positions[3 * v]!, y = positions[3 * v + 1]!;
      if (y > 6 && y < 14 && x > 4 && x < 16) labels[v] = x < 10 ? 8 : 9;
    }
    const lines = gumLines(positions, indices, labels);
    expect(lines.map((l) => l.number)).toEqual([8, 9]);
    for (const l of lines) {
      expect(l.loops).toHaveLength(1);
      expect(loopLength(l.loops[0]!)).toBeGreaterThan(2 * (6 + 8) * 0.95);
      expect(loopLength(l.loops[0]!)).toBeLessThan(2 * (6 + 8) * 1.1);
    }
  });

  it('a tooth cut by the border of an open scan has an open seam; a label-free mesh has none', () => {
    const { positions, indices } = grid(40, 0.25);
    const labels = new Uint8Array(positions.length / 3);
    expect(gumLines(positions, indices, labels)).toEqual([]);
    disk(positions, labels, 0, 5, 3, 3);
    const [line] = gumLines(positions, indices, labels);
    expect(line!.open).toBe(true);
    expect(line!.loops).toHaveLength(1);
    expect(loopLength(line!.loops[0]!, false)).toBeGreaterThan(Math.PI * 3 * 0.9);
  });
});
