import { describe, expect, it } from 'vitest';
import { meshFromArrays, type MeshRef, meshViews } from '../../workers/kernels/mesh.ts';
import { FAIR_STEPS, nearestCorner, smoothDab, smoothRegion } from '../../workers/kernels/smooth.ts';
import { ensureTopology, topologyViews } from '../../workers/kernels/topology.ts';
import { gridPlane, indexedCube, type IndexedMesh, meshVolume, uvSphere, vertexNormals } from '../fixtures/mesh.ts';
import { fairDabReference } from './fair-reference.ts';
import { loadKernels } from './kernels.ts';

async function load(mesh: IndexedMesh, withNormals = false): Promise<MeshRef> {
  const normals = withNormals ? vertexNormals(mesh.positions, mesh.indices) : undefined;
  const m = meshFromArrays(await loadKernels(), mesh.positions, mesh.indices, normals);
  await ensureTopology(m);
  return m;
}

/** Bit-for-bit equality of two typed arrays (toEqual is slow on large ones). */
const sameBytes = (a: ArrayBufferView, b: ArrayBufferView): boolean =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

const dist2D = (p: Float32Array, v: number, x: number, y: number): number => Math.hypot(p[v * 3]! - x, p[v * 3 + 1]! - y);

function variance(values: number[]): number {
  const mean = values.reduce((s, x) => s + x, 0) / values.length;
  return values.reduce((s, x) => s + (x - mean) ** 2, 0) / values.length;
}

describe('brush dab', () => {
  it('smooths a noisy plane inside the radius and moves nothing outside it', async () => {
    const plane = gridPlane(60, 1, { noise: 0.3, seed: 7 });
    const m = await load(plane, true);
    const before = meshViews(m).positions.slice();
    const centre = 30 * 61 + 30;
    const r = 8;
    const inner = [...Array(m.vertexCount).keys()].filter((v) => dist2D(before, v, 30, 30) < r * 0.5);
    const zBefore = variance(inner.map((v) => before[v * 3 + 2]!));

    const result = smoothDab(m, { center: [30, 30, 0], vertex: centre, radius: r, strength: 1, iterations: 5 });
    const after = meshViews(m).positions;
    const zAfter = variance(inner.map((v) => after[v * 3 + 2]!));
    expect(zAfter).toBeLessThan(zBefore * 0.4);

    // Exactly the vertices within the radius (of the noisy positions) moved, and nothing else.
    const inside = new Set<number>();
    for (let v = 0; v < m.vertexCount; v++) {
      const d = Math.hypot(before[v * 3]! - 30, before[v * 3 + 1]! - 30, before[v * 3 + 2]!);
      if (d < r) inside.add(v);
    }
    expect(result.moved).toBe(inside.size);
    expect(new Set(result.vertices.subarray(0, result.moved))).toEqual(inside);
    for (let v = 0; v < m.vertexCount; v++) {
      if (inside.has(v)) continue;
      expect([after[v * 3], after[v * 3 + 1], after[v * 3 + 2]]).toEqual([before[v * 3], before[v * 3 + 1], before[v * 3 + 2]]);
    }

    // The rest of the list is the one-ring: neighbours of moved vertices outside the radius.
    const views = topologyViews(m);
    const ring = new Set<number>();
    for (const v of inside) {
      for (let p = views.adjacencyOffsets[v]!; p < views.adjacencyOffsets[v + 1]!; p++) {
        const w = views.neighbours[p]!;
        if (!inside.has(w)) ring.add(w);
      }
    }
    expect(new Set(result.vertices.subarray(result.moved))).toEqual(ring);

    // Returned positions and normals are the mesh's new ones; normals match a fresh computation.
    const fresh = vertexNormals(after, plane.indices);
    result.vertices.forEach((v, i) => {
      expect(result.positions[i * 3 + 2]).toBe(after[v * 3 + 2]);
      for (let a = 0; a < 3; a++) expect(result.normals![i * 3 + a]!).toBeCloseTo(fresh[v * 3 + a]!, 5);
    });
    expect(result.minVertex).toBe(Math.min(...result.vertices));
    expect(result.maxVertex).toBe(Math.max(...result.vertices));
  });

  it('touches a number of vertices that follows the radius, not the mesh size', async () => {
    const small = await load(gridPlane(40, 1, { x0: -20, y0: -20 }));
    const large = await load(gridPlane(400, 1, { x0: -200, y0: -200 }));
    const dab = (m: MeshRef, radius: number) =>
      smoothDab(m, { center: [0.2, 0.3, 0], triangle: 0, vertex: (m.vertexCount - 1) / 2, radius }).moved;
    const s3 = dab(small, 3);
    const l3 = dab(large, 3);
    const l6 = dab(large, 6);
    expect(l3).toBe(s3);
    expect(l6 / l3).toBeGreaterThan(3);
    expect(l6 / l3).toBeLessThan(5);
  });

  it('Taubin barely changes a sphere\'s volume; plain Laplacian smoothing shrinks it', async () => {
    const volumeAfter = async (mu: number): Promise<number> => {
      const s = uvSphere(10, 64, 32);
      const m = await load(s);
      const seed = 1 + 15 * 64; // on the equator at (10, 0, 0)
      for (let i = 0; i < 20; i++) smoothDab(m, { center: [10, 0, 0], vertex: seed, radius: 4, strength: 1, iterations: 3, mu });
      return meshVolume(meshViews(m).positions, s.indices) / meshVolume(s.positions, s.indices) - 1;
    };
    const taubin = await volumeAfter(-0.53);
    const laplace = await volumeAfter(0);
    expect(Math.abs(taubin)).toBeLessThan(0.001);
    expect(laplace).toBeLessThan(-0.002);
    expect(Math.abs(laplace)).toBeGreaterThan(10 * Math.abs(taubin));
  });

  it('pins vertices on open edges', async () => {
    const plane = gridPlane(20, 1, { noise: 0.3, seed: 3 });
    const m = await load(plane);
    const before = meshViews(m).positions.slice();
    const r = smoothDab(m, { center: [10, 0, 0], vertex: 10, radius: 4, strength: 1 });
    expect(r.moved).toBeGreaterThan(10);
    const after = meshViews(m).positions;
    let movedInterior = 0;
    for (const v of r.vertices.subarray(0, r.moved)) {
      const y = before[v * 3 + 1]!;
      const same = after[v * 3] === before[v * 3] && after[v * 3 + 1] === before[v * 3 + 1] && after[v * 3 + 2] === before[v * 3 + 2];
      if (y === 0) expect(same).toBe(true);
      else if (!same) movedInterior++;
    }
    expect(movedInterior).toBeGreaterThan(5);
  });

  it('seeds from the picked triangle\'s nearest corner; a seed outside the radius moves nothing', async () => {
    const m = await load(gridPlane(10, 1, { noise: 0.2 }));
    const t = 2 * (5 * 10 + 5); // cell (5, 5): corners 5*11+5, +1, +12
    expect(nearestCorner(m, t, [5.9, 5.1, 0])).toBe(5 * 11 + 6);
    const before = meshViews(m).positions.slice();
    const none = smoothDab(m, { center: [5.5, 5.5, 0], vertex: 0, radius: 1 });
    expect(none.moved).toBe(0);
    expect(none.vertices.length).toBe(0);
    expect(meshViews(m).positions).toEqual(before);
    const some = smoothDab(m, { center: [5.5, 5.5, 0], triangle: t, radius: 2, strength: 1 });
    expect(some.moved).toBeGreaterThan(4);
  });

  it('needs the topology first', async () => {
    const s = uvSphere(1, 8, 4);
    const m = meshFromArrays(await loadKernels(), s.positions, s.indices);
    expect(() => smoothDab(m, { center: [0, 0, 1], vertex: 0, radius: 1 })).toThrow(/ensureTopology/);
  });
});

describe("brush dab: the 'fair' filter", () => {
  const radiusRange = (p: Float32Array): [number, number] => {
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < p.length; i += 3) {
      const r = Math.hypot(p[i]!, p[i + 1]!, p[i + 2]!);
      lo = Math.min(lo, r);
      hi = Math.max(hi, r);
    }
    return [lo, hi];
  };

  it('keeps a sphere round where as many plain Laplacian rounds shrink it', async () => {
    const run = async (dab: Partial<Parameters<typeof smoothDab>[1]>) => {
      const m = await load(uvSphere(5, 64, 32), true);
      const seed = 1 + 15 * 64; // on the equator at (5, 0, 0)
      for (let i = 0; i < 5; i++) smoothDab(m, { center: [5, 0, 0], vertex: seed, radius: 2, strength: 1, ...dab });
      return radiusRange(meshViews(m).positions);
    };
    const [fairLo, fairHi] = await run({ filter: 'fair' });
    expect(fairLo).toBeGreaterThan(4.98);
    expect(fairHi).toBeLessThan(5.001);
    const [laplaceLo] = await run({ iterations: FAIR_STEPS.length, mu: 0 });
    expect(laplaceLo).toBeLessThan(4.9);
  });

  it('takes much of a narrow groove out in one dab, touching only the sphere of the radius', async () => {
    const plane = gridPlane(40, 0.2);
    for (let v = 0; v < plane.positions.length / 3; v++) {
      const x = plane.positions[v * 3]! - 4;
      plane.positions[v * 3 + 2] = -0.6 * Math.max(0, 1 - Math.abs(x) / 0.5);
    }
    const m = await load(plane, true);
    const before = meshViews(m).positions.slice();
    const centre = 20 * 41 + 20; // (4, 4), the groove's bottom
    const taubin = await load(plane, true);
    smoothDab(taubin, { center: [4, 4, -0.6], vertex: centre, radius: 2, strength: 1 });
    const r = smoothDab(m, { center: [4, 4, -0.6], vertex: centre, radius: 2, strength: 1, filter: 'fair' });
    const after = meshViews(m).positions;
    expect(after[centre * 3 + 2]!).toBeGreaterThan(-0.36); // 40 % of the depth gone in one dab
    expect(meshViews(taubin).positions[centre * 3 + 2]!).toBeLessThan(-0.5); // the first brush hardly moves it
    const inside = new Set<number>();
    for (let v = 0; v < m.vertexCount; v++) if (Math.hypot(before[v * 3]! - 4, before[v * 3 + 1]! - 4, before[v * 3 + 2]! + 0.6) < 2) inside.add(v);
    expect(new Set(r.vertices.subarray(0, r.moved))).toEqual(inside);
    for (let v = 0; v < m.vertexCount; v++) if (!inside.has(v)) expect(after[v * 3 + 2]).toBe(before[v * 3 + 2]);
    const fresh = vertexNormals(after, plane.indices);
    r.vertices.forEach((v, i) => {
      for (let a = 0; a < 3; a++) expect(r.normals![i * 3 + a]!).toBeCloseTo(fresh[v * 3 + a]!, 5);
    });
  });

  it('moves a vertex at most a quarter of the radius where the mesh is far coarser than the brush', async () => {
    const cube = indexedCube(10);
    const m = await load(cube);
    const before = meshViews(m).positions.slice();
    const corner = 0;
    const c: [number, number, number] = [before[0]!, before[1]!, before[2]!];
    const r = smoothDab(m, { center: c, vertex: corner, radius: 2, strength: 1, filter: 'fair' });
    expect(r.moved).toBe(1);
    const after = meshViews(m).positions;
    const moved = Math.hypot(after[0]! - before[0]!, after[1]! - before[1]!, after[2]! - before[2]!);
    expect(moved).toBeGreaterThan(0.1); // the corner is rounded a little
    expect(moved).toBeLessThanOrEqual(0.5 + 1e-6);
  });

  it('gives bit for bit the positions of a plain f64 reference, so saved strokes replay exactly', async () => {
    for (const shape of [uvSphere(5, 48, 24), gridPlane(40, 0.2, { noise: 0.05, seed: 3 })]) {
      const kernel = await load(shape, true);
      const reference = await load(shape, true);
      const p = shape.positions;
      for (let i = 0; i < 40; i++) {
        const v = (i * 397) % kernel.vertexCount;
        const centre: [number, number, number] = [p[v * 3]! + 0.013, p[v * 3 + 1]! - 0.007, p[v * 3 + 2]!];
        const radius = 0.5 + (i % 5) * 0.6, strength = ((i % 4) + 1) / 4;
        const r = smoothDab(kernel, { center: centre, vertex: v, radius, strength, filter: 'fair' });
        expect(r.moved).toBe(fairDabReference(reference, v, centre, radius, strength));
      }
      expect(meshViews(kernel).positions).toEqual(meshViews(reference).positions);
      expect(meshViews(kernel).positions).not.toEqual(p);
    }
  });

  it('stays bounded on a noisy surface and scales with strength', async () => {
    const noisy = gridPlane(60, 0.2, { noise: 0.05, seed: 5 });
    const rms = async (strength: number): Promise<number> => {
      const m = await load(noisy);
      smoothDab(m, { center: [6, 6, 0], vertex: 30 * 61 + 30, radius: 2, strength, filter: 'fair' });
      const p = meshViews(m).positions;
      let s = 0, n = 0;
      for (let v = 0; v < m.vertexCount; v++) {
        expect(Math.abs(p[v * 3 + 2]!)).toBeLessThanOrEqual(0.05);
        if (Math.hypot(p[v * 3]! - 6, p[v * 3 + 1]! - 6) < 1) (s += p[v * 3 + 2]! ** 2), n++;
      }
      return Math.sqrt(s / n);
    };
    const none = await rms(0), subtle = await rms(0.1), full = await rms(1);
    expect(full).toBeLessThan(none * 0.5);
    expect(subtle).toBeLessThan(none);
    expect(subtle).toBeGreaterThan(none * 0.85);
  });
});

describe('region smoothing', () => {
  it('whole mesh: Taubin keeps a sphere\'s volume within 1 %, plain Laplacian loses over 5 %', async () => {
    const run = async (mu: number) => {
      const s = uvSphere(10, 64, 32);
      const m = await load(s, true);
      const r = await smoothRegion(m, { iterations: 10, mu }, { sliceMs: 0 });
      expect(r.moved).toBe(m.vertexCount);
      return meshVolume(meshViews(m).positions, s.indices) / meshVolume(s.positions, s.indices) - 1;
    };
    expect(Math.abs(await run(-0.53))).toBeLessThan(0.01);
    expect(await run(0)).toBeLessThan(-0.05);
  });

  it('a vertex set: only those move, the list adds their ring; progress and cancellation work', async () => {
    const plane = gridPlane(30, 1, { noise: 0.3, seed: 11 });
    const m = await load(plane, true);
    const before = meshViews(m).positions.slice();
    const region = Uint32Array.from([...Array(m.vertexCount).keys()].filter((v) => dist2D(before, v, 15, 15) < 5));
    const seen: number[] = [];
    await expect(smoothRegion(m, { vertices: region }, { sliceMs: 0, shouldCancel: () => true })).rejects.toThrow(/ABORTED/);
    const r = await smoothRegion(m, { vertices: region, iterations: 5 }, { sliceMs: 0, progressIntervalMs: 0, onProgress: (f) => seen.push(f) });
    expect(r.moved).toBe(region.length);
    expect(new Set(r.vertices.subarray(0, r.moved))).toEqual(new Set(region));
    expect(r.vertices.length).toBeGreaterThan(r.moved);
    const after = meshViews(m).positions;
    const inRegion = new Set(region);
    let changed = 0;
    for (let v = 0; v < m.vertexCount; v++) {
      const same = after[v * 3 + 2] === before[v * 3 + 2];
      if (!inRegion.has(v)) expect(same).toBe(true);
      else if (!same) changed++;
    }
    expect(changed).toBe(region.length);
    expect(variance([...region].map((v) => after[v * 3 + 2]!))).toBeLessThan(variance([...region].map((v) => before[v * 3 + 2]!)) * 0.5);
    expect(seen.at(-1)).toBe(1);
  });

  it('is one job across its passes: progress is throttled over the whole call, not per pass', async () => {
    const m = await load(gridPlane(30, 1, { noise: 0.3, seed: 11 }), true);
    const seen: number[] = [];
    // A slice and an interval longer than the call: only the final 1 (a job per pass reported once each).
    await smoothRegion(m, { iterations: 50 }, { sliceMs: 1e9, progressIntervalMs: 1e9, onProgress: (f) => seen.push(f) });
    expect(seen).toEqual([1]);
    // Every chunk of every pass reports when nothing throttles; the fractions rise to 1.
    seen.length = 0;
    await smoothRegion(m, { iterations: 50 }, { sliceMs: 0, progressIntervalMs: 0, onProgress: (f) => seen.push(f) });
    expect(seen.length).toBe(50 * 4 + 1 + 1);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThanOrEqual(seen[i - 1]!);
    expect(seen.at(-1)).toBe(1);
  });

  it('cancelled or failing part way, it puts back every position and normal it changed', async () => {
    // 300 × 300 cells: 90,601 vertices, so each pass runs in several chunks (of 32,768).
    const plane = gridPlane(300, 1, { noise: 0.3, seed: 13 });
    const m = await load(plane, true);
    const positions = meshViews(m).positions.slice();
    const normals = meshViews(m).normals!.slice();
    const unchanged = (): boolean =>
      sameBytes(meshViews(m).positions, positions) && sameBytes(meshViews(m).normals!, normals);
    const disc = Uint32Array.from([...Array(m.vertexCount).keys()].filter((v) => dist2D(positions, v, 150, 150) < 148));
    expect(disc.length).toBeGreaterThan(2 * 32_768);
    // Two rounds of λ and μ: units of progress 0 λ, 1 apply, 2 μ, 3 apply, 4-7 the second
    // round, 8 the normals. Stop just after the first chunk of each chosen unit.
    const units = 9;
    for (const vertices of [disc, undefined]) {
      for (const unit of [0, 1, 3, 5, 8]) {
        let last = 0;
        const stopped = smoothRegion(
          m,
          { vertices, iterations: 2 },
          { sliceMs: 0, progressIntervalMs: 0, onProgress: (f) => (last = f), shouldCancel: () => last > (unit + 0.2) / units },
        );
        await expect(stopped).rejects.toThrow(/ABORTED/);
        expect(last).toBeLessThan((unit + 1) / units); // it did stop in that unit
        expect(unchanged()).toBe(true);
      }
      // Any failure: here the progress listener throws half way through.
      let reports = 0;
      const failing = smoothRegion(m, { vertices, iterations: 2 }, {
        sliceMs: 0,
        progressIntervalMs: 0,
        onProgress: () => {
          if (++reports === 6) throw new Error('listener failed');
        },
      });
      await expect(failing).rejects.toThrow(/listener failed/);
      expect(unchanged()).toBe(true);
    }
    // Run to the end, the same call changes them.
    await smoothRegion(m, { vertices: disc, iterations: 2 }, { sliceMs: 0 });
    expect(sameBytes(meshViews(m).positions, positions)).toBe(false);
    expect(sameBytes(meshViews(m).normals!, normals)).toBe(false);
  });
});
