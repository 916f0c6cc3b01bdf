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

/**
 * A binary STL (as writeBinaryStl makes it) moved by a rigid 4x4 (column-major, p' = R p + t), in
 * place: vertices transformed and each face normal recomputed from them. A mirroring matrix would
 * turn the triangles inside out, so their winding is swapped then: the file stays closed and
 * outward-facing.
 */
export function transformStl(buffer: ArrayBuffer, m: ArrayLike<number>): ArrayBuffer {
  const view = new DataView(buffer);
  const n = view.getUint32(80, true);
  const det =
    m[0]! * (m[5]! * m[10]! - m[9]! * m[6]!) - m[4]! * (m[1]! * m[10]! - m[9]! * m[2]!) + m[8]! * (m[1]! * m[6]! - m[5]! * m[2]!);
  const v = new Float64Array(9);
  for (let t = 0; t < n; t++) {
    const at = 84 + t * RECORD_BYTES;
    for (let i = 0; i < 3; i++) {
      const p = at + 12 + i * 12;
      const x = view.getFloat32(p, true), y = view.getFloat32(p + 4, true), z = view.getFloat32(p + 8, true);
      v[i * 3] = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!;
      v[i * 3 + 1] = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
      v[i * 3 + 2] = m[2]! * x + m[6]! * y + m[10]! * z + m[14]!;
    }
    const order = det < 0 ? [0, 2, 1] : [0, 1, 2];
    for (let i = 0; i < 3; i++) {
      const p = at + 12 + i * 12, s = order[i]! * 3;
      view.setFloat32(p, v[s]!, true);
      view.setFloat32(p + 4, v[s + 1]!, true);
      view.setFloat32(p + 8, v[s + 2]!, true);
    }
    const a = order[1]! * 3, b = order[2]! * 3;
    const ux = v[a]! - v[0]!, uy = v[a + 1]! - v[1]!, uz = v[a + 2]! - v[2]!;
    const wx = v[b]! - v[0]!, wy = v[b + 1]! - v[1]!, wz = v[b + 2]! - v[2]!;
    let nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
    const l = Math.hypot(nx, ny, nz) || 1;
    nx /= l;
    ny /= l;
    nz /= l;
    view.setFloat32(at, nx, true);
    view.setFloat32(at + 4, ny, true);
    view.setFloat32(at + 8, nz, true);
  }
  return buffer;
}
