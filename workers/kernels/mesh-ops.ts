// Whole-mesh passes on a kept mesh, run in its instance (assembly/mesh-ops.ts):
// area-weighted vertex normals and bounds. The STL writer is stl-write.ts.

import { KernelError } from './job.ts';
import type { MeshRef } from './mesh.ts';
import type { Vec3 } from './stl.ts';

export interface MeshBounds {
  min: Vec3;
  max: Vec3;
}

/**
 * Writes the mesh's area-weighted unit vertex normals to `out`, an arena
 * allocation of vertexCount × 12 bytes in the mesh's instance; returns the
 * number of degenerate triangles. (0, 0, 1) for vertices that only
 * degenerate triangles touch. The kernel's scratch (16 bytes per vertex) is
 * released before it returns. A triangle referring to a missing vertex is
 * KernelError('BAD_INPUT').
 */
export function vertexNormalsInto(mesh: MeshRef, out: number): number {
  const { k } = mesh;
  const r = k.meshVertexNormals(mesh.positionsPtr, mesh.indicesPtr, mesh.vertexCount, mesh.triangleCount, out);
  if (r === -1) throw new KernelError('BAD_INPUT', `triangle ${k.meshOpsBadTriangle()} refers to a vertex that does not exist`);
  if (r < 0) throw new KernelError('OUT_OF_MEMORY', `no room for ${mesh.vertexCount * 16} bytes of normal sums`);
  return r;
}

/** The mesh's area-weighted unit vertex normals as a fresh array (xyz per vertex); scratch is released. */
export function vertexNormals(mesh: MeshRef): Float32Array<ArrayBuffer> {
  const { k } = mesh;
  const bytes = mesh.vertexCount * 12;
  const mark = k.arenaMark() >>> 0;
  try {
    const out = k.arenaAlloc(Math.max(4, bytes)) >>> 0;
    if (out === 0) throw new KernelError('OUT_OF_MEMORY', `no room for ${bytes} bytes of normals`);
    vertexNormalsInto(mesh, out);
    return new Float32Array(k.memory.buffer.slice(out, out + bytes));
  } finally {
    k.arenaRelease(mark);
  }
}

/** Bounds of the mesh's positions (NaN coordinates ignored; no vertices: +Infinity / -Infinity). */
export function meshBounds(mesh: MeshRef): MeshBounds {
  const ptr = mesh.k.meshBounds(mesh.positionsPtr, mesh.vertexCount) >>> 0;
  const b = new Float32Array(mesh.k.memory.buffer, ptr, 6);
  return { min: [b[0]!, b[1]!, b[2]!], max: [b[3]!, b[4]!, b[5]!] };
}
