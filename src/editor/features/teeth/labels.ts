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
