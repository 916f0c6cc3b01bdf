// The analysis against a plain JavaScript reference on random triangle sets:
// repeated indices, flipped and shared edges, fins and unused vertices all
// turn up, so every edge class and the shell numbering get exercised.
import { describe, expect, it } from 'vitest';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { analyzeMesh, topologyViews } from '../../workers/kernels/topology.ts';
import { random } from '../fixtures/mesh.ts';
import { loadKernels } from './kernels.ts';

interface Reference {
  edges: number;
  open: number;
  nonManifold: number;
  inconsistent: number;
  repeated: number;
  unreferenced: number;
  triangleShell: number[];
  shellTriangles: number[];
  neighbours: number[][];
}

function reference(V: number, idx: Uint32Array): Reference {
  const T = idx.length / 3;
  const uses = new Map<string, { out: number; in: number }>();
  const neighbours: Set<number>[] = Array.from({ length: V }, () => new Set());
  const parent = [...Array(V).keys()];
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x]!)));
  let repeated = 0;
  const used = new Set<number>();
  for (let t = 0; t < T; t++) {
    const c = [idx[t * 3]!, idx[t * 3 + 1]!, idx[t * 3 + 2]!];
    c.forEach((v) => used.add(v));
    for (const a of c) for (const b of c) if (a !== b) neighbours[a]!.add(b);
    parent[find(c[1]!)] = find(c[0]!);
    parent[find(c[2]!)] = find(c[0]!);
    if (c[0] === c[1] || c[1] === c[2] || c[0] === c[2]) {
      repeated++;
      continue;
    }
    for (let i = 0; i < 3; i++) {
      const a = c[i]!, b = c[(i + 1) % 3]!;
      const key = `${Math.min(a, b)}-${Math.max(a, b)}`;
      const u = uses.get(key) ?? { out: 0, in: 0 };
      if (a < b) u.out++;
      else u.in++;
      uses.set(key, u);
    }
  }
  let open = 0, nonManifold = 0, inconsistent = 0;
  for (const u of uses.values()) {
    const n = u.out + u.in;
    if (n === 1) open++;
    else if (n > 2) nonManifold++;
    else if (u.out !== 1) inconsistent++;
  }
  const label = new Map<number, number>();
  const triangleShell: number[] = [];
  const shellTriangles: number[] = [];
  for (let t = 0; t < T; t++) {
    const r = find(idx[t * 3]!);
    if (!label.has(r)) {
      label.set(r, label.size);
      shellTriangles.push(0);
    }
    const s = label.get(r)!;
    triangleShell.push(s);
    shellTriangles[s]!++;
  }
  return {
    edges: uses.size,
    open,
    nonManifold,
    inconsistent,
    repeated,
    unreferenced: V - used.size,
    triangleShell,
    shellTriangles,
    neighbours: neighbours.map((s) => [...s].sort((a, b) => a - b)),
  };
}

describe('mesh analysis against a reference', () => {
  it('matches on 40 random triangle sets', async () => {
    const rnd = random(12345);
    const seen = { nonManifold: 0, inconsistent: 0, repeated: 0, multiShell: 0, unreferenced: 0 };
    for (let round = 0; round < 40; round++) {
      const V = 5 + Math.floor(rnd() * 40);
      const T = 1 + Math.floor(rnd() * 80);
      const positions = Float32Array.from({ length: V * 3 }, () => rnd() * 10);
      // Indices from a small window so that edges get shared, sometimes by many triangles.
      const idx = new Uint32Array(T * 3);
      for (let t = 0; t < T; t++) {
        const base = Math.floor(rnd() * Math.max(1, V - 6));
        for (let c = 0; c < 3; c++) idx[t * 3 + c] = Math.min(V - 1, base + Math.floor(rnd() * 6));
      }
      const m = meshFromArrays(await loadKernels(), positions, idx);
      const h = await analyzeMesh(m);
      const r = reference(V, idx);
      const what = `round ${round}: V ${V}, T ${T}`;
      expect({ what, edges: h.edges, open: h.openEdges, nm: h.nonManifoldEdges, inc: h.inconsistentEdges, rep: h.repeatedIndexTriangles, unref: h.unreferencedVertices }).toEqual({
        what,
        edges: r.edges,
        open: r.open,
        nm: r.nonManifold,
        inc: r.inconsistent,
        rep: r.repeated,
        unref: r.unreferenced,
      });
      expect([...h.triangleShell]).toEqual(r.triangleShell);
      expect([...h.shellTriangles]).toEqual(r.shellTriangles);
      const v = topologyViews(m);
      for (let i = 0; i < V; i++) expect([...v.neighbours.subarray(v.adjacencyOffsets[i]!, v.adjacencyOffsets[i + 1]!)]).toEqual(r.neighbours[i]);
      expect(h.openEdgeList.length).toBe(2 * r.open);
      seen.nonManifold += r.nonManifold;
      seen.inconsistent += r.inconsistent;
      seen.repeated += r.repeated;
      seen.unreferenced += r.unreferenced;
      if (r.shellTriangles.length > 1) seen.multiShell++;
    }
    // The random sets did exercise every case.
    for (const [k, n] of Object.entries(seen)) expect(n, k).toBeGreaterThan(0);
  });
});
