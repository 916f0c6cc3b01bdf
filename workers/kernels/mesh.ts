// A mesh that lives in one kernel instance's memory.
//
// The worker keeps one kernels.wasm instance per mesh (the module is compiled
// once; instances are cheap). A kernel that reads a mesh takes its pointers;
// a kernel that needs two meshes (distance maps) copies the smaller input
// (query points) into the instance that holds the other mesh's BVH.
// Scratch allocations are bracketed with arenaMark()/arenaRelease(), so a
// mesh's memory does not grow with repeated analyses.

import type { KernelExports } from './abi.ts';

export interface MeshRef {
  /** The instance whose memory holds this mesh. */
  readonly k: KernelExports;
  /** xyz f32 per vertex. */
  readonly positionsPtr: number;
  /** Three u32 vertex indices per triangle, counter-clockwise seen from outside. */
  readonly indicesPtr: number;
  /** Unit xyz f32 per vertex, or 0 when not computed. */
  readonly normalsPtr: number;
  readonly vertexCount: number;
  readonly triangleCount: number;
}

/** Copies JS arrays into instance `k` (tests, benchmarks, meshes made in JS). */
export function meshFromArrays(
  k: KernelExports,
  positions: Float32Array,
  indices: Uint32Array,
  normals?: Float32Array,
): MeshRef {
  const copy = (src: ArrayBufferView & { length: number; BYTES_PER_ELEMENT: number }): number => {
    const bytes = src.length * src.BYTES_PER_ELEMENT;
    const ptr = k.arenaAlloc(bytes) >>> 0;
    if (ptr === 0) throw new Error(`kernels.wasm: out of memory copying ${bytes} bytes`);
    new Uint8Array(k.memory.buffer, ptr, bytes).set(new Uint8Array(src.buffer, src.byteOffset, bytes));
    return ptr;
  };
  return {
    k,
    positionsPtr: copy(positions),
    indicesPtr: copy(indices),
    normalsPtr: normals ? copy(normals) : 0,
    vertexCount: positions.length / 3,
    triangleCount: indices.length / 3,
  };
}

/** Fresh views of a mesh's arrays; they go stale when the instance's memory grows. */
export function meshViews(m: MeshRef): { positions: Float32Array; indices: Uint32Array; normals: Float32Array | undefined } {
  const buf = m.k.memory.buffer;
  return {
    positions: new Float32Array(buf, m.positionsPtr, m.vertexCount * 3),
    indices: new Uint32Array(buf, m.indicesPtr, m.triangleCount * 3),
    normals: m.normalsPtr ? new Float32Array(buf, m.normalsPtr, m.vertexCount * 3) : undefined,
  };
}
