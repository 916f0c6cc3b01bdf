// Binary STL writer (the export for printing): 80-byte header, u32 count, then
// per triangle its unit face normal, three vertices (f32 little-endian) and a
// zero attribute word. The records are written by the kernel
// (assembly/mesh-ops.ts stlWriteRecords) into a bounded scratch in the mesh's
// instance, a slice at a time, and copied into one fresh ArrayBuffer: the
// instance's memory does not grow by the file's size. The header never starts
// with "solid", so no reader takes it for ASCII.

import { KernelError } from './job.ts';
import type { MeshRef } from './mesh.ts';

export const STL_HEADER = 'Archwright base';

const RECORD_BYTES = 50;
/** Triangles per kernel call: 3.2 MB of scratch. */
const SLICE_TRIANGLES = 65_536;

/**
 * Binary STL of a mesh kept in a kernel instance (three indices per triangle,
 * counter-clockwise seen from outside) as a fresh, transferable ArrayBuffer.
 * A triangle referring to a missing vertex is KernelError('BAD_INPUT').
 */
export function writeBinaryStl(mesh: MeshRef, header = STL_HEADER): ArrayBuffer {
  const { k } = mesh;
  const n = mesh.triangleCount;
  const buffer = new ArrayBuffer(84 + RECORD_BYTES * n);
  const bytes = new Uint8Array(buffer);
  const text = new TextEncoder().encode(header.startsWith('solid') ? ` ${header}` : header);
  bytes.set(text.subarray(0, 80));
  for (let i = Math.min(80, text.length); i < 80; i++) bytes[i] = 0x20;
  new DataView(buffer).setUint32(80, n, true);
  if (n === 0) return buffer;
  const slice = Math.min(n, SLICE_TRIANGLES);
  const mark = k.arenaMark() >>> 0;
  try {
    const scratch = k.arenaAlloc(slice * RECORD_BYTES) >>> 0;
    if (scratch === 0) throw new KernelError('OUT_OF_MEMORY', `no room for ${slice * RECORD_BYTES} bytes of STL records`);
    for (let start = 0; start < n; start += slice) {
      const end = Math.min(n, start + slice);
      if (k.stlWriteRecords(mesh.positionsPtr, mesh.indicesPtr, mesh.vertexCount, start, end, scratch) < 0) {
        throw new KernelError('BAD_INPUT', `triangle ${k.meshOpsBadTriangle()} refers to a vertex that does not exist`);
      }
      bytes.set(new Uint8Array(k.memory.buffer, scratch, (end - start) * RECORD_BYTES), 84 + start * RECORD_BYTES);
    }
  } finally {
    k.arenaRelease(mark);
  }
  return buffer;
}
