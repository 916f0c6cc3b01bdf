// Topology suite: the brush's scaling, and the health report and geodesic
// times (no peer).
//
// smooth-dab/scale: one dab of fixed radius (3 units, 3 λ/μ rounds, with the
// copy-out of positions and normals the renderer gets) on the equator of a
// 1M-triangle UV sphere (ours) and of a 100k one (peer). The two spheres have
// the same vertex spacing there (equalDensitySphere: radius, segments and
// rings all scale with √(triangles)), so the dab touches the same vertices;
// ratio = 100k time / 1M time, the goal is above 0.67 (1M under 1.5× slower).
// Each timed run is a batch of dabs at the same spot, per dab.
//
// health/ours: analyzeMesh on a fresh instance holding the mesh (tables,
// report, copies out); geodesic/ours: one geodesicDistance between two
// centroids of the same shell about a quarter of its bounding diagonal apart,
// after a first query (search arrays allocated). Binary inputs of the run.

import { readFileSync } from 'node:fs';
import { instantiateKernels, type KernelExports } from '../../../workers/kernels/abi.ts';
import { geodesicDistance } from '../../../workers/kernels/geodesic.ts';
import { meshFromArrays, type MeshRef, meshViews } from '../../../workers/kernels/mesh.ts';
import { smoothDab } from '../../../workers/kernels/smooth.ts';
import { analyzeMesh, ensureTopology, type MeshHealth } from '../../../workers/kernels/topology.ts';
import { equalDensitySphere, uvSphere, vertexNormals } from '../../fixtures/mesh.ts';
import { WASM_PATH } from '../../kernels/kernels.ts';
import { meshFromStl } from '../../kernels/topology-fixtures.ts';
import { median, settle } from '../measure.ts';
import type { BenchContext, BenchRow, BenchSuite } from '../suite.ts';

const DAB_RADIUS = 3;
const DABS_PER_RUN = 200;

interface Arrays {
  positions: Float32Array;
  indices: Uint32Array;
  normals: Float32Array;
}

let wasmBytes: ArrayBuffer | undefined;
/** A fresh instance (a fresh worker's memory), so each health run builds the tables anew. */
async function freshKernels(): Promise<KernelExports> {
  if (!wasmBytes) {
    const b = readFileSync(WASM_PATH);
    wasmBytes = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }
  return instantiateKernels(wasmBytes);
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

function dabBatch(d: { m: MeshRef; seed: number; centre: [number, number, number] }): { ms: number; moved: number } {
  let moved = 0;
  const t0 = performance.now();
  for (let i = 0; i < DABS_PER_RUN; i++) {
    moved = smoothDab(d.m, { center: d.centre, vertex: d.seed, radius: DAB_RADIUS, strength: 0.5, iterations: 3 }).moved;
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
  for (let r = 0; r < Math.max(ctx.runs, 5); r++) {
    const b = dabBatch(big);
    const s = dabBatch(small);
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
      note: `radius ${DAB_RADIUS}, 3 Taubin rounds; moves ${movedBig} (1M) / ${movedSmall} (100k) vertices; goal ratio > 0.67`,
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
