// Raw exports of assembly/mesh-ops.ts (whole-mesh passes: vertex normals, STL
// records, bounds), typed for JS. Pointers and u32 counts come back as i32:
// read them with `>>> 0`.

export interface MeshOpsExports {
  /**
   * Area-weighted unit vertex normals into `out` (vertexCount × 12 bytes), using (and releasing)
   * 16 bytes per vertex of arena scratch. Returns the number of degenerate triangles, -1 when a
   * triangle refers to a missing vertex, -2 when the scratch does not fit.
   */
  meshVertexNormals(pos: number, idx: number, vertexCount: number, triangleCount: number, out: number): number;
  /** Binary STL records (50 bytes each) of triangles [start, end) at `out`; 0, or -1 for a missing vertex. */
  stlWriteRecords(pos: number, idx: number, vertexCount: number, start: number, end: number, out: number): number;
  /** Bounds of the positions: pointer to f32 min x, y, z, max x, y, z (valid until the next call). */
  meshBounds(pos: number, vertexCount: number): number;
  /** The triangle the last meshVertexNormals / stlWriteRecords rejected (-1: none). */
  meshOpsBadTriangle(): number;
}
