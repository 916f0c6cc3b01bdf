// Binary STL writer (the export for printing): 80-byte header, u32 count, then
// per triangle its unit face normal, three vertices (f32 little-endian) and a
// zero attribute word. Plain JS over typed arrays: usable in the worker and in
// Node. The header never starts with "solid", so no reader takes it for ASCII.

export const STL_HEADER = 'Archwright base';

/** Binary STL of an indexed mesh (xyz per vertex; three indices per triangle, counter-clockwise seen from outside). */
export function writeBinaryStl(positions: ArrayLike<number>, indices: ArrayLike<number>, header = STL_HEADER): ArrayBuffer {
  if (indices.length % 3 !== 0) throw new RangeError('indices: three per triangle');
  const vertices = Math.floor(positions.length / 3);
  const n = indices.length / 3;
  const buffer = new ArrayBuffer(84 + 50 * n);
  const bytes = new Uint8Array(buffer);
  const text = new TextEncoder().encode(header.startsWith('solid') ? ` ${header}` : header);
  bytes.set(text.subarray(0, 80));
  for (let i = Math.min(80, text.length); i < 80; i++) bytes[i] = 0x20;
  const view = new DataView(buffer);
  view.setUint32(80, n, true);
  let o = 84;
  for (let t = 0; t < n; t++) {
    const a = indices[3 * t]!, b = indices[3 * t + 1]!, c = indices[3 * t + 2]!;
    if (a >= vertices || b >= vertices || c >= vertices) throw new RangeError(`triangle ${t} refers to a vertex that does not exist`);
    const ax = positions[3 * a]!, ay = positions[3 * a + 1]!, az = positions[3 * a + 2]!;
    const bx = positions[3 * b]!, by = positions[3 * b + 1]!, bz = positions[3 * b + 2]!;
    const cx = positions[3 * c]!, cy = positions[3 * c + 1]!, cz = positions[3 * c + 2]!;
    const ux = bx - ax, uy = by - ay, uz = bz - az, vx = cx - ax, vy = cy - ay, vz = cz - az;
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const l = Math.hypot(nx, ny, nz);
    if (l > 0) {
      nx /= l;
      ny /= l;
      nz /= l;
    }
    for (const f of [nx, ny, nz, ax, ay, az, bx, by, bz, cx, cy, cz]) {
      view.setFloat32(o, f, true);
      o += 4;
    }
    view.setUint16(o, 0, true);
    o += 2;
  }
  return buffer;
}
