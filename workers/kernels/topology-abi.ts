// Raw exports of assembly/topology.ts (mesh health, shells, adjacency, smoothing and geodesics), typed for JS.
// Pointers and u32 counts come back as i32: read them with `>>> 0`.
// Statuses: 0 ok, -1 out of memory, -2 bad state (analyse first), -3 bad input, -4 unreachable.

export interface TopologyExports {
  // ---- analysis (assembly/topo-mesh.ts), phases in this order
  topoBegin(positionsPtr: number, indicesPtr: number, normalsPtr: number, vertexCount: number, triangleCount: number): number;
  topoCountCorners(t0: number, t1: number): number;
  topoPrefixCorners(): number;
  topoFillCorners(t0: number, t1: number): number;
  topoCountEdges(v0: number, v1: number): number;
  topoPrefixEdges(): number;
  topoFillEdges(v0: number, v1: number): number;
  topoPrepareShells(): number;
  topoLabelShells(t0: number, t1: number): number;

  topoReady(): number;
  topoMeshPositions(): number;
  topoMeshIndices(): number;
  topoDegenerateCount(): number;
  topoRepeatedIndexCount(): number;
  topoUnreferencedCount(): number;
  topoEdgeCount(): number;
  topoOpenEdgeCount(): number;
  topoNonManifoldEdgeCount(): number;
  topoInconsistentEdgeCount(): number;
  topoOpenEdgesPtr(): number;
  topoNonManifoldEdgesPtr(): number;
  topoInconsistentEdgesPtr(): number;
  topoShellCount(): number;
  topoTriangleShellPtr(): number;
  topoShellTrianglesPtr(): number;
  topoShellBoundsPtr(): number;
  topoVertexTrianglesOffsetsPtr(): number;
  topoVertexTrianglesPtr(): number;
  topoAdjacencyOffsetsPtr(): number;
  topoAdjacencyPtr(): number;
  topoAdjacencyCount(): number;
  topoVertexFlagsPtr(): number;

  // ---- smoothing (assembly/smooth.ts)
  smoothPrepare(): number;
  smoothPass(factor: number, start: number, end: number): void;
  smoothApply(start: number, end: number): void;
  smoothNormals(start: number, end: number): void;
  smoothDab(
    seed: number,
    cx: number,
    cy: number,
    cz: number,
    radius: number,
    strength: number,
    iterations: number,
    lambda: number,
    mu: number,
  ): number;
  smoothSetFairStep(i: number, t: number, count: number): number;
  smoothFairDab(seed: number, cx: number, cy: number, cz: number, radius: number, strength: number): number;
  smoothRegionBegin(idsPtr: number, count: number, strength: number): number;
  smoothRegionBeginAll(strength: number): number;
  smoothMovedCount(): number;
  smoothTotalCount(): number;
  smoothListPtr(): number;
  smoothMinVertex(): number;
  smoothMaxVertex(): number;

  // ---- geodesics (assembly/geodesic.ts)
  geoPrepare(steinerPerEdge: number): number;
  geoBegin(ta: number, ax: number, ay: number, az: number, tb: number, bx: number, by: number, bz: number): number;
  geoStep(budget: number): number;
  geoFinish(sweeps: number): number;
  geoPathPtr(): number;
  geoPathCount(): number;
  geoLength(): number;
  geoGraphLength(): number;
  geoSettledCount(): number;
  geoNodeCount(): number;
  geoEdgeCount(): number;
}
