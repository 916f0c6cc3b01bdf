// A plain JavaScript weld for the "Babylon loader + weld + normals" row: the
// same rule as the kernel (exact float32 bit equality, -0 equal to +0, vertices
// numbered in order of first appearance) and the same data structure (an
// open-addressing hash table with linear probing over typed arrays), so that
// row shows what it costs to get our kind of mesh out of Babylon's loader in
// well-written JS, not what a naive Map<string, number> would cost.

export interface Welded {
  /** xyz per unique vertex. */
  positions: Float32Array;
  /** Three indices per triangle into `positions`. */
  indices: Uint32Array;
}

const NEG_ZERO = 0x80000000;

/**
 * Welds a triangle soup (`positions` xyz per corner, `indices` three per
 * triangle into the corners, as Babylon's STL loader returns them).
 */
export function weldSoup(positions: Float32Array, soupIndices: ArrayLike<number>): Welded {
  const corners = positions.length / 3;
  const bits = new Uint32Array(positions.buffer, positions.byteOffset, positions.length);
  let capacity = 16;
  while (capacity < corners * 1.5) capacity *= 2;
  const mask = capacity - 1;
  const table = new Int32Array(capacity).fill(-1);
  const keys = new Uint32Array(corners * 3); // welded positions, as bits
  const remap = new Uint32Array(corners); // corner -> welded vertex
  let count = 0;
  for (let c = 0; c < corners; c++) {
    let x = bits[c * 3]!, y = bits[c * 3 + 1]!, z = bits[c * 3 + 2]!;
    if (x === NEG_ZERO) x = 0;
    if (y === NEG_ZERO) y = 0;
    if (z === NEG_ZERO) z = 0;
    let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y ^ (y >>> 16), 0x85ebca77) ^ Math.imul(z ^ (z >>> 13), 0xc2b2ae3d);
    h ^= h >>> 15;
    let slot = h & mask;
    for (;;) {
      const v = table[slot]!;
      if (v < 0) {
        table[slot] = count;
        keys[count * 3] = x;
        keys[count * 3 + 1] = y;
        keys[count * 3 + 2] = z;
        remap[c] = count++;
        break;
      }
      if (keys[v * 3] === x && keys[v * 3 + 1] === y && keys[v * 3 + 2] === z) {
        remap[c] = v;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  const indices = new Uint32Array(soupIndices.length);
  for (let i = 0; i < indices.length; i++) indices[i] = remap[soupIndices[i]!]!;
  return { positions: new Float32Array(keys.buffer.slice(0, count * 12)), indices };
}
