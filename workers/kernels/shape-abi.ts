// Raw exports of assembly/shape.ts (straightening and simplification), typed for JS.
// Pointers and u32 counts come back as i32: read them with `>>> 0`.

export interface ShapeExports {
  /** Starts a straightening job on a mesh; 0 or a negative status. */
  straightenBegin(pos: number, idx: number, vertices: number, triangles: number): number;
  /** Accumulates the surface moments of triangles [start, end). */
  straightenMoments(start: number, end: number): void;
  /** The rest of the job; jaw 0 lower, 1 upper, 2 box. Returns 1 (arch), 2 (box) or a negative status. */
  straightenFinish(jaw: number): number;
  /** f64[48]: matrix, inverse, quality, method, diagnostics (assembly/straighten.ts R_*). */
  straightenResultPtr(): number;
  /** Applies the column-major f64 matrix at `mat` to positions and normals (0: none) in place. */
  shapeTransformMesh(pos: number, nrm: number, vertices: number, mat: number): void;
  /** A 16-f64 input slot for shapeTransformMesh. */
  shapeMatrixPtr(): number;

  /** Starts a decimation job above the arena's current top; 0 or a negative status (-1 empty, -2 out of memory). */
  simplifyBegin(pos: number, idx: number, vertices: number, triangles: number, targetTriangles: number): number;
  /** Up to `budget` items of work: 1 while work remains, 0 when done, negative on error. */
  simplifyStep(budget: number): number;
  /** 0..1. */
  simplifyProgress(): number;
  /** Drops the job's memory (cancellation). */
  simplifyAbort(): void;
  simplifyVertexCount(): number;
  simplifyTriangleCount(): number;
  simplifyPositionsPtr(): number;
  simplifyNormalsPtr(): number;
  simplifyIndicesPtr(): number;
  simplifyCollapses(): number;
  /** Largest error estimate of a collapse (RMS distance to the planes it stood for, model units). */
  simplifyMaxError(): number;
  /** Diagnostics: 0 heap pops, 1 stale entries, 2 rejected collapses, 3 largest fan seen. */
  simplifyStat(i: number): number;
}
