import { describe, expect, it } from 'vitest';
import { KernelError } from '../../workers/kernels/job.ts';
import { meshFromArrays, type MeshRef } from '../../workers/kernels/mesh.ts';
import { analyzeMesh, ensureTopology, hasTopology, straightDistance, topologyViews } from '../../workers/kernels/topology.ts';
import { filterTriangles, gridPlane, indexedCube, type IndexedMesh, mergeMeshes, uvSphere } from '../fixtures/mesh.ts';
import { loadKernels } from './kernels.ts';

/** A mesh in its own kernel instance, as the worker keeps them. */
async function load(mesh: IndexedMesh): Promise<MeshRef> {
  return meshFromArrays(await loadKernels(), mesh.positions, mesh.indices);
}

function mesh(positions: number[], indices: number[]): IndexedMesh {
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}

function pairs(list: Uint32Array): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < list.length; i += 2) out.push([list[i]!, list[i + 1]!]);
  return out;
}

describe('mesh health', () => {
  it('a closed UV sphere: no open or non-manifold edges, one shell, Euler characteristic 2', async () => {
    const sphere = uvSphere(5, 32, 16);
    const h = await analyzeMesh(await load(sphere));
    expect(h.triangles).toBe(960);
    expect(h.vertices).toBe(482);
    expect(h.edges).toBe(1440);
    expect(h.openEdges).toBe(0);
    expect(h.boundaryLoops).toBe(0);
    expect(h.nonManifoldEdges).toBe(0);
    expect(h.inconsistentEdges).toBe(0);
    expect(h.degenerateTriangles).toBe(0);
    expect(h.unreferencedVertices).toBe(0);
    expect(h.closed).toBe(true);
    expect(h.manifold).toBe(true);
    expect(h.vertices - h.edges + h.triangles).toBe(2);
    expect(h.shellCount).toBe(1);
    expect([...h.shellTriangles]).toEqual([960]);
    expect([...h.shellBounds]).toEqual([-5, -5, -5, 5, 5, 5]);
    expect(h.triangleShell.every((s) => s === 0)).toBe(true);
  });

  it('a cube without its top face: exactly the 4 rim edges are open, oriented as their triangles run them', async () => {
    const cube = indexedCube(10);
    const open = filterTriangles(cube, (t) => t >= 2); // triangles 0 and 1 are the +z face
    const h = await analyzeMesh(await load(open));
    expect(h.triangles).toBe(10);
    expect(h.edges).toBe(17); // 12 cube edges + 5 face diagonals
    expect(h.openEdges).toBe(4);
    expect(h.boundaryLoops).toBe(1);
    expect(h.closed).toBe(false);
    expect(h.manifold).toBe(true);
    expect(h.nonManifoldEdges).toBe(0);
    expect(h.shellCount).toBe(1);
    // The +z rim: corners 4 (-,-), 5 (+,-), 7 (+,+), 6 (-,+); the side faces run it clockwise seen from above.
    const rim = pairs(h.openEdgeList).map(([a, b]) => `${a}-${b}`).sort();
    expect(rim).toEqual(['4-6', '5-4', '6-7', '7-5']);

    const closed = await analyzeMesh(await load(cube));
    expect(closed.openEdges).toBe(0);
    expect(closed.edges).toBe(18);
  });

  it('two separate spheres: two shells with their own triangles and bounds', async () => {
    const a = uvSphere(5, 32, 16, [0, 0, 0]);
    const b = uvSphere(2, 16, 8, [20, 0, 0]);
    const h = await analyzeMesh(await load(mergeMeshes(a, b)));
    expect(h.shellCount).toBe(2);
    expect([...h.shellTriangles]).toEqual([960, 224]);
    expect([...h.shellBounds.subarray(0, 6)]).toEqual([-5, -5, -5, 5, 5, 5]);
    expect([...h.shellBounds.subarray(6, 12)]).toEqual([18, -2, -2, 22, 2, 2]);
    expect(h.triangleShell.subarray(0, 960).every((s) => s === 0)).toBe(true);
    expect(h.triangleShell.subarray(960).every((s) => s === 1)).toBe(true);
    expect(h.openEdges).toBe(0);
  });

  it('a fin: three triangles on one edge make it non-manifold', async () => {
    // Edge 0-1 shared by a flat quad (triangles 0, 1) and an upright fin (triangle 2).
    const fin = mesh([0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, -1, 0, 0.5, 0, 1], [0, 1, 2, 1, 0, 3, 0, 1, 4]);
    const m = await load(fin);
    const h = await analyzeMesh(m);
    expect(h.edges).toBe(7);
    expect(h.nonManifoldEdges).toBe(1);
    expect(pairs(h.nonManifoldEdgeList).map(([a, b]) => [Math.min(a, b), Math.max(a, b)])).toEqual([[0, 1]]);
    expect(h.openEdges).toBe(6);
    expect(h.manifold).toBe(false);
    expect(h.shellCount).toBe(1);
    // The fin's edge ends are flagged non-manifold (4); the others are on open edges only (2).
    expect([...topologyViews(m).vertexFlags]).toEqual([1 | 2 | 4, 1 | 2 | 4, 1 | 2, 1 | 2, 1 | 2]);
  });

  it('a flipped neighbour: an edge run the same way by both triangles is inconsistent', async () => {
    const flipped = mesh([0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, -1, 0], [0, 1, 2, 0, 1, 3]);
    const h = await analyzeMesh(await load(flipped));
    expect(h.inconsistentEdges).toBe(1);
    expect(pairs(h.inconsistentEdgeList)).toEqual([[0, 1]]);
    expect(h.nonManifoldEdges).toBe(0);
    expect(h.openEdges).toBe(4);
    expect(h.manifold).toBe(false);
  });

  it('degenerate triangles: repeated indices and zero area are counted; unused vertices too', async () => {
    const m = mesh(
      [0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0, 0, 9, 9, 9],
      [
        0, 1, 2, // fine
        0, 0, 1, // repeated index
        0, 1, 3, // collinear: zero area
      ],
    );
    const h = await analyzeMesh(await load(m));
    expect(h.degenerateTriangles).toBe(2);
    expect(h.repeatedIndexTriangles).toBe(1);
    expect(h.unreferencedVertices).toBe(1);
    expect(h.shellCount).toBe(1);
    // Edges of the fine and the collinear triangle; the repeated-index one takes no part.
    expect(h.edges).toBe(5);
    expect(h.nonManifoldEdges).toBe(0);
  });

  it('an index beyond the vertices is BAD_INPUT, not a crash', async () => {
    const m = await load(mesh([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 7]));
    await expect(analyzeMesh(m)).rejects.toThrow(/BAD_INPUT/);
  });

  it('reports progress up to 1 and stops with ABORTED when cancelled', async () => {
    const m = await load(gridPlane(300, 1));
    const seen: number[] = [];
    await expect(analyzeMesh(m, { shouldCancel: () => true })).rejects.toBeInstanceOf(KernelError);
    expect(hasTopology(m)).toBe(false);
    let calls = 0;
    await expect(analyzeMesh(m, { sliceMs: 0, shouldCancel: () => ++calls > 3 })).rejects.toThrow(/ABORTED/);
    const h = await analyzeMesh(m, { sliceMs: 0, progressIntervalMs: 0, onProgress: (f) => seen.push(f) });
    expect(h.triangles).toBe(180_000);
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.at(-1)).toBe(1);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThanOrEqual(seen[i - 1]!);
  });
});

describe('boundary loops', () => {
  it('a sheet with three square holes has four: the rim and the holes', async () => {
    const n = 12;
    const sheet = gridPlane(n, 1);
    // Drop the two triangles of cells (3, 3) and (8, 6), and the four cells of a 2×2 block at (4, 8).
    const holes = new Set([[3, 3], [8, 6], [4, 8], [5, 8], [4, 9], [5, 9]].map(([i, j]) => j! * n + i!));
    const m = await load(filterTriangles(sheet, (t) => !holes.has(Math.floor(t / 2))));
    const h = await analyzeMesh(m);
    expect(h.boundaryLoops).toBe(4);
    expect(h.openEdges).toBe(4 * n + 4 + 4 + 8);
    expect(h.shellCount).toBe(1);
  });
});

describe('adjacency tables', () => {
  it('vertex neighbours and vertex triangles match a brute-force count, sorted and symmetric', async () => {
    const grid = gridPlane(12, 1, { noise: 0.1 });
    const m = await load(grid);
    await ensureTopology(m);
    const v = topologyViews(m);
    const V = m.vertexCount;
    const expectNb: Set<number>[] = Array.from({ length: V }, () => new Set());
    const expectTri: number[][] = Array.from({ length: V }, () => []);
    for (let t = 0; t < m.triangleCount; t++) {
      const c = [grid.indices[t * 3]!, grid.indices[t * 3 + 1]!, grid.indices[t * 3 + 2]!];
      for (const a of c) {
        expectTri[a]!.push(t);
        for (const b of c) if (a !== b) expectNb[a]!.add(b);
      }
    }
    for (let i = 0; i < V; i++) {
      const nb = [...v.neighbours.subarray(v.adjacencyOffsets[i]!, v.adjacencyOffsets[i + 1]!)];
      expect(nb).toEqual([...expectNb[i]!].sort((a, b) => a - b));
      const tris = [...v.triangles.subarray(v.triangleOffsets[i]!, v.triangleOffsets[i + 1]!)];
      expect(tris).toEqual(expectTri[i]);
    }
    // Interior vertices of this grid have 6 neighbours; the rim is flagged as boundary.
    const centre = 6 * 13 + 6;
    expect(v.adjacencyOffsets[centre + 1]! - v.adjacencyOffsets[centre]!).toBe(6);
    expect(v.vertexFlags[centre]! & 2).toBe(0);
    expect(v.vertexFlags[0]! & 2).toBe(2);
  });

  it('high-valence vertices (a pole of 100 triangles) get complete, sorted neighbour lists', async () => {
    const sphere = uvSphere(5, 100, 6);
    // Shuffle the triangles so that neighbours are gathered out of order.
    const T = sphere.indices.length / 3;
    const order = [...Array(T).keys()].sort((a, b) => ((a * 7919) % T) - ((b * 7919) % T));
    const shuffled = new Uint32Array(sphere.indices.length);
    order.forEach((t, i) => shuffled.set(sphere.indices.subarray(t * 3, t * 3 + 3), i * 3));
    const m = await load({ positions: sphere.positions, indices: shuffled });
    await ensureTopology(m);
    const v = topologyViews(m);
    const north = [...v.neighbours.subarray(v.adjacencyOffsets[0]!, v.adjacencyOffsets[1]!)];
    expect(north).toEqual([...Array(100).keys()].map((i) => i + 1));
    const south = m.vertexCount - 1;
    const ring = [...v.neighbours.subarray(v.adjacencyOffsets[south]!, v.adjacencyOffsets[south + 1]!)];
    expect(ring).toEqual([...Array(100).keys()].map((i) => south - 100 + i));
  });

  it('the tables are built once per mesh and stay valid', async () => {
    const m = await load(uvSphere(3, 16, 8));
    await ensureTopology(m);
    const used = m.k.arenaUsed();
    await ensureTopology(m);
    await analyzeMesh(m);
    expect(m.k.arenaUsed()).toBe(used);
    expect(hasTopology(m)).toBe(true);
  });
});

describe('straightDistance', () => {
  it('is the Euclidean distance', () => {
    expect(straightDistance([1, 2, 3], [4, 6, 3])).toBe(5);
  });
});

describe('tables and the arena', () => {
  it('a release of the arena below the tables invalidates them; they are rebuilt on demand', async () => {
    const s = uvSphere(3, 16, 8);
    const m = await load(s);
    const mark = m.k.arenaMark();
    await ensureTopology(m);
    expect(hasTopology(m)).toBe(true);
    m.k.arenaRelease(mark);
    expect(hasTopology(m)).toBe(false);
    const h = await analyzeMesh(m);
    expect(hasTopology(m)).toBe(true);
    expect(h.edges).toBe(3 * 16 * 7);
  });
});
