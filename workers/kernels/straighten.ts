// Straightening on top of assembly/straighten.ts: the rigid transform that
// puts a jaw model into the canonical frame (docs/geometry.md,
// "Straightening"). The surface moments run in chunks (progress,
// cancellation); the rest is a few fast passes.

import type { KernelExports } from './abi.ts';
import { KernelError, runChunked, type JobOptions } from './job.ts';
import type { MeshRef } from './mesh.ts';
import { serialized } from './serial.ts';

/**
 * Which jaw the model is: decides where its teeth face in the canonical frame
 * (lower: +z, upper: -z; both with z up in the patient's frame). 'box' skips
 * the arch analysis and aligns the model's dominant faces with the axes.
 */
export type StraightenJaw = 'lower' | 'upper' | 'box';

export interface StraightenOptions extends JobOptions {
  /** Default 'lower'. */
  jaw?: StraightenJaw;
}

export interface StraightenResult {
  /** Column-major 4x4, model coordinates to canonical ones: p' = R p + t. */
  matrix: Float64Array;
  /** Column-major 4x4, canonical to model coordinates (undoes `matrix`: "reset"). */
  inverse: Float64Array;
  /** 0..1: how much the model looked like what the method assumes (heuristic, see docs/geometry.md). */
  quality: number;
  /** 'arch': occlusal plane and midline found; 'box': not an arch, dominant faces aligned with the axes. */
  method: 'arch' | 'box';
  /** Unit normal of the occlusal plane towards the teeth, in model coordinates (arch only, else zeros). */
  occlusalNormal: [number, number, number];
  diagnostics: {
    /** How the teeth's side was told: a flat base facing away, or more surface facing along the normal. */
    teethSide: 'flat-base' | 'facing-area' | 'none';
    /** Cusp tips in the final plane fit. */
    cuspTips: number;
    /** Mean distance between the arch's footprint and its mirror image, over the arch size. */
    symmetry: number;
    /** Correlation between position along the midline and distance from it (the U opens backwards). */
    archCorrelation: number;
    /** RMS distance of the cusp tips from the occlusal plane, over the arch size. */
    planeRms: number;
    /** Area fraction of the largest flat cluster of faces (a plinth). */
    flatFraction: number;
    /** Larger in-plane extent of the model, model units. */
    archSize: number;
    /** Why the box method was used: '' (it was not), 'asked', 'no thin axis', 'too few cusp tips', 'tiny crown band', 'no U shape'. */
    boxReason: '' | 'asked' | 'no thin axis' | 'too few cusp tips' | 'tiny crown band' | 'no U shape';
  };
}

const BOX_REASONS = ['', 'asked', 'no thin axis', 'too few cusp tips', 'tiny crown band', 'no U shape'] as const;
const JAW_CODE: Record<StraightenJaw, number> = { lower: 0, upper: 1, box: 2 };
const CHUNK = 1 << 18;

/** Jobs on one instance run one after another (the kernel keeps its state between slices). */
export function straighten(mesh: MeshRef, options: StraightenOptions = {}): Promise<StraightenResult> {
  return serialized(mesh.k, () => straightenNow(mesh, options));
}

async function straightenNow(mesh: MeshRef, options: StraightenOptions): Promise<StraightenResult> {
  const k = mesh.k;
  const begin = k.straightenBegin(mesh.positionsPtr, mesh.indicesPtr, mesh.vertexCount, mesh.triangleCount);
  if (begin < 0) throw new KernelError('BAD_INPUT', 'the mesh is empty');
  const { onProgress, ...rest } = options;
  // The moments take about half the time; the rest is one call.
  await runChunked(mesh.triangleCount, CHUNK, (start, end) => k.straightenMoments(start, end), {
    ...rest,
    onProgress: onProgress ? (f) => { if (f < 1) onProgress(f * 0.5); } : undefined,
  });
  const method = k.straightenFinish(JAW_CODE[options.jaw ?? 'lower']);
  if (method === -2) throw new KernelError('OUT_OF_MEMORY', 'no room for the straightening grids');
  if (method < 0) throw new KernelError('BAD_INPUT', 'the mesh has no area');
  onProgress?.(1);
  return readResult(k);
}

function readResult(k: KernelExports): StraightenResult {
  const r = new Float64Array(k.memory.buffer, k.straightenResultPtr() >>> 0, 48).slice();
  const cue = r[34];
  return {
    matrix: r.slice(0, 16),
    inverse: r.slice(16, 32),
    quality: r[32]!,
    method: r[33] === 1 ? 'arch' : 'box',
    occlusalNormal: [r[39]!, r[40]!, r[41]!],
    diagnostics: {
      teethSide: cue === 1 ? 'flat-base' : cue === 2 ? 'facing-area' : 'none',
      cuspTips: r[35]!,
      symmetry: r[36]!,
      archCorrelation: r[37]!,
      planeRms: r[38]!,
      flatFraction: r[42]!,
      archSize: r[43]!,
      boxReason: BOX_REASONS[r[44]!] ?? '',
    },
  };
}

/** Applies a column-major rigid 4x4 to the mesh's positions (and normals) inside wasm memory. */
export function transformMesh(mesh: MeshRef, matrix: ArrayLike<number>): void {
  const k = mesh.k;
  const ptr = k.shapeMatrixPtr() >>> 0;
  new Float64Array(k.memory.buffer, ptr, 16).set(Array.from(matrix).slice(0, 16));
  k.shapeTransformMesh(mesh.positionsPtr, mesh.normalsPtr, mesh.vertexCount, ptr);
}

/** Inverse of a column-major rigid 4x4 (rotation + translation). */
export function invertRigid(m: ArrayLike<number>): Float64Array {
  const out = new Float64Array(16);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) out[c * 4 + r] = m[r * 4 + c]!;
  for (let r = 0; r < 3; r++) out[12 + r] = -(out[r]! * m[12]! + out[4 + r]! * m[13]! + out[8 + r]! * m[14]!);
  out[15] = 1;
  return out;
}

/** Product a * b of column-major 4x4 matrices (apply b, then a). */
export function multiply(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const out = new Float64Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let i = 0; i < 4; i++) s += a[i * 4 + r]! * b[c * 4 + i]!;
      out[c * 4 + r] = s;
    }
  }
  return out;
}
