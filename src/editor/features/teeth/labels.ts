// The corrections of a jaw's tooth labels (one byte per welded vertex: Universal 1-32, 0 gum),
// as pure functions: each returns new labels and leaves its input alone, so a command keeps the
// labels before and after. A jaw only ever holds its own numbers (upper 1-16, lower 17-32).
import { universalToFdi, type Jaw } from '../../../../common/teeth.ts';

export type { Jaw } from '../../../../common/teeth.ts';
export type Numbering = 'fdi' | 'universal';

/** The Universal numbers of a jaw, in the order of the picker (the patient's right to left as seen from the front). */
export function numbersOf(jaw: Jaw): number[] {
  return Array.from({ length: 16 }, (_, i) => (jaw === 'upper' ? i + 1 : 32 - i));
}

/** A number as the designer reads it. */
export function toothName(n: number, numbering: Numbering): string {
  return String(numbering === 'fdi' ? universalToFdi(n) : n);
}

/** The numbers present in labels, ascending. */
export function presentNumbers(labels: Uint8Array): number[] {
  const seen = new Uint8Array(33);
  for (let i = 0; i < labels.length; i++) seen[labels[i]!] = 1;
  const out: number[] = [];
  for (let n = 1; n <= 32; n++) if (seen[n]) out.push(n);
  return out;
}

/** A jaw's numbers not on any vertex (a split's new part, a renumbering's target). */
export function freeNumbers(labels: Uint8Array, jaw: Jaw): number[] {
  const used = new Set(presentNumbers(labels));
  return numbersOf(jaw).filter((n) => !used.has(n));
}

/**
 * Gives tooth `from` the number `to`. A `to` already on another tooth of the jaw is swapped with
 * it (the two teeth trade numbers): numbering a row of teeth one click at a time never loses one.
 */
export function renumber(labels: Uint8Array, from: number, to: number): Uint8Array {
  const out = labels.slice();
  if (from === to || from === 0 || to === 0) return out;
  for (let i = 0; i < out.length; i++) {
    if (labels[i] === from) out[i] = to;
    else if (labels[i] === to) out[i] = from;
  }
  return out;
}

/** Tooth `gone` becomes part of tooth `keep`. */
export function merge(labels: Uint8Array, keep: number, gone: number): Uint8Array {
  const out = labels.slice();
  if (keep === gone || keep === 0) return out;
  for (let i = 0; i < out.length; i++) if (labels[i] === gone) out[i] = keep;
  return out;
}

/** The vertices given become `to` (a tooth, or 0: gum). */
export function assign(labels: Uint8Array, vertices: Iterable<number>, to: number): Uint8Array {
  const out = labels.slice();
  for (const v of vertices) if (v >= 0 && v < out.length) out[v] = to;
  return out;
}

/** Tooth `number`'s vertices for which `keeps` is false become `other`. */
export function split(labels: Uint8Array, number: number, keeps: (vertex: number) => boolean, other: number): Uint8Array {
  const out = labels.slice();
  for (let i = 0; i < out.length; i++) if (labels[i] === number && !keeps(i)) out[i] = other;
  return out;
}

export function sameLabels(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether a point is inside a polygon (even-odd rule; screen pixels). */
export function insidePolygon(x: number, y: number, polygon: readonly { x: number; y: number }[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i]!, b = polygon[j]!;
    if (a.y > y !== b.y > y && x < ((b.x - a.x) * (y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/** Which side of the line a→b a point lies on (screen pixels): true on the left (negative cross product, y down). */
export function leftOf(p: { x: number; y: number }, a: { x: number; y: number }, b: { x: number; y: number }): boolean {
  return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < 0;
}

/** A tooth's tint: hues spread by the golden angle, so neighbours differ clearly. RGB 0..1. */
export function toothColor(n: number): [number, number, number] {
  const h = (n * 0.618034) % 1;
  const s = 0.62, v = 0.95;
  const i = Math.floor(h * 6), f = h * 6 - i;
  const p = v * (1 - s), q = v * (1 - f * s), t = v * (1 - (1 - f) * s);
  const rgb: [number, number, number][] = [[v, t, p], [q, v, p], [p, v, t], [p, q, v], [t, p, v], [v, p, q]];
  return rgb[i % 6]!;
}

/** Per tooth: the centroid of its vertices and its tip (the vertex farthest along `up`, towards the opposing jaw). */
export function crownPoints(positions: ArrayLike<number>, labels: Uint8Array, up: readonly number[]): { number: number; centroid: [number, number, number]; tip: [number, number, number] }[] {
  const sum = new Float64Array(33 * 4);
  const tip = new Int32Array(33).fill(-1);
  const best = new Float64Array(33).fill(-Infinity);
  for (let v = 0; v < labels.length; v++) {
    const n = labels[v]!;
    if (n === 0 || n > 32) continue;
    const x = positions[3 * v]!, y = positions[3 * v + 1]!, z = positions[3 * v + 2]!;
    sum[4 * n] = sum[4 * n]! + x;
    sum[4 * n + 1] = sum[4 * n + 1]! + y;
    sum[4 * n + 2] = sum[4 * n + 2]! + z;
    sum[4 * n + 3] = sum[4 * n + 3]! + 1;
    const h = x * up[0]! + y * up[1]! + z * up[2]!;
    if (h > best[n]!) { best[n] = h; tip[n] = v; }
  }
  const out: { number: number; centroid: [number, number, number]; tip: [number, number, number] }[] = [];
  for (let n = 1; n <= 32; n++) {
    const c = sum[4 * n + 3]!;
    if (!c) continue;
    const t = tip[n]!;
    out.push({ number: n, centroid: [sum[4 * n]! / c, sum[4 * n + 1]! / c, sum[4 * n + 2]! / c], tip: [positions[3 * t]!, positions[3 * t + 1]!, positions[3 * t + 2]!] });
  }
  return out;
}
