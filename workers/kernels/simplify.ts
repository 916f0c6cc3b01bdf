// Simplification on top of assembly/simplify.ts: quadric-error edge-collapse
// decimation to a target triangle count, in time slices (progress,
// cancellation). The result is copied out into fresh typed arrays (they can
// be transferred) and also stays in wasm memory as a MeshRef, where the
// job's scratch was, until the arena is reset or released below it.

import { KernelError, runSteps, type JobOptions } from './job.ts';
import type { MeshRef } from './mesh.ts';
import { serialized } from './serial.ts';

export interface SimplifyOptions extends JobOptions {
  /** Triangles to keep (at most; fewer only when the mesh has fewer). */
  targetTriangles: number;
}

export interface SimplifyResult {
  positions: Float32Array;
  /** Unit, area-weighted, from the (unchanged) winding: outward when the input was. */
  normals: Float32Array;
  indices: Uint32Array;
  vertexCount: number;
  triangleCount: number;
  /** Edge collapses performed. */
  collapses: number;
  /**
   * Largest error estimate of a collapse: the RMS distance from the new vertex to the
   * original planes its quadric holds, in model units (mm for scans). A guide for the
   * UI ("simplified, deviation about ..."), not a Hausdorff distance.
   */
  maxError: number;
  /** The same mesh inside the instance (valid until the arena is reset or released below it). */
  mesh: MeshRef;
}

/** Work items per kernel call: triangles or vertices while setting up, heap pops while collapsing. */
const BUDGET = 8192;


/** Jobs on one instance run one after another (the kernel keeps its state between slices). */
export function simplify(mesh: MeshRef, options: SimplifyOptions): Promise<SimplifyResult> {
  return serialized(mesh.k, () => simplifyNow(mesh, options));
}

async function simplifyNow(mesh: MeshRef, options: SimplifyOptions): Promise<SimplifyResult> {
  const k = mesh.k;
  const { onProgress, shouldCancel } = options;
  const target = Math.max(0, Math.floor(options.targetTriangles));
  if (!Number.isFinite(options.targetTriangles)) throw new KernelError('BAD_INPUT', 'targetTriangles must be a number');
  if (shouldCancel?.()) throw new KernelError('ABORTED');
  const begin = k.simplifyBegin(mesh.positionsPtr, mesh.indicesPtr, mesh.vertexCount, mesh.triangleCount, target);
  if (begin === -1) throw new KernelError('BAD_INPUT', 'the mesh is empty');
  if (begin < 0) throw new KernelError('OUT_OF_MEMORY', 'no room for the decimation state');
  const step = (): boolean => {
    const status = k.simplifyStep(BUDGET);
    if (status < 0) {
      throw status === -2 ? new KernelError('OUT_OF_MEMORY', 'the decimation ran out of wasm memory') : new KernelError('KERNEL_FAILED', `simplify status ${status}`);
    }
    return status !== 0;
  };
  try {
    await runSteps(step, () => k.simplifyProgress(), options);
  } catch (e) {
    if (e instanceof KernelError && e.code === 'ABORTED') k.simplifyAbort();
    throw e;
  }
  const vertexCount = k.simplifyVertexCount() >>> 0;
  const triangleCount = k.simplifyTriangleCount() >>> 0;
  const positionsPtr = k.simplifyPositionsPtr() >>> 0;
  const normalsPtr = k.simplifyNormalsPtr() >>> 0;
  const indicesPtr = k.simplifyIndicesPtr() >>> 0;
  const buf = k.memory.buffer;
  const result: SimplifyResult = {
    positions: new Float32Array(buf, positionsPtr, vertexCount * 3).slice(),
    normals: new Float32Array(buf, normalsPtr, vertexCount * 3).slice(),
    indices: new Uint32Array(buf, indicesPtr, triangleCount * 3).slice(),
    vertexCount,
    triangleCount,
    collapses: k.simplifyCollapses() >>> 0,
    maxError: k.simplifyMaxError(),
    mesh: { k, positionsPtr, indicesPtr, normalsPtr, vertexCount, triangleCount },
  };
  onProgress?.(1);
  return result;
}
