// Topology suite: the brush's scaling, and the health report and geodesic
// times (no peer).
//
// smooth-dab/scale: one dab of fixed radius (10 units, the editor brush's dab at
// 100 % (src/editor/features/smooth/brush.ts: the 'fair' filter), with the copy-out of
// positions and normals the renderer gets) on the equator of a
// 1M-triangle UV sphere (ours) and of a 100k one (peer). The two spheres have
// the same vertex spacing there (equalDensitySphere: radius, segments and
// rings all scale with √(triangles)), so the dab touches the same vertices;
// ratio = 100k time / 1M time, the goal is above 0.67 (1M under 1.5× slower).
// Each timed run is a batch of dabs at the same spot, per dab.
//
// smooth-dab/ours: a dab touching about 500 vertices (the radius from the
// input's mean vertex density) at a vertex of each input, per dab.
// health/ours: analyzeMesh on a fresh instance holding the mesh (tables,
// report, copies out); geodesic/ours: one geodesicDistance between two
// centroids of the same shell about a quarter of its bounding diagonal apart,
// after a first query (search arrays allocated). Binary inputs of the run.

import { readFileSync } from 'node:fs';
import { kernelExports, type KernelExports } from '../../../workers/kernels/abi.ts';
import { geodesicDistance } from '../../../workers/kernels/geodesic.ts';
import { meshFromArrays, type MeshRef, meshViews } from '../../../workers/kernels/mesh.ts';
import { smoothDab } from '../../../workers/kernels/smooth.ts';
import { BRUSH_VERSION, dabFilter } from '../../../src/editor/features/smooth/brush.ts';
import { analyzeMesh, ensureTopology, type MeshHealth } from '../../../workers/kernels/topology.ts';
import { equalDensitySphere, uvSphere, vertexNormals } from '../../fixtures/mesh.ts';
import { WASM_PATH } from '../../kernels/kernels.ts';
import { meshFromStl } from '../../kernels/topology-fixtures.ts';
import { median, settle } from '../measure.ts';
import type { BenchContext, BenchRow, BenchSuite } from '../suite.ts';

/**
 * About 500 vertices move, as in a 2 mm dab on upper.stl (37 vertices per mm²);
 * the spheres carry 1.6 vertices per unit² on the equator.
 */
const DAB_RADIUS = 10;
const DAB_VERTICES = 500;
const DABS_PER_RUN = 100;
/** A dab costs microseconds: many short interleaved batches, so the other processes' noise averages out. */
const DAB_BATCHES = 31;

interface Arrays {
  positions: Float32Array;
  indices: Uint32Array;
  normals: Float32Array;
}

let wasmModule: WebAssembly.Module | undefined;
/**
 * A fresh instance (fresh memory, as the worker makes one per mesh), so each
 * health run builds the tables anew; the module is compiled once, as in the
 * worker, so instances share its optimised code.
 */
async function freshKernels(): Promise<KernelExports> {
  if (!wasmModule) {
    const b = readFileSync(WASM_PATH);
    wasmModule = await WebAssembly.compile(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
  }
  return kernelExports(await WebAssembly.instantiate(wasmModule, {}));
}

async function load(a: Arrays): Promise<MeshRef> {
  return meshFromArrays(await freshKernels(), a.positions, a.indices, a.normals);
}

async function dabModel(triangles: number): Promise<{ m: MeshRef; seed: number; centre: [number, number, number] }> {
  const { radius, segments, rings } = equalDensitySphere(triangles);
  const s = uvSphere(radius, segments, rings);
  const m = await load({ ...s, normals: vertexNormals(s.positions, s.indices) });
  await ensureTopology(m);
  const ring = Math.floor(rings / 2);
  const seed = 1 + (ring - 1) * segments;
  const p = s.positions;
  return { m, seed, centre: [p[seed * 3]!, p[seed * 3 + 1]!, p[seed * 3 + 2]!] };
}

function surfaceArea(a: Arrays): number {
  const p = a.positions;
  let area = 0;
  for (let t = 0; t < a.indices.length; t += 3) {
    const i = a.indices[t]! * 3, j = a.indices[t + 1]! * 3, k = a.indices[t + 2]! * 3;
    const ux = p[j]! - p[i]!, uy = p[j + 1]! - p[i + 1]!, uz = p[j + 2]! - p[i + 2]!;
    const vx = p[k]! - p[i]!, vy = p[k + 1]! - p[i + 1]!, vz = p[k + 2]! - p[i + 2]!;
    area += Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx) / 2;
  }
  return area;
}

/** The brush's dab at 100 % strength, as the editor makes it now. */
const BRUSH_DAB = dabFilter(BRUSH_VERSION, 1);

function dabBatch(d: { m: MeshRef; seed: number; centre: [number, number, number] }, radius = DAB_RADIUS): { ms: number; moved: number } {
  let moved = 0;
  const t0 = performance.now();
  for (let i = 0; i < DABS_PER_RUN; i++) {
    moved = smoothDab(d.m, { center: d.centre, vertex: d.seed, radius, ...BRUSH_DAB }).moved;
  }
  return { ms: (performance.now() - t0) / DABS_PER_RUN, moved };
}

async function dabRows(ctx: BenchContext): Promise<BenchRow[]> {
  const big = await dabModel(1_000_000);
  const small = await dabModel(100_000);
  ctx.log(`smooth-dab: models of ${big.m.triangleCount} and ${small.m.triangleCount} triangles`);
  for (let i = 0; i < 3; i++) {
    dabBatch(big);
    dabBatch(small);
  }
  const ours: number[] = [];
  const peer: number[] = [];
  let movedBig = 0, movedSmall = 0;
  for (let r = 0; r < (ctx.quick ? 11 : DAB_BATCHES); r++) {
    // Alternate which model goes first.
    let b, s;
    if (r % 2) {
      b = dabBatch(big);
      s = dabBatch(small);
    } else {
      s = dabBatch(small);
      b = dabBatch(big);
    }
    ours.push(b.ms);
    peer.push(s.ms);
    movedBig = b.moved;
    movedSmall = s.moved;
  }
  const o = median(ours), p = median(peer);
  return [
    {
      name: 'smooth-dab/scale',
      input: `sphere ${(big.m.triangleCount / 1e6).toFixed(2)}M vs ${(small.m.triangleCount / 1e3).toFixed(0)}k, equal density`,
      ours_ms: o,
      peer: `the same dab on ${small.m.triangleCount.toLocaleString('en-US')} triangles`,
      peer_ms: p,
      ratio: p / o,
      note: `${(o * 1000).toFixed(1)} µs vs ${(p * 1000).toFixed(1)} µs a dab; radius ${DAB_RADIUS}, brush ${BRUSH_VERSION} at 100 %; moves ${movedBig} (1M) / ${movedSmall} (100k) vertices; goal ratio > 0.67`,
    },
  ];
}

/** Two centroids of one shell about a quarter of its bounding diagonal apart. */
function geodesicPair(a: Arrays, h: MeshHealth): { ta: number; tb: number; pa: [number, number, number]; pb: [number, number, number] } {
  const T = h.triangles;
  const centroid = (t: number): [number, number, number] => {
    const p: [number, number, number] = [0, 0, 0];
    for (let c = 0; c < 3; c++) for (let i = 0; i < 3; i++) p[i]! += a.positions[a.indices[t * 3 + c]! * 3 + i]! / 3;
    return p;
  };
  const ta = Math.floor(T * 0.37);
  const shell = h.triangleShell[ta]!;
  const b = h.shellBounds.subarray(shell * 6, shell * 6 + 6);
  const want = 0.25 * Math.hypot(b[3]! - b[0]!, b[4]! - b[1]!, b[5]! - b[2]!);
  const pa = centroid(ta);
  let tb = ta, bestErr = Infinity;
  for (let t = 0; t < T; t++) {
    if (h.triangleShell[t] !== shell) continue;
    const c = centroid(t);
    const err = Math.abs(Math.hypot(c[0] - pa[0], c[1] - pa[1], c[2] - pa[2]) - want);
    if (err < bestErr) {
      bestErr = err;
      tb = t;
    }
  }
  return { ta, tb, pa, pb: centroid(tb) };
}

async function inputRows(ctx: BenchContext): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const spec of ctx.inputs) {
    if (spec.format !== 'binary') continue;
    const parsed = await meshFromStl(spec.load(), await freshKernels());
    const v = meshViews(parsed);
    const arrays: Arrays = { positions: v.positions.slice(), indices: v.indices.slice(), normals: v.normals!.slice() };
    await settle();

    // health: a fresh instance per run, so each run builds the tables.
    const times: number[] = [];
    let health: MeshHealth | undefined;
    let kept: MeshRef | undefined;
    for (let r = 0; r < ctx.runs + 1; r++) {
      const m = await load(arrays);
      await settle();
      const t0 = performance.now();
      health = await analyzeMesh(m);
      const ms = performance.now() - t0;
      if (r > 0) times.push(ms); // the first run warms up
      kept = m;
    }
    const h = health!;
    rows.push({
      name: 'health/ours',
      input: spec.name,
      ours_ms: median(times),
      peer: '',
      peer_ms: NaN,
      ratio: NaN,
      note: `${h.shellCount} shells, ${h.edges} edges, ${h.openEdges} open, ${h.nonManifoldEdges} non-manifold, ${h.degenerateTriangles} degenerate`,
    });

    const { ta, tb, pa, pb } = geodesicPair(arrays, h);
    const m = kept!;
    const query = () => geodesicDistance(m, { triangle: ta, point: pa }, { triangle: tb, point: pb });
    const first = await query();
    const gt: number[] = [];
    for (let r = 0; r < ctx.runs; r++) {
      await settle();
      const t0 = performance.now();
      await query();
      gt.push(performance.now() - t0);
    }
    rows.push({
      name: 'geodesic/ours',
      input: spec.name,
      ours_ms: median(gt),
      peer: '',
      peer_ms: NaN,
      ratio: NaN,
      note: `${first.length.toFixed(2)} along the surface (chord ${first.straight.toFixed(2)}), ${first.settledNodes} nodes settled`,
    });
    const radius = Math.sqrt(DAB_VERTICES / (Math.PI * (h.vertices / surfaceArea(arrays))));
    const seed = arrays.indices[ta * 3]!;
    const d = { m, seed, centre: [arrays.positions[seed * 3]!, arrays.positions[seed * 3 + 1]!, arrays.positions[seed * 3 + 2]!] as [number, number, number] };
    const dt: number[] = [];
    let moved = 0;
    for (let r = 0; r < (ctx.quick ? 11 : DAB_BATCHES); r++) {
      const b = dabBatch(d, radius);
      dt.push(b.ms);
      moved = b.moved;
    }
    rows.push({
      name: 'smooth-dab/ours',
      input: spec.name,
      ours_ms: median(dt),
      peer: '',
      peer_ms: NaN,
      ratio: NaN,
      note: `${(median(dt) * 1000).toFixed(1)} µs a dab of radius ${radius.toFixed(2)}, ${moved} vertices moved, brush ${BRUSH_VERSION} at 100 %`,
    });
    ctx.log(`topology: ${spec.name} done`);
    await settle();
  }
  return rows;
}

export const topologySuite: BenchSuite = {
  name: 'topology',
  async run(ctx) {
    return [...(await dabRows(ctx)), ...(await inputRows(ctx))];
  },
};

export default topologySuite;
