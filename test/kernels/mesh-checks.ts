// Checks on indexed meshes shared by the kernel tests.

/** Edges used by one triangle only (open), by more than two (non-manifold), or twice the same way (flipped). */
export function edgeReport(indices: Uint32Array): { open: number; nonManifold: number; misoriented: number } {
  const uses = new Map<string, { forward: number; backward: number }>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e]!, b = indices[t + ((e + 1) % 3)]!;
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      const u = uses.get(key) ?? { forward: 0, backward: 0 };
      if (a < b) u.forward++;
      else u.backward++;
      uses.set(key, u);
    }
  }
  let open = 0, nonManifold = 0, misoriented = 0;
  for (const u of uses.values()) {
    const n = u.forward + u.backward;
    if (n === 1) open++;
    else if (n > 2) nonManifold++;
    else if (u.forward !== 1) misoriented++;
  }
  return { open, nonManifold, misoriented };
}
