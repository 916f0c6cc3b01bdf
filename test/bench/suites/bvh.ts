// BVH suite: our kernels (assembly/bvh*.ts through workers/kernels/*.ts, the
// worker's code path) against three-mesh-bvh on the same indexed triangles.
//
// bvh-build/three-mesh-bvh  ours: buildBvh (binned SAH, 16 bins, leaves <= 8)
//                           from positions and indices already in wasm memory;
//                           peer: new MeshBVH(geometry) with its defaults
//                           (CENTER split, leaves <= 10) on a BufferGeometry of
//                           the same arrays (a fresh index copy per run: it
//                           reorders the index in place; the copy is off the clock).
// raycast/three-mesh-bvh    100,000 random rays (origins in the model's box,
//                           random directions), first hit, both sides; ours:
//                           raycastFirst (rays copied in, results copied out);
//                           peer: bvh.raycastFirst(ray, DoubleSide) per ray.
// undercut/three-mesh-bvh   the undercut map (undercut.ts: per-vertex ray from
//                           the vertex moved eps along d, depth, flags, area
//                           from vertex weights) for d = +z (generated) or
//                           towards the lower jaw (upper.stl); peer: the same
//                           algorithm in JS on raycastFirst.
// distance/three-mesh-bvh   signed distance map, every vertex of a mesh to the
//                           input's surface (closest point; sign from the
//                           closest face's normal): upper.stl to lower.stl, or
//                           a generated 100k-triangle sphere (radius 38, off
//                           centre) to the generated model. Ours copies the
//                           query vertices into the target's instance
//                           (distance.ts); peer: closestPointToPoint per vertex.
//
// Every row checks that both sides compute the same answers (hit counts,
// distances) and says so in its note. Runs are interleaved (ours, peer), a
// full GC before each, median of up to ctx.runs (at least 3, fewer when a
// contender has spent 8 s on a row).

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BufferAttribute, BufferGeometry, DoubleSide, Ray, Vector3 } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import type { KernelExports } from '../../../workers/kernels/abi.ts';
import { buildBvh, bvhRefitIndex, raycastFirst, refitBvh, refitBvhVertices, type Bvh } from '../../../workers/kernels/bvh.ts';
import { distanceMap } from '../../../workers/kernels/distance.ts';
import { meshFromArrays, meshViews, type MeshRef } from '../../../workers/kernels/mesh.ts';
import { parseStl } from '../../../workers/kernels/stl.ts';
import { rayOffsets, UNDERCUT_TANGENT, undercutMap } from '../../../workers/kernels/undercut.ts';
import { vertexNormals } from '../../fixtures/mesh.ts';
import { uvSphereMesh } from '../../fixtures/meshes.ts';
import { loadKernels } from '../../kernels/kernels.ts';
import { fixturesDir, type InputSpec } from '../inputs.ts';
import { formatInt, median, settle } from '../measure.ts';
import type { BenchContext, BenchRow, BenchSuite } from '../suite.ts';

const PEER = `three-mesh-bvh ${readPeerVersion()}`;
const RAYS = 100_000;
const BUDGET_MS = 8000;
const GOAL = 'goal ≥2×';

type V3 = [number, number, number];

function readPeerVersion(): string {
  try {
    const url = new URL('../../../node_modules/three-mesh-bvh/package.json', import.meta.url);
    return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

interface Model {
  name: string;
  positions: Float32Array;
  indices: Uint32Array;
}

interface Ours {
  k: KernelExports;
  mesh: MeshRef;
  bvh: Bvh;
}

async function parse(bytes: Uint8Array<ArrayBuffer>, name: string): Promise<Model> {
  const r = await parseStl(await loadKernels(), bytes);
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.detail}`);
  return { name, positions: r.mesh.positions, indices: r.mesh.indices };
}

async function ours(m: Model): Promise<Ours> {
  const k = await loadKernels();
  const mesh = meshFromArrays(k, m.positions, m.indices);
  return { k, mesh, bvh: buildBvh(mesh) };
}

function geometry(m: Model): BufferGeometry {
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(m.positions, 3));
  g.setIndex(new BufferAttribute(m.indices.slice(), 1));
  return g;
}

/** Interleaved timed runs of two contenders; medians. */
async function compare(
  ctx: BenchContext,
  label: string,
  runOurs: () => Promise<void> | void,
  runPeer: () => Promise<void> | void,
  before?: () => void,
): Promise<{ ours: number; peer: number }> {
  const maxRuns = Math.max(3, ctx.runs);
  const o: number[] = [];
  const p: number[] = [];
  let spentOurs = 0;
  let spentPeer = 0;
  // One warm-up each (JIT, first-touch of memory).
  before?.();
  await runOurs();
  before?.();
  await runPeer();
  for (let i = 0; i < maxRuns; i++) {
    if (i >= 3 && (spentOurs > BUDGET_MS || spentPeer > BUDGET_MS)) break;
    before?.();
    await settle();
    let t0 = performance.now();
    await runOurs();
    o.push(performance.now() - t0);
    spentOurs += o.at(-1)!;
    before?.();
    await settle();
    t0 = performance.now();
    await runPeer();
    p.push(performance.now() - t0);
    spentPeer += p.at(-1)!;
  }
  const r = { ours: median(o), peer: median(p) };
  ctx.log(`  ${label}: ours ${r.ours.toFixed(1)} ms, peer ${r.peer.toFixed(1)} ms (${o.length} runs)`);
  return r;
}

function row(name: string, input: string, t: { ours: number; peer: number }, note: string): BenchRow {
  return { name, input, ours_ms: t.ours, peer: PEER, peer_ms: t.peer, ratio: t.peer / t.ours, note: `${GOAL}; ${note}` };
}

function bounds(m: Model): { min: V3; max: V3 } {
  const min: V3 = [Infinity, Infinity, Infinity];
  const max: V3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < m.positions.length; i++) {
    const c = i % 3;
    min[c] = Math.min(min[c]!, m.positions[i]!);
    max[c] = Math.max(max[c]!, m.positions[i]!);
  }
  return { min, max };
}

/** Deterministic random rays: origins in the box, unit directions. */
function randomRays(m: Model, count: number): Float32Array<ArrayBuffer> {
  const { min, max } = bounds(m);
  let s = 12345;
  const rnd = (): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
  const rays = new Float32Array(count * 6);
  for (let i = 0; i < count; i++) {
    let x = 0, y = 0, z = 0, l = 0;
    do {
      x = rnd() * 2 - 1;
      y = rnd() * 2 - 1;
      z = rnd() * 2 - 1;
      l = Math.hypot(x, y, z);
    } while (l > 1 || l < 0.1);
    rays.set(
      [min[0] + rnd() * (max[0] - min[0]), min[1] + rnd() * (max[1] - min[1]), min[2] + rnd() * (max[2] - min[2]), x / l, y / l, z / l],
      i * 6,
    );
  }
  return rays;
}

/** Peer's first hits: t per ray (Infinity on a miss). */
function peerRaycast(bvh: MeshBVH, rays: Float32Array): Float32Array {
  const n = rays.length / 6;
  const out = new Float32Array(n);
  const ray = new Ray();
  for (let i = 0; i < n; i++) {
    const o = i * 6;
    ray.origin.set(rays[o]!, rays[o + 1]!, rays[o + 2]!);
    ray.direction.set(rays[o + 3]!, rays[o + 4]!, rays[o + 5]!);
    const hit = bvh.raycastFirst(ray, DoubleSide);
    out[i] = hit ? hit.distance : Infinity;
  }
  return out;
}

function agreeT(a: Float32Array, b: Float32Array): { hitsA: number; hitsB: number; mismatched: number } {
  let hitsA = 0, hitsB = 0, mismatched = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!, y = b[i]!;
    if (x !== Infinity) hitsA++;
    if (y !== Infinity) hitsB++;
    if ((x === Infinity) !== (y === Infinity) || (x !== Infinity && Math.abs(x - y) > 1e-3 * Math.max(1, x))) mismatched++;
  }
  return { hitsA, hitsB, mismatched };
}

/** A third of each incident triangle's area per vertex (the peer's share of the undercut algorithm). */
function jsVertexAreas(m: Model): Float32Array {
  const w = new Float32Array(m.positions.length / 3);
  const p = m.positions;
  for (let t = 0; t < m.indices.length; t += 3) {
    const a = m.indices[t]!, b = m.indices[t + 1]!, c = m.indices[t + 2]!;
    const ux = p[b * 3]! - p[a * 3]!, uy = p[b * 3 + 1]! - p[a * 3 + 1]!, uz = p[b * 3 + 2]! - p[a * 3 + 2]!;
    const vx = p[c * 3]! - p[a * 3]!, vy = p[c * 3 + 1]! - p[a * 3 + 1]!, vz = p[c * 3 + 2]! - p[a * 3 + 2]!;
    const area = 0.5 * Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
    w[a]! += area / 3;
    w[b]! += area / 3;
    w[c]! += area / 3;
  }
  return w;
}

/** The undercut algorithm of undercut.ts, in JS on three-mesh-bvh. */
function peerUndercut(
  m: Model,
  bvh: MeshBVH,
  d: V3,
  eps: number,
  normals: Float32Array,
  normalEps: number,
): { flags: Uint8Array; depth: Float32Array; area: number } {
  const weights = jsVertexAreas(m);
  const n = m.positions.length / 3;
  const flags = new Uint8Array(n);
  const depth = new Float32Array(n);
  const ray = new Ray(new Vector3(), new Vector3(d[0], d[1], d[2]));
  const p = m.positions;
  let area = 0;
  for (let v = 0; v < n; v++) {
    ray.origin.set(p[v * 3]! + d[0] * eps, p[v * 3 + 1]! + d[1] * eps, p[v * 3 + 2]! + d[2] * eps);
    // Not facing away from d: also out along the normal (walls parallel to d), as the kernel does.
    const nx = normals[v * 3]!, ny = normals[v * 3 + 1]!, nz = normals[v * 3 + 2]!;
    if (nx * d[0] + ny * d[1] + nz * d[2] > -UNDERCUT_TANGENT) ray.origin.set(ray.origin.x + nx * normalEps, ray.origin.y + ny * normalEps, ray.origin.z + nz * normalEps);
    const hit = bvh.raycastFirst(ray, DoubleSide);
    if (hit) {
      flags[v] = 1;
      depth[v] = hit.distance + eps;
      area += weights[v]!;
    }
  }
  return { flags, depth, area };
}

/** The distance map of distance.ts, in JS on three-mesh-bvh: closest point, sign from the closest face. */
function peerDistance(points: Float32Array, target: BufferGeometry, bvh: MeshBVH): Float32Array {
  const n = points.length / 3;
  const out = new Float32Array(n);
  const index = target.index!.array;
  const pos = target.getAttribute('position').array as Float32Array;
  const q = new Vector3();
  const info = { point: new Vector3(), distance: 0, faceIndex: 0 };
  for (let i = 0; i < n; i++) {
    q.set(points[i * 3]!, points[i * 3 + 1]!, points[i * 3 + 2]!);
    if (!bvh.closestPointToPoint(q, info)) {
      out[i] = Number.NaN;
      continue;
    }
    const f = info.faceIndex * 3;
    const a = index[f]! * 3, b = index[f + 1]! * 3, c = index[f + 2]! * 3;
    const ux = pos[b]! - pos[a]!, uy = pos[b + 1]! - pos[a + 1]!, uz = pos[b + 2]! - pos[a + 2]!;
    const vx = pos[c]! - pos[a]!, vy = pos[c + 1]! - pos[a + 1]!, vz = pos[c + 2]! - pos[a + 2]!;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const dot = (q.x - info.point.x) * nx + (q.y - info.point.y) * ny + (q.z - info.point.z) * nz;
    out[i] = dot < 0 ? -info.distance : info.distance;
  }
  return out;
}

function centroid(m: Model): V3 {
  const c: V3 = [0, 0, 0];
  for (let i = 0; i < m.positions.length; i++) c[i % 3]! += m.positions[i]!;
  const n = m.positions.length / 3;
  return [c[0] / n, c[1] / n, c[2] / n];
}

async function rowsFor(ctx: BenchContext, spec: InputSpec): Promise<BenchRow[]> {
  const input = spec.name;
  const model = await parse(spec.load(), input);
  const tris = model.indices.length / 3;
  const verts = model.positions.length / 3;
  ctx.log(`- ${input}: ${formatInt(tris)} triangles, ${formatInt(verts)} vertices`);
  const rows: BenchRow[] = [];
  const o = await ours(model);
  const g = geometry(model);
  const peerBvh = new MeshBVH(g);

  // ---- build
  const mark = o.k.arenaMark() >>> 0;
  let built: Bvh | undefined;
  const peerIndex = model.indices.slice();
  const build = await compare(
    ctx,
    'bvh-build',
    () => {
      o.k.arenaRelease(mark);
      built = buildBvh(o.mesh);
    },
    () => {
      new MeshBVH(g);
    },
    () => g.index!.array.set(peerIndex),
  );
  const check = randomRays(model, 2000);
  const agreeBuild = agreeT(raycastFirst(built!, check).t, peerRaycast(new MeshBVH(g), check));
  rows.push(
    row('bvh-build/three-mesh-bvh', input, build, `${formatInt(built!.nodeCount)} nodes, depth ${built!.depth}; 2,000 check rays: ${agreeBuild.mismatched} disagree`),
  );

  // ---- refit (no peer): whole model, and a dab's vertices (local refit)
  rows.push(...(await refitRows(ctx, input, o)));

  // ---- ray casts
  const rays = randomRays(model, RAYS);
  let oursT: Float32Array = new Float32Array(0);
  let peerT: Float32Array = new Float32Array(0);
  const cast = await compare(
    ctx,
    'raycast',
    () => {
      oursT = raycastFirst(o.bvh, rays).t;
    },
    () => {
      peerT = peerRaycast(peerBvh, rays);
    },
  );
  const agreeCast = agreeT(oursT, peerT);
  rows.push(
    row(
      'raycast/three-mesh-bvh',
      input,
      cast,
      `${formatInt(RAYS)} rays per run, hits ${formatInt(agreeCast.hitsA)} (peer ${formatInt(agreeCast.hitsB)}), ${agreeCast.mismatched} disagree`,
    ),
  );

  // ---- undercut and distance partners
  const realUpper = /upper\.stl$/.test(input);
  const lowerPath = resolve(fixturesDir, 'open-full-jaw-p26/lower.stl');
  let partner: Model;
  let partnerNote: string;
  if (realUpper && existsSync(lowerPath)) {
    const b = readFileSync(lowerPath);
    partner = await parse(new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)), 'lower.stl');
    partnerNote = 'upper.stl → lower.stl';
  } else {
    const c = centroid(model);
    const s = uvSphereMesh({ radius: 38, segments: 250, rings: 201, center: [c[0] + 0.7, c[1] - 0.4, c[2] + 0.3] });
    partner = { name: 'sphere 100k', positions: s.positions, indices: s.indices };
    partnerNote = 'sphere 100k (r 38, off centre) → this model';
  }

  const d: V3 = realUpper ? unit(sub(centroid(partner), centroid(model))) : [0, 0, 1];
  // The defaults of undercut.ts, passed to both sides.
  const { eps, normalEps } = rayOffsets(o.bvh);
  // Both sides start from the same vertex normals (ours has them from parsing), outside the clock.
  const normals = meshViews(o.mesh).normals ?? vertexNormals(model.positions, model.indices);
  let oursFlags = new Uint8Array(0);
  let oursArea = 0;
  let peerU: { flags: Uint8Array; depth: Float32Array; area: number } = { flags: new Uint8Array(0), depth: new Float32Array(0), area: 0 };
  const under = await compare(
    ctx,
    'undercut',
    async () => {
      const r = await undercutMap(o.mesh, o.bvh, d, { eps, normalEps });
      oursFlags = r.undercut;
      oursArea = r.area;
    },
    () => {
      peerU = peerUndercut(model, peerBvh, d, eps, normals, normalEps);
    },
  );
  let flagDiff = 0;
  let undercutCount = 0;
  for (let v = 0; v < verts; v++) {
    if (oursFlags[v] !== peerU.flags[v]) flagDiff++;
    if (oursFlags[v]) undercutCount++;
  }
  rows.push(
    row(
      'undercut/three-mesh-bvh',
      input,
      under,
      `d=(${d.map((x) => x.toFixed(2)).join(', ')}), ${formatInt(undercutCount)} of ${formatInt(verts)} vertices in undercut, area ${oursArea.toFixed(1)} (peer ${peerU.area.toFixed(1)}), ${flagDiff} flags differ`,
    ),
  );

  // ---- distance map: partner's vertices (its own instance) to this model
  const from = meshFromArrays(await loadKernels(), partner.positions, partner.indices);
  let oursD: Float32Array = new Float32Array(0);
  let peerD: Float32Array = new Float32Array(0);
  const dist = await compare(
    ctx,
    'distance',
    async () => {
      oursD = (await distanceMap(from, o.mesh, o.bvh)).distance;
    },
    () => {
      peerD = peerDistance(partner.positions, g, peerBvh);
    },
  );
  let maxDiff = 0;
  let signDiff = 0;
  let dMin = Infinity, dMax = -Infinity;
  for (let i = 0; i < oursD.length; i++) {
    maxDiff = Math.max(maxDiff, Math.abs(Math.abs(oursD[i]!) - Math.abs(peerD[i]!)));
    if (Math.sign(oursD[i]!) !== Math.sign(peerD[i]!) && Math.abs(oursD[i]!) > 1e-4) signDiff++;
    dMin = Math.min(dMin, oursD[i]!);
    dMax = Math.max(dMax, oursD[i]!);
  }
  rows.push(
    row(
      'distance/three-mesh-bvh',
      input,
      dist,
      `${partnerNote}, ${formatInt(oursD.length)} points, range ${dMin.toFixed(2)}..${dMax.toFixed(2)}, max |Δ| ${maxDiff.toExponential(1)}, ${signDiff} signs differ`,
    ),
  );
  return rows;
}

/** Median of `runs` timings of `f` (after one warm-up). */
async function timeOurs(runs: number, f: () => void): Promise<number> {
  f();
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    await settle();
    const t0 = performance.now();
    f();
    t.push(performance.now() - t0);
  }
  return median(t);
}

async function refitRows(ctx: BenchContext, input: string, o: Ours): Promise<BenchRow[]> {
  const runs = Math.max(3, ctx.runs);
  const full = await timeOurs(runs, () => refitBvh(o.bvh, o.mesh));
  const index = bvhRefitIndex(o.bvh, o.mesh);
  // A dab: the vertices within 3 (mm) of a vertex in the middle of the list, pushed out and back by turns.
  const { positions } = meshViews(o.mesh);
  const n = o.mesh.vertexCount;
  const c = (n >> 1) * 3;
  const cx = positions[c]!, cy = positions[c + 1]!, cz = positions[c + 2]!;
  const dab: number[] = [];
  for (let v = 0; v < n; v++) {
    if (Math.hypot(positions[v * 3]! - cx, positions[v * 3 + 1]! - cy, positions[v * 3 + 2]! - cz) < 3) dab.push(v);
  }
  const ids = new Uint32Array(dab);
  const before = positions.slice();
  let sign = 1;
  let rewritten = 0;
  const local = await timeOurs(runs, () => {
    const p = meshViews(o.mesh).positions;
    for (const v of dab) p[v * 3 + 2]! += sign * 0.05;
    sign = -sign;
    rewritten = refitBvhVertices(index, o.mesh, ids);
  });
  // Put the model back as the other rows expect it.
  meshViews(o.mesh).positions.set(before);
  refitBvh(o.bvh, o.mesh);
  ctx.log(`  refit: full ${full.toFixed(1)} ms, local ${local.toFixed(3)} ms (${dab.length} vertices)`);
  const none = { peer: '', peer_ms: Number.NaN, ratio: Number.NaN };
  return [
    { name: 'bvh-refit/full', input, ours_ms: full, ...none, note: `every node and triangle; no peer` },
    {
      name: 'bvh-refit/local',
      input,
      ours_ms: local,
      ...none,
      note: `${formatInt(dab.length)} moved vertices (a 3 mm dab, positions edit included), ${rewritten} nodes rewritten; no peer`,
    },
  ];
}

function sub(a: V3, b: V3): V3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

function unit(a: V3): V3 {
  const l = Math.hypot(...a);
  return [a[0] / l, a[1] / l, a[2] / l];
}

export const bvhSuite: BenchSuite = {
  name: 'bvh',
  async run(ctx) {
    const rows: BenchRow[] = [];
    for (const spec of ctx.inputs) {
      if (spec.format !== 'binary') continue;
      rows.push(...(await rowsFor(ctx, spec)));
    }
    return rows;
  },
};
