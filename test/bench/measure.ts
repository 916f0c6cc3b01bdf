// Timing and memory helpers for the bench: an explicit garbage collector,
// resident-set readings, medians and a plain-text table.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection, so one contender's garbage is not collected on
 * another's clock. `npm run bench` starts Node without --expose-gc, so the
 * flag is set at run time and the function fetched from a fresh context.
 */
export const collectGarbage: () => void = (() => {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/**
 * Bytes held by JavaScript: the V8 heap in use plus memory outside it
 * (ArrayBuffers, wasm memories, external strings). Unlike the resident set,
 * this does not hide allocations that malloc serves from pages it kept after
 * earlier frees.
 */
export function liveBytes(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/**
 * Collects garbage and lets the event loop turn, twice, so that the memory of
 * freed ArrayBuffers and wasm instances, released after the collection, is
 * gone before a measurement starts.
 */
export async function settle(): Promise<void> {
  for (let i = 0; i < 2; i++) {
    collectGarbage();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function min(values: readonly number[]): number {
  return Math.min(...values);
}

export const MiB = 1024 * 1024;

export function formatMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

export function formatInt(n: number): string {
  return n.toLocaleString('en-US');
}

export type Align = 'left' | 'right';

/** A Markdown table padded to line up in a terminal as well. */
export function table(header: readonly string[], rows: readonly (readonly string[])[], align: readonly Align[]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const pad = (s: string, c: number): string =>
    align[c] === 'right' ? s.padStart(widths[c]!) : s.padEnd(widths[c]!);
  const line = (cells: readonly string[]): string => `| ${cells.map((s, c) => pad(s, c)).join(' | ')} |`;
  const rule = `|${widths.map((w, c) => (align[c] === 'right' ? `${'-'.repeat(w + 1)}:` : `${'-'.repeat(w + 2)}`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
