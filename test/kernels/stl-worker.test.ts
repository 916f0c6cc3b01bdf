// The geometry worker's API (workers/geometry.worker.ts), the real worker
// code in a real thread (a Node worker thread standing in for the browser's
// Web Worker; test/e2e/geometry-worker.spec.ts drives it in Chromium):
// meshes kept by handle, typed failures, progress, cancellation.

import * as Comlink from 'comlink';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gridPlane, vertexNormals } from '../fixtures/mesh.ts';
import { asciiStl, cubeStl, cubeTriangles, sphereCounts, sphereStl, toStl } from '../fixtures/stl.ts';
import { startGeometryWorker, type WorkerThread } from './stl-worker-thread.ts';

let w: WorkerThread;
let nextJob = 1;

beforeAll(() => {
  w = startGeometryWorker();
});

afterAll(async () => {
  await w.terminate();
});

function copy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

describe('geometry worker', () => {
  it('opens an STL, keeps it under a handle and describes it with meshInfo', async () => {
    const r = await w.api.openStl(cubeStl({ size: 10 }), {}, nextJob++);
    if (!r.ok) throw new Error(r.error.detail);
    const mesh = r.value;
    expect(mesh.vertexCount).toBe(8);
    expect(mesh.triangleCount).toBe(12);
    expect(mesh.positions).toBeInstanceOf(Float32Array);
    expect(mesh.positions.length).toBe(24);
    expect(mesh.normals.length).toBe(24);
    expect(mesh.indices.length).toBe(36);
    expect(mesh.bounds).toEqual({ min: [-5, -5, -5], max: [5, 5, 5] });

    const info = await w.api.meshInfo(mesh.handle);
    if (!info.ok) throw new Error(info.error.detail);
    expect(info.value).toMatchObject({ handle: mesh.handle, vertexCount: 8, triangleCount: 12, bounds: mesh.bounds });
    // The kept copy lives in an instance of its own size, not in the parser's grown memory.
    expect(info.value.arenaBytes).toBeGreaterThanOrEqual(8 * 12 * 2 + 36 * 4);
    expect(info.value.wasmBytes).toBeLessThan(1 << 20);

    expect((await w.api.stats()).handles).toContain(mesh.handle);
    expect(await w.api.release(mesh.handle)).toBe(true);
    expect(await w.api.release(mesh.handle)).toBe(false);
    const gone = await w.api.meshInfo(mesh.handle);
    expect(gone).toMatchObject({ ok: false, error: { code: 'NO_SUCH_MESH' } });
    expect((await w.api.stats()).handles).not.toContain(mesh.handle);
  });

  it('gives each opened mesh its own handle, also when opened at the same time', async () => {
    const small = sphereStl({ segments: 16, rings: 8, radius: 3, binary: true });
    const [a, b] = await Promise.all([w.api.openStl(copy(small), {}, nextJob++), w.api.openStl(cubeStl(), {}, nextJob++)]);
    if (!a.ok || !b.ok) throw new Error('expected two meshes');
    expect(a.value.handle).not.toBe(b.value.handle);
    expect(a.value.triangleCount).toBe(sphereCounts(16, 8).triangles);
    expect(b.value.triangleCount).toBe(12);
    const [ia, ib] = await Promise.all([w.api.meshInfo(a.value.handle), w.api.meshInfo(b.value.handle)]);
    expect(ia).toMatchObject({ ok: true, value: { triangleCount: a.value.triangleCount } });
    expect(ib).toMatchObject({ ok: true, value: { triangleCount: 12 } });
    await w.api.release(a.value.handle);
    await w.api.release(b.value.handle);
  });

  it('welds with a tolerance when asked (settings.weldTolerance)', async () => {
    const soup = cubeTriangles();
    for (let i = 0; i < soup.length; i++) soup[i] = Math.fround(soup[i]! + ((i * 7919) % 13) * 1e-6);
    const exact = await w.api.parseStl(toStl(soup), {}, nextJob++);
    if (!exact.ok) throw new Error(exact.error.detail);
    expect(exact.value.vertexCount).toBeGreaterThan(30); // the jitter keeps the corners apart
    const welded = await w.api.openStl(toStl(soup), { weldTolerance: 1e-4 }, nextJob++);
    expect(welded).toMatchObject({ ok: true, value: { vertexCount: 8, triangleCount: 12 } });
    if (welded.ok) expect(await w.api.meshInfo(welded.value.handle)).toMatchObject({ ok: true, value: { vertexCount: 8 } });
    if (welded.ok) await w.api.release(welded.value.handle);
  });

  it('reports parse errors as { ok: false, error: { code } } with the line of an ASCII error', async () => {
    const notStl = await w.api.openStl(new TextEncoder().encode('just some text, not a mesh at all. '.repeat(20)), {}, nextJob++);
    expect(notStl).toMatchObject({ ok: false, error: { code: 'STL_NOT_STL' } });

    const text = new TextDecoder().decode(asciiStl(cubeTriangles(), { name: 'cube' })).replace('outer loop', 'outer lop');
    const broken = await w.api.openStl(new TextEncoder().encode(text), {}, nextJob++);
    expect(broken).toMatchObject({ ok: false, error: { code: 'STL_MALFORMED', line: 3 } });

    const empty = await w.api.parseStl(new Uint8Array(0), {}, nextJob++);
    expect(empty).toMatchObject({ ok: false, error: { code: 'STL_EMPTY' } });
    expect((await w.api.stats()).meshes).toBe(0);
  });

  it('reads a Blob with progress: read, then parse, rising to 1', async () => {
    const bytes = sphereStl({ segments: 300, rings: 151, radius: 20, binary: true });
    const reports: [number, string | undefined][] = [];
    const r = await w.api.openStl(
      new Blob([bytes]),
      {},
      nextJob++,
      Comlink.proxy((fraction: number, stage?: string) => {
        reports.push([fraction, stage]);
      }),
    );
    if (!r.ok) throw new Error(r.error.detail);
    // Progress comes through the callback's own MessagePort, the result through the worker's:
    // no order between the two, so wait for the final report instead of assuming it came first.
    await vi.waitFor(() => expect(reports.at(-1)).toEqual([1, 'parse']));
    expect(reports[0]).toEqual([0, 'read']);
    expect(reports.at(-1)).toEqual([1, 'parse']);
    expect(reports.some(([, stage]) => stage === 'parse')).toBe(true);
    for (let i = 1; i < reports.length; i++) expect(reports[i]![0]).toBeGreaterThanOrEqual(reports[i - 1]![0]);
    await w.api.release(r.value.handle);
  });

  it('stops a cancelled parse with ABORTED, keeps nothing, and parses the next file', async () => {
    const big = sphereStl({ segments: 1000, rings: 501, radius: 40, binary: true }); // 1M triangles
    const before = (await w.api.stats()).meshes;
    const jobId = nextJob++;
    const pending = w.api.openStl(new Blob([big]), {}, jobId);
    await w.api.cancel(jobId);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
    const stats = await w.api.stats();
    expect(stats.meshes).toBe(before);
    expect(stats.runningJobs).toBe(0);
    expect(stats.recentJobs.at(-1)).toEqual({ jobId, call: 'openStl', outcome: 'ABORTED' });

    // Cancelling an id that is not running is a no-op.
    await w.api.cancel(jobId);
    const after = await w.api.openStl(cubeStl(), {}, nextJob++);
    expect(after).toMatchObject({ ok: true, value: { triangleCount: 12 } });
    if (after.ok) await w.api.release(after.value.handle);
  });

  it('keeps a mesh made in JS (createMesh) and refuses out-of-range indices with BAD_INPUT', async () => {
    const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 2, 0]);
    const made = await w.api.createMesh(positions, new Uint32Array([0, 1, 2]));
    if (!made.ok) throw new Error(made.error.detail);
    expect(await w.api.meshInfo(made.value)).toMatchObject({
      ok: true,
      value: { vertexCount: 3, triangleCount: 1, bounds: { min: [0, 0, 0], max: [1, 2, 0] } },
    });
    await w.api.release(made.value);
    expect(await w.api.createMesh(positions, new Uint32Array([0, 1, 3]))).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
  });
});

describe('geometry worker: topology kernels on a kept mesh', () => {
  it('health report, geodesic, a smoothing dab (which moves the bounds) and NO_SUCH_MESH after release', async () => {
    const opened = await w.api.openStl(sphereStl({ segments: 48, rings: 24, radius: 10 }), {}, nextJob++);
    if (!opened.ok) throw new Error(opened.error.detail);
    const { handle, triangleCount } = opened.value;

    const health = await w.api.healthReport(handle, nextJob++);
    if (!health.ok) throw new Error(health.error.detail);
    expect(health.value).toMatchObject({ triangles: triangleCount, closed: true, manifold: true, shellCount: 1, openEdges: 0 });
    expect(health.value.triangleShell).toBeInstanceOf(Uint32Array);
    expect(health.value.triangleShell.length).toBe(triangleCount);

    // Two points on opposite sides of the equator: along the surface about half the circumference.
    const at = (t: number): [number, number, number] => {
      const i = opened.value.indices;
      const p = opened.value.positions;
      const c = [0, 0, 0];
      for (let k = 0; k < 3; k++) for (let a = 0; a < 3; a++) c[a] = c[a]! + p[i[t * 3 + k]! * 3 + a]! / 3;
      return [c[0]!, c[1]!, c[2]!];
    };
    const equator = 48 * 2 * 11; // first triangle of the band just above the equator
    const opposite = equator + 48; // half way round the same band
    const g = await w.api.geodesic(handle, { triangle: equator, point: at(equator) }, { triangle: opposite, point: at(opposite) }, {}, nextJob++);
    if (!g.ok) throw new Error(g.error.detail);
    expect(g.value.length).toBeGreaterThan(g.value.straight);
    expect(g.value.length).toBeGreaterThan(Math.PI * 10 * 0.85);
    expect(g.value.length).toBeLessThan(Math.PI * 10 * 1.15);
    expect(g.value.path).toBeInstanceOf(Float32Array);

    // A strong dab at the north pole flattens it: the mesh's top comes down.
    const before = await w.api.meshInfo(handle);
    if (!before.ok) throw new Error(before.error.detail);
    const pole: [number, number, number] = [0, 0, before.value.bounds.max[2]];
    const dab = await w.api.smoothDab(handle, { center: pole, radius: 4, triangle: 0, strength: 1, iterations: 5, mu: 0 });
    if (!dab.ok) throw new Error(dab.error.detail);
    expect(dab.value.moved).toBeGreaterThan(0);
    expect(dab.value.positions.length).toBe(dab.value.vertices.length * 3);
    const after = await w.api.meshInfo(handle);
    if (!after.ok) throw new Error(after.error.detail);
    expect(after.value.bounds.max[2]).toBeLessThan(before.value.bounds.max[2]);

    await w.api.release(handle);
    expect(await w.api.healthReport(handle, nextJob++)).toMatchObject({ ok: false, error: { code: 'NO_SUCH_MESH' } });
    expect(await w.api.smoothDab(handle, { center: pole, radius: 1, vertex: 0 })).toMatchObject({ ok: false, error: { code: 'NO_SUCH_MESH' } });
  });
});

describe('geometry worker: region smoothing cancelled', () => {
  it('leaves the kept mesh as it was: positions and normals (the page still draws those), the BVH refit to them', async () => {
    // 90,601 vertices smoothed 2,000 rounds: far longer than the first time slice, after which the cancel arrives.
    const plane = gridPlane(300, 1, { noise: 0.3, seed: 13 });
    const made = await w.api.createMesh(plane.positions, plane.indices, vertexNormals(plane.positions, plane.indices));
    if (!made.ok) throw new Error(made.error.detail);
    const handle = made.value;
    const bytesOf = async (): Promise<Uint8Array> => {
      const r = await w.api.exportStl(handle);
      if (!r.ok) throw new Error(r.error.detail);
      return r.value;
    };
    // Each vertex's closest point is itself; with `smooth`, its own normal.
    const normalsOf = async (): Promise<Float32Array> => {
      const r = await w.api.closestWithNormals(handle, plane.positions, { smooth: true });
      if (!r.ok) throw new Error(r.error.detail);
      expect(r.value.distance.reduce((a, b) => Math.max(a, b), 0)).toBeLessThan(1e-6);
      return r.value.normal;
    };
    const stl = await bytesOf();
    const normals = await normalsOf();

    for (const region of [{ iterations: 2000 }, { iterations: 2000, vertices: Uint32Array.from({ length: 70_000 }, (_, i) => i + 10_000) }]) {
      const jobId = nextJob++;
      let reports = 0;
      const r = await w.api.smoothRegion(
        handle,
        region,
        jobId,
        Comlink.proxy(() => {
          if (reports++ === 0) void w.api.cancel(jobId);
        }),
      );
      expect(r).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
      expect(reports).toBeGreaterThan(0);
      expect(Buffer.from(await bytesOf()).equals(Buffer.from(stl))).toBe(true);
      const after = await normalsOf();
      expect(Buffer.from(after.buffer).equals(Buffer.from(normals.buffer))).toBe(true);
    }
    await w.api.release(handle);
  });
});

describe('geometry worker: shape kernels on a kept mesh', () => {
  it('simplify keeps the result under a new handle and frees its scratch in the source', async () => {
    const opened = await w.api.openStl(sphereStl({ segments: 48, rings: 24, radius: 10 }), {}, nextJob++);
    if (!opened.ok) throw new Error(opened.error.detail);
    const source = opened.value.handle;
    const before = await w.api.meshInfo(source);
    if (!before.ok) throw new Error(before.error.detail);

    const simplified = await w.api.simplify(source, 500, nextJob++);
    if (!simplified.ok) throw new Error(simplified.error.detail);
    const s = simplified.value;
    expect(s.handle).not.toBe(source);
    expect(s.triangleCount).toBeLessThanOrEqual(500);
    expect(s.triangleCount).toBeGreaterThan(300);
    expect(s.indices.length).toBe(s.triangleCount * 3);
    expect(s.positions.length).toBe(s.vertexCount * 3);
    expect(await w.api.meshInfo(s.handle)).toMatchObject({ ok: true, value: { triangleCount: s.triangleCount, vertexCount: s.vertexCount } });

    // The source is unchanged, and the decimation's scratch is gone from its arena.
    const after = await w.api.meshInfo(source);
    expect(after).toMatchObject({ ok: true, value: { triangleCount: opened.value.triangleCount, arenaBytes: before.value.arenaBytes } });

    expect(await w.api.simplify(source, Number.NaN, nextJob++)).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    await w.api.release(s.handle);
    await w.api.release(source);
  });

  it('straighten gives a rigid transform; transformMesh applies it to the kept mesh', async () => {
    // A box 40 x 20 x 10, turned 30° about z and moved: straightening ('box') aligns it with the axes.
    const opened = await w.api.openStl(sphereStl({ segments: 32, rings: 16, radius: 1 }), {}, nextJob++);
    if (!opened.ok) throw new Error(opened.error.detail);
    const { positions, indices } = opened.value;
    const c = Math.cos(Math.PI / 6), sn = Math.sin(Math.PI / 6);
    const moved = new Float32Array(positions.length);
    for (let v = 0; v < positions.length; v += 3) {
      const x = positions[v]! * 20, y = positions[v + 1]! * 10, z = positions[v + 2]! * 5;
      moved[v] = c * x - sn * y + 100;
      moved[v + 1] = sn * x + c * y - 50;
      moved[v + 2] = z + 7;
    }
    await w.api.release(opened.value.handle);
    const made = await w.api.createMesh(moved, indices);
    if (!made.ok) throw new Error(made.error.detail);

    const r = await w.api.straighten(made.value, 'box', nextJob++);
    if (!r.ok) throw new Error(r.error.detail);
    expect(r.value.matrix).toBeInstanceOf(Float64Array);
    expect(r.value.matrix.length).toBe(16);
    expect(await w.api.transformMesh(made.value, r.value.matrix)).toEqual({ ok: true, value: null });
    const info = await w.api.meshInfo(made.value);
    if (!info.ok) throw new Error(info.error.detail);
    // Aligned with the axes: the extents are the box's 40, 20 and 10 in some order.
    const extents = [0, 1, 2].map((a) => info.value.bounds.max[a]! - info.value.bounds.min[a]!).sort((a, b) => a - b);
    expect(extents[0]).toBeCloseTo(10, 0);
    expect(extents[1]).toBeCloseTo(20, 0);
    expect(extents[2]).toBeCloseTo(40, 0);
    expect(await w.api.transformMesh(made.value, [1, 0, 0])).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    await w.api.release(made.value);
  });
});

describe('geometry worker: BVH kernels on kept meshes', () => {
  it('picks, ray batches, closest points, undercuts and distance maps by handle; smoothing refits the BVH', async () => {
    const inner = await w.api.openStl(sphereStl({ segments: 64, rings: 32, radius: 10 }), {}, nextJob++);
    const outer = await w.api.openStl(sphereStl({ segments: 64, rings: 32, radius: 12 }), {}, nextJob++);
    if (!inner.ok || !outer.ok) throw new Error('expected two meshes');
    const a = inner.value.handle;
    const b = outer.value.handle;

    // Picking from above the north pole (the BVH is built on first need).
    const hit = await w.api.pick(a, [0, 0, 50], [0, 0, -1]);
    if (!hit.ok || !hit.value) throw new Error('expected a hit');
    expect(hit.value.point[2]).toBeCloseTo(10, 1);
    expect(hit.value.t).toBeCloseTo(40, 1);
    const rays = new Float32Array([0, 0, 50, 0, 0, -1, 50, 50, 50, 0, 0, 1]);
    const batch = await w.api.raycast(a, rays);
    expect(batch).toMatchObject({ ok: true, value: { hits: 1 } });
    if (batch.ok) expect(Array.from(batch.value.triangle)[1]).toBe(-1);
    const closest = await w.api.closestPoints(a, new Float32Array([0, 0, 20]));
    if (!closest.ok) throw new Error(closest.error.detail);
    expect(closest.value.distance[0]).toBeCloseTo(10, 1);
    expect(await w.api.buildBvh(a, {}, nextJob++)).toMatchObject({ ok: true, value: { triangleCount: inner.value.triangleCount } });

    // Inserting along +z, the lower hemisphere is in undercut.
    const under = await w.api.undercut(a, [0, 0, 1], {}, nextJob++);
    if (!under.ok) throw new Error(under.error.detail);
    const { undercut, depth } = under.value;
    const positions = inner.value.positions;
    let wrongSide = 0;
    for (let v = 0; v < undercut.length; v++) if (undercut[v] && positions[v * 3 + 2]! > 1e-3) wrongSide++;
    expect(wrongSide).toBe(0);
    expect(under.value.count / inner.value.vertexCount).toBeGreaterThan(0.4);
    expect(under.value.count / inner.value.vertexCount).toBeLessThan(0.6);
    expect(under.value.maxDepth).toBeCloseTo(20, 0);
    expect(depth).toBeInstanceOf(Float32Array);

    // Concentric spheres: every vertex of the inner one is about 2 inside the outer one.
    const d = await w.api.distanceMap(a, b, {}, nextJob++);
    if (!d.ok) throw new Error(d.error.detail);
    expect(d.value.found).toBe(inner.value.vertexCount);
    expect(d.value.min).toBeGreaterThan(-2.1);
    expect(d.value.max).toBeLessThan(-1.9);

    // A strong dab at the pole moves vertices; the BVH follows (refit), so the pick lands lower.
    const dab = await w.api.smoothDab(a, { center: [0, 0, 10], radius: 4, vertex: 0, strength: 1, iterations: 5, mu: 0 });
    if (!dab.ok) throw new Error(dab.error.detail);
    const again = await w.api.pick(a, [0, 0, 50], [0, 0, -1]);
    if (!again.ok || !again.value) throw new Error('expected a hit');
    expect(again.value.point[2]).toBeLessThan(hit.value.point[2] - 1e-3);

    await w.api.release(a);
    expect(await w.api.distanceMap(a, b, {}, nextJob++)).toMatchObject({ ok: false, error: { code: 'NO_SUCH_MESH' } });
    await w.api.release(b);
  });
});
