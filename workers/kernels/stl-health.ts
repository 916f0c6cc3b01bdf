// The health of an uploaded STL model, as POST /admin/base/comm/upload answers it: the server
// computes it with analyzeMesh (topology.ts) and the order form judges it
// (src/modules/order/modelHealth.ts). Types only, so that the server and the page share it.

/** Vertices are welded exactly (equal float32 positions), as the editor opens the file. */
export interface StlHealth {
  triangles: number;
  vertices: number;
  /** Zero area or a repeated vertex. */
  degenerateTriangles: number;
  /** Edges of one triangle: a scan's outer rim and the edges of holes. */
  openEdges: number;
  /** Closed chains of open edges: the outer rim of an open scan plus one per hole. */
  boundaryLoops: number;
  /** Edges of three or more triangles. */
  nonManifoldEdges: number;
  /** Edges whose two triangles run them the same way (a flipped neighbour). */
  flippedEdges: number;
  /** Connected components (over shared vertices). */
  shells: number;
}
