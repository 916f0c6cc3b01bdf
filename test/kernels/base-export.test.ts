// The base export (workers/kernels/stl-write.ts) and the worker's calls
// generateBase / exportStl (workers/geometry.worker.ts in a Node worker
// thread): the exported STL parses back with our own parser into the same
// triangles and a closed mesh.

import * as Comlink from 'comlink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBase } from '../../workers/kernels/base.ts';
import { buildBvh } from '../../workers/kernels/bvh.ts';
import { KernelError } from '../../workers/kernels/job.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { parseStl } from '../../workers/kernels/stl.ts';
import { STL_HEADER, writeBinaryStl } from '../../workers/kernels/stl-write.ts';
import { mushroomBlock } from '../fixtures/base-models.ts';
import { circle, pickOutline } from './base-checks.ts';
import { loadKernels } from './kernels.ts';
import { edgeReport } from './mesh-checks.ts';
import { startGeometryWorker, type WorkerThread } from './stl-worker-thread.ts';

async function parseBack(bytes: Uint8Array) {
  const k = await loadKernels();
  const r = await parseStl(k, new Uint8Array(bytes));
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.detail}`);
  return r.mesh;
}

describe('binary STL writer', () => {
  it('writes a base that parses back into the same triangles, closed, with face normals along the winding', async () => {
    const k = await loadKernels();
    const m = mushroomBlock();
    const mesh = meshFromArrays(k, m.positions, m.indices);
    const bvh = buildBvh(mesh);
    const base = await generateBase(mesh, bvh, pickOutline(bvh, circle(0, 0, 8, 24)), { thickness: 2 });
    const buffer = writeBinaryStl(meshFromArrays(k, base.positions, base.indices));
    expect(buffer.byteLength).toBe(84 + 50 * base.triangleCount);
    const bytes = new Uint8Array(buffer);
    expect(new TextDecoder().decode(bytes.subarray(0, STL_HEADER.length))).toBe('Archwright base');
    const view = new DataView(buffer);
    expect(view.getUint32(80, true)).toBe(base.triangleCount);
    // Face normal of the first triangle: unit, along (b - a) × (c - a).
    const n = [view.getFloat32(84, true), view.getFloat32(88, true), view.getFloat32(92, true)];
    expect(Math.hypot(n[0]!, n[1]!, n[2]!)).toBeCloseTo(1, 5);
    const p = (i: number) => [0, 1, 2].map((a) => base.positions[base.indices[i]! * 3 + a]!);
    const [a, b, c] = [p(0), p(1), p(2)];
    const e1 = b.map((v, i) => v - a[i]!), e2 = c.map((v, i) => v - a[i]!);
    const cr = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
    expect(n[0]! * cr[0]! + n[1]! * cr[1]! + n[2]! * cr[2]!).toBeGreaterThan(0);

    const parsed = await parseBack(bytes);
    expect(parsed.format).toBe('binary');
    expect(parsed.triangleCount).toBe(base.triangleCount);
    expect(parsed.vertexCount).toBe(base.vertexCount); // positions are float32 already: welding finds them again
    expect(parsed.degenerateTriangles).toBe(0);
    expect(edgeReport(parsed.indices)).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });
  });

  it('never starts the header with "solid" (readers would take the file for ASCII); a missing vertex is BAD_INPUT', async () => {
    const k = await loadKernels();
    const buffer = writeBinaryStl(meshFromArrays(k, new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), new Uint32Array([0, 1, 2])), 'solid base');
    expect(new TextDecoder().decode(new Uint8Array(buffer, 0, 5))).not.toBe('solid');
    const broken = meshFromArrays(k, new Float32Array(9), new Uint32Array([0, 1, 3]));
    expect(() => writeBinaryStl(broken)).toThrow(KernelError);
    expect(() => writeBinaryStl(broken)).toThrow(/^BAD_INPUT: triangle 0 /);
  });
});

describe('worker: generateBase and exportStl', () => {
  let w: WorkerThread;
  let nextJob = 1;
  beforeAll(() => {
    w = startGeometryWorker();
  });
  afterAll(async () => {
    await w.terminate();
  });

  async function modelHandle(): Promise<number> {
    const m = mushroomBlock();
    const r = await w.api.createMesh(m.positions, m.indices);
    if (!r.ok) throw new Error(r.error.detail);
    return r.value;
  }

  async function outline(handle: number, xy: [number, number][]) {
    const points = [];
    for (const [x, y] of xy) {
      const hit = await w.api.pick(handle, [x, y, 100], [0, 0, -1]);
      if (!hit.ok || !hit.value) throw new Error(`no pick at ${x}, ${y}`);
      points.push({ triangle: hit.value.triangle, point: hit.value.point });
    }
    return points;
  }

  it('generates a base kept under its own handle, and exports it as STL that parses back closed', async () => {
    const model = await modelHandle();
    const reports: number[] = [];
    const r = await w.api.generateBase(model, await outline(model, circle(0, 0, 8, 24)), { thickness: 2 }, nextJob++, Comlink.proxy((f: number) => void reports.push(f)));
    if (!r.ok) throw new Error(r.error.detail);
    if (!r.value.ok) throw new Error(r.value.detail);
    const base = r.value.base;
    expect(base.handle).not.toBe(model);
    expect(base.positions).toBeInstanceOf(Float32Array);
    expect(base.volume).toBeGreaterThan(0);
    // The bounds the worker reports (a kernel pass) are the positions' min and max.
    const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
    base.positions.forEach((v, i) => {
      min[i % 3] = Math.min(min[i % 3]!, v);
      max[i % 3] = Math.max(max[i % 3]!, v);
    });
    expect(base.bounds).toEqual({ min, max });

    const health = await w.api.healthReport(base.handle, nextJob++);
    if (!health.ok) throw new Error(health.error.detail);
    expect({ closed: health.value.closed, manifold: health.value.manifold, shells: health.value.shellCount }).toEqual({ closed: true, manifold: true, shells: 1 });

    const stl = await w.api.exportStl(base.handle);
    if (!stl.ok) throw new Error(stl.error.detail);
    const parsed = await parseBack(stl.value);
    expect(parsed.triangleCount).toBe(base.triangleCount);
    expect(edgeReport(parsed.indices)).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });

    // Thickness map: the base's distance to the model, through the worker.
    const dist = await w.api.distanceMap(base.handle, model, { maxDistance: 10 }, nextJob++);
    if (!dist.ok) throw new Error(dist.error.detail);
    expect(dist.value.min).toBeGreaterThan(-0.02);

    await w.api.release(base.handle);
    await w.api.release(model);
  });

  it('returns input problems as a BaseOutcome with the code, and stops with ABORTED when cancelled', async () => {
    const model = await modelHandle();
    const points = await outline(model, circle(0, 0, 8, 24));
    const path = await w.api.outlinePath(model, points, {});
    if (!path.ok) throw new Error(path.error.detail);
    expect(path.value.length / 3).toBeGreaterThan((2 * Math.PI * 8 * 0.95) / 0.25);
    const few = await w.api.generateBase(model, points.slice(0, 2), {}, nextJob++);
    expect(few).toMatchObject({ ok: true, value: { ok: false, code: 'TOO_FEW_POINTS' } });
    const low = await w.api.generateBase(model, points, { height: 0.1 }, nextJob++);
    expect(low).toMatchObject({ ok: true, value: { ok: false, code: 'HEIGHT_TOO_LOW' } });
    const notStraight = await w.api.generateBase(model, points, { straightened: false }, nextJob++);
    expect(notStraight).toMatchObject({ ok: true, value: { ok: false, code: 'NOT_STRAIGHTENED' } });

    const jobId = nextJob++;
    const pending = w.api.generateBase(model, points, { resolution: 0.05 }, jobId);
    await w.api.cancel(jobId);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
    const stats = await w.api.stats();
    expect(stats.handles).toEqual([model]);
    await w.api.release(model);
  });
});
