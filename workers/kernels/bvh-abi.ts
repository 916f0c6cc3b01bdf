// Raw exports of assembly/bvh.ts (BVH build, ray casts, closest point, undercut and distance maps), typed for JS.
// Pointers and u32 counts come back as i32: read them with `>>> 0`.

export interface BvhExports {
  bvhAbiPlaceholder(): number;
}
