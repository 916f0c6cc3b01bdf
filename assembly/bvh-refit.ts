// Local refit: after a brush moved a few vertices, update only the triangles
// around them and the boxes from their leaves up to the root, so the cost
// follows the vertices touched, not the mesh size.
//
// Needs an index built once per BVH (bvhRefitIndex), kept beside it in the
// arena (not part of the BVH's bytes):
//   [0, 16)      triangles, nodes, vertices, epoch (u32)
//   slotOf       u32 per triangle id: its index in the BVH's triangle copies
//   leafOf       u32 per triangle copy: the leaf node holding it
//   parent       u32 per node (root: 0xFFFFFFFF)
//   stamp        u32 per node: epoch of the last call that queued the leaf
//   queue        u32 per node: leaves to update in this call
//   firstTri     u32 per vertex + 1: CSR offsets into vertexTris
//   vertexTris   u32 per triangle corner: triangle ids around each vertex

import { arenaAlloc } from './arena';
import { H_NODES, H_PAD, H_TRIANGLES, H_VERTICES, NODE_BYTES, TRI_BYTES, bvhNodes, bvhTris } from './bvh-layout';

const NONE: u32 = 0xffffffff;

/**
 * Builds the local-refit index of `bvh` over its mesh's `indices` (the
 * triangles it was built from). Returns its pointer, or 0 when the mesh
 * does not match or memory ran out.
 */
export function bvhRefitIndex(bvh: usize, indices: usize, vertexCount: u32): usize {
  const t = <usize>load<u32>(bvh, H_TRIANGLES);
  const nodeCount = <usize>load<u32>(bvh, H_NODES);
  if (load<u32>(bvh, H_VERTICES) != vertexCount) return 0;
  const v = <usize>vertexCount;
  const aux = arenaAlloc(16 + 4 * (t + t + nodeCount * 3 + v + 1 + 3 * t));
  if (aux == 0) return 0;
  store<u32>(aux, <u32>t);
  store<u32>(aux, <u32>nodeCount, 4);
  store<u32>(aux, vertexCount, 8);
  store<u32>(aux, 0, 12);
  const slotOf = aux + 16;
  const leafOf = slotOf + 4 * t;
  const parent = leafOf + 4 * t;
  const stamp = parent + 4 * nodeCount;
  const firstTri = stamp + 8 * nodeCount;
  const vertexTris = firstTri + 4 * (v + 1);
  const tris = bvhTris(bvh);
  const nodes = bvhNodes(bvh);
  for (let j: usize = 0; j < t; j++) store<u32>(slotOf + 4 * <usize>load<u32>(tris + j * TRI_BYTES, 12), <u32>j);
  store<u32>(parent, NONE);
  for (let i: usize = 0; i < nodeCount; i++) {
    const p = nodes + i * NODE_BYTES;
    const a = load<u32>(p, 12);
    const count = load<u32>(p, 28);
    store<u32>(stamp + 4 * i, 0);
    if (count > 0) {
      for (let j = a; j < a + count; j++) store<u32>(leafOf + 4 * <usize>j, <u32>i);
    } else {
      store<u32>(parent + 4 * <usize>a, <u32>i);
      store<u32>(parent + 4 * <usize>(a + 1), <u32>i);
    }
  }
  // Triangles around each vertex (counting sort of the corners).
  memory.fill(firstTri, 0, 4 * (v + 1));
  for (let c: usize = 0; c < 3 * t; c++) {
    const vi = <usize>load<u32>(indices + 4 * c);
    if (vi >= v) return 0; // not the mesh the BVH was built from
    store<u32>(firstTri + 4 * (vi + 1), load<u32>(firstTri + 4 * (vi + 1)) + 1);
  }
  for (let i: usize = 0; i < v; i++) store<u32>(firstTri + 4 * (i + 1), load<u32>(firstTri + 4 * (i + 1)) + load<u32>(firstTri + 4 * i));
  // Fill using the offsets as cursors, then shift them back.
  for (let c: usize = 0; c < 3 * t; c++) {
    const vi = <usize>load<u32>(indices + 4 * c);
    const at = load<u32>(firstTri + 4 * vi);
    store<u32>(vertexTris + 4 * <usize>at, <u32>(c / 3));
    store<u32>(firstTri + 4 * vi, at + 1);
  }
  for (let i = v; i > 0; i--) store<u32>(firstTri + 4 * i, load<u32>(firstTri + 4 * (i - 1)));
  store<u32>(firstTri, 0);
  return aux;
}

/**
 * Refits the BVH after the `count` vertices listed at `vertices` (u32 ids)
 * moved: rewrites their triangles' copies, then each touched leaf's box and
 * its ancestors' boxes, stopping where a box does not change. Returns the
 * number of nodes rewritten, or -1 when `aux` does not belong to this BVH.
 */
export function bvhRefitVertices(bvh: usize, aux: usize, positions: usize, indices: usize, vertices: usize, count: u32): i32 {
  const t = <usize>load<u32>(aux);
  const nodeCount = <usize>load<u32>(aux, 4);
  const v = load<u32>(aux, 8);
  if (t != <usize>load<u32>(bvh, H_TRIANGLES) || nodeCount != <usize>load<u32>(bvh, H_NODES)) return -1;
  const epoch = load<u32>(aux, 12) + 1;
  store<u32>(aux, epoch, 12);
  const slotOf = aux + 16;
  const leafOf = slotOf + 4 * t;
  const parent = leafOf + 4 * t;
  const stamp = parent + 4 * nodeCount;
  const queue = stamp + 4 * nodeCount;
  const firstTri = queue + 4 * nodeCount;
  const vertexTris = firstTri + 4 * (<usize>v + 1);
  const tris = bvhTris(bvh);
  const nodes = bvhNodes(bvh);
  let queued: usize = 0;
  for (let i: u32 = 0; i < count; i++) {
    const vi = load<u32>(vertices + 4 * <usize>i);
    if (vi >= v) continue;
    const end = load<u32>(firstTri + 4 * (<usize>vi + 1));
    for (let k = load<u32>(firstTri + 4 * <usize>vi); k < end; k++) {
      const id = load<u32>(vertexTris + 4 * <usize>k);
      const slot = <usize>load<u32>(slotOf + 4 * <usize>id);
      const tri = indices + 12 * <usize>id;
      const dst = tris + slot * TRI_BYTES;
      v128.store(dst, i32x4.replace_lane(v128.load(positions + 12 * <usize>load<u32>(tri)), 3, <i32>id));
      v128.store(dst, i32x4.replace_lane(v128.load(positions + 12 * <usize>load<u32>(tri, 4)), 3, 0), 16);
      v128.store(dst, i32x4.replace_lane(v128.load(positions + 12 * <usize>load<u32>(tri, 8)), 3, 0), 32);
      const leaf = <usize>load<u32>(leafOf + 4 * slot);
      if (load<u32>(stamp + 4 * leaf) != epoch) {
        store<u32>(stamp + 4 * leaf, epoch);
        store<u32>(queue + 4 * queued, <u32>leaf);
        queued++;
      }
    }
  }
  const pad = f32x4.splat(load<f32>(bvh, H_PAD));
  const inf = f32x4.splat(Infinity);
  const ninf = f32x4.splat(-Infinity);
  let written: i32 = 0;
  for (let q: usize = 0; q < queued; q++) {
    let node = <usize>load<u32>(queue + 4 * q);
    // The leaf, from its triangles.
    let p = nodes + node * NODE_BYTES;
    const a = load<u32>(p, 12);
    const n = load<u32>(p, 28);
    let lo = inf, hi = ninf;
    for (let j = a; j < a + n; j++) {
      const tp = tris + <usize>j * TRI_BYTES;
      const v0 = v128.load(tp), v1 = v128.load(tp, 16), v2 = v128.load(tp, 32);
      lo = f32x4.pmin(lo, f32x4.pmin(f32x4.pmin(v0, v1), v2));
      hi = f32x4.pmax(hi, f32x4.pmax(f32x4.pmax(v0, v1), v2));
    }
    lo = i32x4.replace_lane(f32x4.sub(lo, pad), 3, <i32>a);
    hi = i32x4.replace_lane(f32x4.add(hi, pad), 3, <i32>n);
    // Up to the root while boxes change.
    while (true) {
      if (i32x4.all_true(i32x4.eq(lo, v128.load(p))) && i32x4.all_true(i32x4.eq(hi, v128.load(p, 16)))) break;
      v128.store(p, lo);
      v128.store(p, hi, 16);
      written++;
      const up = load<u32>(parent + 4 * node);
      if (up == NONE) break;
      node = <usize>up;
      p = nodes + node * NODE_BYTES;
      const c = nodes + <usize>load<u32>(p, 12) * NODE_BYTES;
      lo = i32x4.replace_lane(f32x4.pmin(v128.load(c), v128.load(c, NODE_BYTES)), 3, load<i32>(p, 12));
      hi = i32x4.replace_lane(f32x4.pmax(v128.load(c, 16), v128.load(c, NODE_BYTES + 16)), 3, 0);
    }
  }
  return written;
}
