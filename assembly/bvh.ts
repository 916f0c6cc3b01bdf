// BVH kernels: build, refit, serialisation checks, ray casts, closest point,
// undercut and distance maps, colour ramp. The BVH is one contiguous byte
// range (bvh-layout.ts) so JS can copy it out and load it elsewhere.
export { bvhBuild, bvhBuildBegin, bvhBuildStep, bvhBuildProgress, bvhBuildResult, bvhLastStatus, bvhByteLength, bvhNodeCount, bvhTriangleCount, bvhDepth, bvhCheck, bvhRefit } from './bvh-build';
export { bvhRaycastFirst, bvhRaycastAny, bvhRaycastCount, bvhRaycastAll, bvhClosestPoints } from './bvh-query';
export { bvhRefitIndex, bvhRefitVertices } from './bvh-refit';
export { meshVertexAreas, undercutMap, undercutScore, distanceMap, rampColors } from './bvh-analysis';
