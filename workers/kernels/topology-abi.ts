// Raw exports of assembly/topology.ts (mesh health, shells, adjacency, smoothing and geodesics), typed for JS.
// Pointers and u32 counts come back as i32: read them with `>>> 0`.

export interface TopologyExports {
  topologyAbiPlaceholder(): number;
}
