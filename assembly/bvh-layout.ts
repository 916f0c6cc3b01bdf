// The BVH's one contiguous byte range, shared by build, queries and refit.
//
//   [0, 64)            header (u32 fields below)
//   [64, 64 + 48 T)    triangles in leaf order, 48 bytes each:
//                        v0 x y z, original triangle id (u32 bits)
//                        v1 x y z, 0
//                        v2 x y z, 0
//   (up to 95 bytes)   padding: the nodes start 32 bytes past a 64-byte
//                      boundary, so each sibling pair fills one cache line
//   [.., + 32 N)       nodes, 32 bytes each:
//                        min x y z, a (u32 bits)
//                        max x y z, count (u32 bits)
//                      count > 0: leaf of triangles [a, a + count);
//                      count = 0: interior, children are nodes a and a + 1.
//
// Every offset is relative to the start, so the bytes can be copied out,
// transferred and loaded into another instance as they are. The triangle
// copies make queries independent of the mesh's arrays (only refit reads them).

export const BVH_MAGIC: u32 = 0x31485642; // "BVH1"
export const BVH_VERSION: u32 = 1;

export const HEADER_BYTES: usize = 64;
export const TRI_BYTES: usize = 48;
export const NODE_BYTES: usize = 32;

export const H_MAGIC: usize = 0;
export const H_VERSION: usize = 4;
export const H_TRIANGLES: usize = 8;
export const H_NODES: usize = 12;
export const H_BYTES: usize = 16;
export const H_TRIS_OFFSET: usize = 20;
export const H_NODES_OFFSET: usize = 24;
export const H_MAX_LEAF: usize = 28;
export const H_VERTICES: usize = 32;
export const H_DEPTH: usize = 36;
/** f32: margin added around every node box (see padFor in bvh-build.ts). */
export const H_PAD: usize = 40;

/** Deepest node the build makes; traversal stacks are sized from it. */
export const MAX_DEPTH: i32 = 64;

// Status codes of bvhLastStatus() and the checks.
export const BVH_OK: i32 = 0;
export const BVH_OUT_OF_MEMORY: i32 = -1;
export const BVH_BAD_INPUT: i32 = -2;
export const BVH_BAD_BYTES: i32 = -3;

@inline export function bvhNodes(bvh: usize): usize {
  return bvh + <usize>load<u32>(bvh, H_NODES_OFFSET);
}

@inline export function bvhTris(bvh: usize): usize {
  return bvh + <usize>load<u32>(bvh, H_TRIS_OFFSET);
}
