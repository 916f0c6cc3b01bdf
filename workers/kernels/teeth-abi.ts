// Raw exports of assembly/teeth.ts (teeth segmentation phases), typed for JS.
// Pointers come back as i32: read them with `>>> 0`. Statuses: 0 ok, -1 out of memory, -3 bad input.

export interface TeethExports {
  /** 16 f64, column-major rigid matrix (model to canonical) that teethPrepare applies. */
  teethMatrixPtr(): number;
  teethPrepare(positionsPtr: number, indicesPtr: number, vertexCount: number, triangleCount: number, sign: number, passes: number, denoise: number): number;
  /** Returns the number of components; per component 5 f64 at teethStatsPtr(): area, sum a x, sum a y, sum a z, max z. */
  teethCores(concave: number, depth: number): number;
  /** Returns the vertices no seed reached. */
  teethWatershed(gumDepth: number, gumId: number, maxRadius: number): number;
  /** f64 (x, y) per crown region 0..63: plane centres for the watershed's radius limit. */
  teethCentersPtr(): number;
  /** Crest pass: gum vertices beside a crown and more concave than it join it; returns how many moved. */
  teethDilate(gumId: number): number;
  /** f64 xyz per vertex, canonical (z towards the opposing jaw). */
  teethXPtr(): number;
  teethAreaPtr(): number;
  teethCurvaturePtr(): number;
  /** i32 per vertex: core component or -1. */
  teethComponentPtr(): number;
  teethStatsPtr(): number;
  /** i32 per vertex: the caller's seeds before teethWatershed, the regions after. */
  teethRegionPtr(): number;
}
