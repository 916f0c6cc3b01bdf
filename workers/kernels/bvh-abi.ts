// Raw exports of assembly/bvh.ts (BVH build, ray casts, closest point, undercut and distance maps), typed for JS.
// Pointers and u32 counts come back as i32: read them with `>>> 0`.
// Layouts and units: docs/geometry.md, section "BVH, undercut and distance maps".

export interface BvhExports {
  /** Pointer to a new BVH in the arena, or 0 (bvhLastStatus: -1 out of memory, -2 bad index). */
  bvhBuild(positionsPtr: number, indicesPtr: number, vertexCount: number, triangleCount: number, maxLeaf: number, bins: number): number;
  /** Starts the stepped form of bvhBuild (same arguments): 1, or a negative status (-1 out of memory). */
  bvhBuildBegin(positionsPtr: number, indicesPtr: number, vertexCount: number, triangleCount: number, maxLeaf: number, bins: number): number;
  /** About `budget` work units of the build: 1 while work remains, 0 done (bvhBuildResult), negative status (-2 bad index; arena released). */
  bvhBuildStep(budget: number): number;
  /** Fraction 0..1 of the build in progress (1 once done). */
  bvhBuildProgress(): number;
  /** Pointer to the BVH once bvhBuildStep returned 0, else 0. */
  bvhBuildResult(): number;
  bvhLastStatus(): number;
  bvhByteLength(bvh: number): number;
  bvhNodeCount(bvh: number): number;
  bvhTriangleCount(bvh: number): number;
  bvhDepth(bvh: number): number;
  /** 0 when `len` bytes at `ptr` are a valid BVH, else -3. */
  bvhCheck(ptr: number, len: number): number;
  /** 0, or -2 when the mesh does not match the BVH. */
  bvhRefit(bvh: number, positionsPtr: number, indicesPtr: number, vertexCount: number): number;

  /** Local-refit index (vertex → triangles, triangle → leaf, parents) beside the BVH; 0 on a mismatch or no memory. */
  bvhRefitIndex(bvh: number, indicesPtr: number, vertexCount: number): number;
  /** Refits around `count` moved vertices (u32 ids at verticesPtr). Returns nodes rewritten, -1 for a foreign index. */
  bvhRefitVertices(bvh: number, indexPtr: number, positionsPtr: number, indicesPtr: number, verticesPtr: number, count: number): number;

  /** Rays: 6 f32 each (origin, direction). Out: 16 bytes per ray (t f32, triangle i32, u f32, v f32). Returns hits. */
  bvhRaycastFirst(bvh: number, raysPtr: number, count: number, tMin: number, tMax: number, outPtr: number): number;
  /** Out: u8 per ray. Returns hits. */
  bvhRaycastAny(bvh: number, raysPtr: number, count: number, tMin: number, tMax: number, outPtr: number): number;
  /** Out: u32 hit count per ray. Returns the total. */
  bvhRaycastCount(bvh: number, raysPtr: number, count: number, tMin: number, tMax: number, outPtr: number): number;
  /** One ray; up to `cap` hits sorted by t at outPtr (16 bytes each). Returns the number of hits (may exceed cap). */
  bvhRaycastAll(
    bvh: number,
    ox: number,
    oy: number,
    oz: number,
    dx: number,
    dy: number,
    dz: number,
    tMin: number,
    tMax: number,
    outPtr: number,
    cap: number,
  ): number;
  /** Points: xyz f32. Out: 32 bytes per point (closest xyz, distance, triangle i32, u, v, 0). Returns the number found. */
  bvhClosestPoints(bvh: number, pointsPtr: number, count: number, maxDistance: number, outPtr: number): number;

  /** f32 per vertex (a third of each incident triangle's area). Returns the total area. */
  meshVertexAreas(positionsPtr: number, indicesPtr: number, triangleCount: number, vertexCount: number, outPtr: number): number;
  /** Vertices [start, end): depth f32 and flag u8 per vertex. Returns the undercut weight of the range. */
  undercutMap(
    bvh: number,
    positionsPtr: number,
    normalsPtr: number,
    weightsPtr: number,
    start: number,
    end: number,
    dx: number,
    dy: number,
    dz: number,
    eps: number,
    normalEps: number,
    depthOutPtr: number,
    flagsOutPtr: number,
  ): number;
  /** Samples [start, end): vertex ids[i] (or i when idsPtr is 0) with weight weights[i]; summed weight of those in undercut. */
  undercutScore(
    bvh: number,
    positionsPtr: number,
    normalsPtr: number,
    idsPtr: number,
    weightsPtr: number,
    start: number,
    end: number,
    dx: number,
    dy: number,
    dz: number,
    eps: number,
    normalEps: number,
  ): number;
  /** Points [start, end): signed distance f32 (NaN beyond maxDistance), triangle i32 when triOutPtr != 0. Returns found. */
  distanceMap(bvh: number, pointsPtr: number, start: number, end: number, maxDistance: number, outPtr: number, triOutPtr: number): number;
  /** RGBA f32 per value on the blue-green-yellow-red ramp over [lo, hi]. */
  rampColors(valuesPtr: number, count: number, lo: number, hi: number, outPtr: number): void;
}
