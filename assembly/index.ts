// Entry point of build/kernels.wasm. Every export takes or returns plain
// numbers (pointers, counts, status codes); see docs/geometry.md.
export { arenaAlloc, arenaReset, arenaMark, arenaRelease, arenaUsed } from './arena';
export {
  stlBegin,
  stlStep,
  stlProgress,
  stlStatus,
  stlFormat,
  stlTriangleCount,
  stlVertexCount,
  stlDegenerateCount,
  stlIndicesPtr,
  stlPositionsPtr,
  stlNormalsPtr,
  stlBoundsPtr,
  stlErrorLine,
  stlErrorTriangle,
  stlSetWeldTolerance,
  stlMergeTests,
} from './stl';
// One file per area; each exports only pointer/number functions.
export * from './bvh';
export * from './topology';
export * from './shape';
export * from './bend';
export * from './bite';
export * from './teeth';

/** Version of the kernel ABI; bump when an export changes meaning. */
export function kernelsAbiVersion(): i32 {
  return 1;
}
