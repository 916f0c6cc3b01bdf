// The colour ramp of every heatmap (undercut depth, distance): blue → green →
// yellow → red, evenly spaced stops, linear RGB between, clamped outside the
// range; NaN (no value) is a neutral grey. Colours are RGBA f32 per vertex
// (what Babylon's VertexBuffer.ColorKind takes). The kernel (rampColors in
// assembly/bvh-analysis.ts) and rampColor below compute the same colours.

import type { KernelExports } from './abi.ts';
import { copyIn, withScratch } from './bvh.ts';

export type Rgb = readonly [number, number, number];

/** Stops at 0, 1/3, 2/3 and 1 of the range. */
export const RAMP_STOPS: readonly { at: number; color: Rgb }[] = [
  { at: 0, color: [0, 0, 1] },
  { at: 1 / 3, color: [0, 1, 0] },
  { at: 2 / 3, color: [1, 1, 0] },
  { at: 1, color: [1, 0, 0] },
];

/** Colour of NaN values (no measurement). */
export const RAMP_NO_VALUE: Rgb = [0.6, 0.6, 0.6];

/** The legend's range: values at the blue and red ends. */
export interface RampRange {
  min: number;
  max: number;
}

/** Colour of `value` on the ramp over [min, max] (for legends; per-vertex colours come from rampColors). */
export function rampColor(value: number, range: RampRange): Rgb {
  if (Number.isNaN(value)) return RAMP_NO_VALUE;
  const span = range.max - range.min;
  let t = span > 0 ? (value - range.min) / span : value > range.min ? 1 : value < range.min ? 0 : 0.5;
  t = Math.min(1, Math.max(0, t));
  const s = t * 3;
  const seg = Math.min(2, Math.floor(s));
  const f = s - seg;
  const a = RAMP_STOPS[seg]!.color;
  const b = RAMP_STOPS[seg + 1]!.color;
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

/** RGBA f32 per value (4 floats each), computed in instance `k`. */
export function rampColors(k: KernelExports, values: Float32Array, range: RampRange): Float32Array<ArrayBuffer> {
  return withScratch(k, (alloc) => {
    const valuesPtr = copyIn(k, alloc, values);
    const out = alloc(values.length * 16);
    k.rampColors(valuesPtr, values.length, range.min, range.max, out);
    return new Float32Array(k.memory.buffer.slice(out, out + values.length * 16));
  });
}
