// Simplification on generated shapes: a 100k-triangle sphere decimated to 10k
// stays a closed, outward, round sphere; open borders stay put; progress and
// cancellation work.
import { beforeAll, describe, expect, it } from 'vitest';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import { KernelError } from '../../workers/kernels/job.ts';
import { meshFromArrays, type MeshRef } from '../../workers/kernels/mesh.ts';
import { simplify } from '../../workers/kernels/simplify.ts';
import { parseStl } from '../../workers/kernels/stl.ts';
import { jawMesh } from '../fixtures/jaw.ts';
import { sphereStl, sphereTriangles } from '../fixtures/stl.ts';
import { loadKernels } from './kernels.ts';
import { edgeReport } from './mesh-checks.ts';

let k: KernelExports;

beforeAll(async () => {
  k = await loadKernels();
});

/** A 100,000-triangle UV sphere of radius 40 parsed (and welded) by the STL kernel, as the worker does. */
async function sphere100k(): Promise<MeshRef> {
  k.arenaReset();
  const r = await parseStl(k, sphereStl({ segments: 250, rings: 201, radius: 40 }));
  if (!r.ok) throw new Error(r.error.code);
  return meshFromArrays(k, r.mesh.positions, r.mesh.indices);
}

describe('simplifying a sphere of 100,000 triangles to 10,000', () => {
  it('meets the target, stays closed, round and outward', async () => {
    const mesh = await sphere100k();
    expect(mesh.triangleCount).toBe(100_000);
    expect(edgeReport(new Uint32Array(k.memory.buffer, mesh.indicesPtr, mesh.triangleCount * 3).slice()).open).toBe(0);
    const r = await simplify(mesh, { targetTriangles: 10_000 });
    expect(Math.abs(r.triangleCount - 10_000)).toBeLessThanOrEqual(100);
    expect(r.indices.length).toBe(r.triangleCount * 3);
    // Closed genus-0 surface: V = T / 2 + 2, every edge twice, in opposite directions.
    expect(r.vertexCount).toBe(r.triangleCount / 2 + 2);
    expect(edgeReport(r.indices)).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });
    let maxDeviation = 0;
    for (let v = 0; v < r.vertexCount; v++) {
      const x = r.positions[v * 3]!, y = r.positions[v * 3 + 1]!, z = r.positions[v * 3 + 2]!;
      const len = Math.hypot(x, y, z);
      maxDeviation = Math.max(maxDeviation, Math.abs(len - 40));
      // Outward normals: along the radius.
      const dot = (x * r.normals[v * 3]! + y * r.normals[v * 3 + 1]! + z * r.normals[v * 3 + 2]!) / len;
      expect(dot).toBeGreaterThan(0.95);
    }
    // 10k triangles over a 40 mm sphere: edges of about 2.5 mm; vertices stay on the surface.
    expect(maxDeviation).toBeLessThan(0.1);
    // The kernel's own estimate is of the same order, and not zero.
    expect(r.maxError).toBeGreaterThan(0.001);
    expect(r.maxError).toBeLessThan(0.1);
    // Triangles wind counter-clockwise from outside: positive volume, close to the sphere's.
    let volume = 0;
    const p = r.positions;
    for (let t = 0; t < r.indices.length; t += 3) {
      const a = r.indices[t]! * 3, b = r.indices[t + 1]! * 3, c = r.indices[t + 2]! * 3;
      volume += p[a]! * (p[b + 1]! * p[c + 2]! - p[b + 2]! * p[c + 1]!) - p[a + 1]! * (p[b]! * p[c + 2]! - p[b + 2]! * p[c]!) + p[a + 2]! * (p[b]! * p[c + 1]! - p[b + 1]! * p[c]!);
    }
    volume /= 6;
    expect(volume / ((4 / 3) * Math.PI * 40 ** 3)).toBeGreaterThan(0.99);
    expect(volume / ((4 / 3) * Math.PI * 40 ** 3)).toBeLessThan(1.001);
  });

  it('reports progress, ending with 1', async () => {
    const mesh = await sphere100k();
    const seen: number[] = [];
    await simplify(mesh, { targetTriangles: 10_000, sliceMs: 0, progressIntervalMs: 0, onProgress: (f) => seen.push(f) });
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.at(-1)).toBe(1);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThanOrEqual(seen[i - 1]!);
    expect(seen.some((f) => f > 0.3 && f < 0.95)).toBe(true);
  });

  it('runs two jobs on one instance one after the other', async () => {
    const mesh = await sphere100k();
    const [a, b] = await Promise.all([
      simplify(mesh, { targetTriangles: 20_000, sliceMs: 0 }),
      simplify(mesh, { targetTriangles: 30_000, sliceMs: 0 }),
    ]);
    expect(a.triangleCount).toBe(20_000);
    expect(b.triangleCount).toBe(30_000);
    expect(edgeReport(a.indices).open).toBe(0);
    expect(edgeReport(b.indices).open).toBe(0);
  });

  it('stops with ABORTED when cancelled mid-way, and frees its memory', async () => {
    const mesh = await sphere100k();
    const used = k.arenaUsed() >>> 0;
    let calls = 0;
    const job = simplify(mesh, { targetTriangles: 10_000, sliceMs: 0, shouldCancel: () => ++calls > 3 });
    await expect(job).rejects.toBeInstanceOf(KernelError);
    await expect(simplify(mesh, { targetTriangles: 10_000, sliceMs: 0, shouldCancel: () => ++calls > 3 })).rejects.toMatchObject({ code: 'ABORTED' });
    expect(k.arenaUsed() >>> 0).toBe(used);
    // The instance still works afterwards.
    const r = await simplify(mesh, { targetTriangles: 50_000 });
    expect(r.triangleCount).toBe(50_000);
  });
});

describe('simplifying other meshes', () => {
  it('keeps an open border in place (a jaw cut open at its base)', async () => {
    // The generated jaw without the flat bottom of its ridge: an open surface.
    const jaw = jawMesh({ detail: 1 });
    const keep: number[] = [];
    const p = jaw.positions;
    for (let t = 0; t < jaw.indices.length; t += 3) {
      const zs = [0, 1, 2].map((i) => p[jaw.indices[t + i]! * 3 + 2]!);
      if (zs.every((z) => z < -15.99)) continue; // the bottom
      keep.push(jaw.indices[t]!, jaw.indices[t + 1]!, jaw.indices[t + 2]!);
    }
    const indices = Uint32Array.from(keep);
    const before = edgeReport(indices);
    expect(before.open).toBeGreaterThan(100);
    k.arenaReset();
    const r = await simplify(meshFromArrays(k, p, indices), { targetTriangles: Math.round(indices.length / 3 / 4) });
    expect(Math.abs(r.triangleCount - indices.length / 12)).toBeLessThan(indices.length / 3 / 400);
    const after = edgeReport(r.indices);
    expect(after.nonManifold).toBe(0);
    expect(after.misoriented).toBe(0);
    expect(after.open).toBeGreaterThan(0);
    // Border vertices stay on the cut plane z = -16.
    const onBorder = new Set<number>();
    const count = new Map<string, number>();
    for (let t = 0; t < r.indices.length; t += 3) {
      for (let e = 0; e < 3; e++) {
        const a = r.indices[t + e]!, b = r.indices[t + ((e + 1) % 3)]!;
        const key = a < b ? `${a},${b}` : `${b},${a}`;
        count.set(key, (count.get(key) ?? 0) + 1);
      }
    }
    for (const [key, n] of count) if (n === 1) for (const v of key.split(',')) onBorder.add(Number(v));
    for (const v of onBorder) expect(Math.abs(r.positions[v * 3 + 2]! + 16)).toBeLessThan(0.05);
  });

  it('copes with a damaged mesh (holes, flipped, duplicated and degenerate triangles)', async () => {
    const jaw = jawMesh({ detail: 0.5 });
    let seed = 12345;
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const tris: number[] = [];
    for (let t = 0; t < jaw.indices.length; t += 3) {
      if (rnd() < 0.05) continue;
      const a = jaw.indices[t]!, b = jaw.indices[t + 1]!, c = jaw.indices[t + 2]!;
      if (rnd() < 0.02) tris.push(a, c, b);
      else tris.push(a, b, c);
      if (rnd() < 0.005) tris.push(a, b, c);
      if (rnd() < 0.002) tris.push(a, a, b);
    }
    const indices = Uint32Array.from(tris);
    const before = edgeReport(indices);
    expect(before.nonManifold).toBeGreaterThan(10);
    k.arenaReset();
    const r = await simplify(meshFromArrays(k, jaw.positions, indices), { targetTriangles: Math.round(indices.length / 12) });
    for (const i of r.indices) expect(i).toBeLessThan(r.vertexCount);
    // Far fewer triangles (the holes' borders limit how far it can go), and no new damage.
    expect(r.triangleCount).toBeLessThan(indices.length / 3 / 2);
    const after = edgeReport(r.indices);
    expect(after.nonManifold).toBeLessThanOrEqual(before.nonManifold);
    expect(after.misoriented).toBeLessThanOrEqual(before.misoriented);
  });

  it('returns the mesh unchanged when it is already under the target', async () => {
    const jaw = jawMesh({ detail: 0.5 });
    k.arenaReset();
    const r = await simplify(meshFromArrays(k, jaw.positions, jaw.indices), { targetTriangles: 10_000_000 });
    expect(r.triangleCount).toBe(jaw.indices.length / 3);
    expect(r.collapses).toBe(0);
  });

  it('leaves a triangle soup (nothing welded, every edge open) intact', async () => {
    const soup = sphereTriangles(10, 64, 32);
    k.arenaReset();
    const mesh = meshFromArrays(k, soup, Uint32Array.from({ length: soup.length / 3 }, (_, i) => i));
    const r = await simplify(mesh, { targetTriangles: 100 });
    // Collapsing any edge of a lone triangle would leave nothing: every collapse is refused.
    expect(r.triangleCount).toBe(soup.length / 9);
    expect(r.collapses).toBe(0);
  });

  it('refuses an empty mesh', async () => {
    k.arenaReset();
    await expect(simplify(meshFromArrays(k, new Float32Array(0), new Uint32Array(0)), { targetTriangles: 10 })).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });
});
