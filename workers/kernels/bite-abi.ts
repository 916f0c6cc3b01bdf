// Raw exports of assembly/bite*.ts (bite registration), typed for JS.
// Pointers and counts come back as i32: read pointers with `>>> 0`.
// Layouts: a sample is 6 f32 (position, unit normal; 24 bytes); a descriptor
// 36 f32 (33 FPFH bins, 3 zero; 144 bytes); a pair 2 i32 (source, target);
// a transform 12 f64, rows of [R | t] (row-major 3x4) mapping the samples'
// frame into the BVH's; a RANSAC hypothesis 13 f64 (the transform, its inlier count).
// docs/geometry.md, section "Bite registration".

export interface BiteExports {
  /** Voxel-mean samples of the vertices whose mask byte is set (maskPtr 0: all); pick != 0: the vertex nearest the mean. Returns the count, -1 out of memory. */
  biteVoxelSample(positionsPtr: number, normalsPtr: number, count: number, maskPtr: number, voxel: number, pick: number, outPtr: number): number;
  /** FPFH descriptors (36 f32 each) of `n` samples within `radius`. Returns the mean neighbour count, -1 out of memory. */
  biteFpfh(samplesPtr: number, n: number, radius: number, outPtr: number): number;
  /** Spread of the descriptors around their mean over their mean square (0: all alike). */
  biteDescriptorSpread(descPtr: number, n: number): number;
  /** k nearest target descriptors per source descriptor; writes pairs, returns their count. */
  biteMatch(srcDescPtr: number, nSrc: number, dstDescPtr: number, nDst: number, k: number, outPtr: number): number;
  /** RANSAC over 3-pair samples; writes up to maxHyp hypotheses (best first), returns how many. */
  biteRansac(
    srcPtr: number,
    dstPtr: number,
    pairsPtr: number,
    nPairs: number,
    tries: number,
    seed: number,
    inlier: number,
    edgeTol: number,
    minEdge: number,
    minCos: number,
    outPtr: number,
    maxHyp: number,
  ): number;
  biteRansacTested(): number;
  /** Trimmed point-to-plane ICP of samples onto the BVH; updates the transform at matPtr. Returns samples used. */
  biteIcp(bvh: number, samplesPtr: number, n: number, maskPtr: number, matPtr: number, maxDist: number, minCos: number, iters: number, seedsPtr: number): number;
  /** Distances (f32, Infinity: none) of the moved samples to the surface; returns those within `inlier`. */
  biteFit(bvh: number, samplesPtr: number, n: number, maskPtr: number, matPtr: number, maxDist: number, minCos: number, inlier: number, distOutPtr: number): number;
  /** Deepest penetration (positive mm) of the moved vertices behind the BVH's surface within maxDist; signed distances at distOutPtr (or 0). */
  bitePenetration(bvh: number, positionsPtr: number, n: number, matPtr: number, maxDist: number, distOutPtr: number): number;
  /** Copies the vertices that matPtr moves into the box [lo, hi] to outPtr (their own coordinates); returns how many. */
  biteBoxFilter(positionsPtr: number, n: number, matPtr: number, lox: number, loy: number, loz: number, hix: number, hiy: number, hiz: number, outPtr: number): number;
  biteLastRms(): number;
  biteLastIterations(): number;
  biteLastDeepCount(): number;
}
