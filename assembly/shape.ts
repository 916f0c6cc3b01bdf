// Shape area: straightening (assembly/straighten.ts) and simplification
// (assembly/simplify.ts). Every export takes or returns plain numbers.
export * from './straighten';
export * from './simplify';
// Whole-mesh passes (assembly/mesh-ops.ts): vertex normals, STL records, bounds.
export { meshVertexNormals, stlWriteRecords, meshBounds, meshOpsBadTriangle } from './mesh-ops';
