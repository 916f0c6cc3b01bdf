// Bite registration (assembly/bite*.ts): each jaw model's rigid transform into
// the frame of a bite (occlusion) scan, from any starting pose. The pipeline
// and its thresholds are in docs/geometry.md, section "Bite registration".
//
//   registerBite(k, { upper, lower, bite })   all three meshes in instance k
//   registerBiteStl(module, { upper, lower, bites })   STL bytes, a fresh instance
//   alignByPairs(k, jaw, bite, pairs)          the editor's manual alignment
//
// Inside, every transform maps bite points into a jaw's frame (the jaw's BVH
// stays put); the results are inverted into jaw -> bite (common/bite.ts).

import { IDENTITY, type BiteErrorCode, type BiteResult, type Mat4 } from '../../common/bite.ts';
import { instantiateModule, type KernelExports } from './abi.ts';
import { buildBvhAsync, type Bvh } from './bvh.ts';
import { KernelError, type JobOptions } from './job.ts';
import { meshFromArrays, type MeshRef } from './mesh.ts';
import { parseStl } from './stl.ts';

export type Vec3 = [number, number, number];

export interface BiteOptions extends JobOptions {
  /** Known starting poses (jaw -> bite); the global search is skipped for a jaw that has one. */
  initial?: { upper?: Mat4; lower?: Mat4 };
  /** RANSAC seed (default fixed: the same input gives the same result). */
  seed?: number;
  /**
   * Penetration (mm) left in place: the lower jaw is moved along the occlusal direction only
   * when the registered models penetrate deeper than this. Default BITE_CONTACT_TOLERANCE.
   */
  contactTolerance?: number;
  /**
   * Apply the penetration resolution to `lower` (and report it in `resolved`). Default false: `lower`
   * is the registration as measured, the resolved pose is in `lowerResolved` / `resolveBy`.
   */
  resolvePenetration?: boolean;
  /** When given, filled with the milliseconds of each phase (bvh, descriptors, match, ransac, verify, icp, joint, penetration, other). */
  profile?: Record<string, number>;
}

/** Tunables, in millimetres (docs/geometry.md lists them with their reasons). */
export const BITE = {
  /** Voxel of the descriptor samples, and the FPFH radius. */
  descVoxel: 1.2,
  descRadius: 3.6,
  /** Voxel of the ICP samples of the bite scan. */
  fineVoxel: 0.5,
  /** Nearest jaw descriptors per bite descriptor. */
  matchK: 3,
  ransacTries: 400_000,
  ransacInlier: 1.2,
  ransacEdgeTol: 0.12,
  ransacMinEdge: 3,
  /** Hypotheses verified by a short ICP, the distance that scores them, and the share of the allowed bite samples that ends the verification. */
  verify: 10,
  verifyInlier: 0.4,
  acceptShare: 0.33,
  /** A bite point lies on a model when within this after registration (overlap, explained points). */
  onSurface: 0.2,
  /** Failure thresholds. */
  minOverlap: 0.25,
  goodOverlap: 0.4,
  /** RMS (mm) accepted at any coverage; up to noisyRms only when the scan is almost all on the models (a noisy scanner). */
  maxRms: 0.06,
  noisyRms: 0.1,
  noisyOverlap: 0.8,
  /** Share of the bite points each jaw must explain. */
  minJawShare: 0.1,
  /** Jaw / bite size range (largest extent, mm) of dental meshes. */
  jawExtent: [25, 150] as const,
  biteExtent: [6, 150] as const,
  /** Descriptor spread below which a mesh is not anatomy (a sphere, a plane, a box). */
  minSpread: 0.14,
  minBitePoints: 200,
  minJawTriangles: 500,
  /** Penetration measured within this distance of the upper surface. */
  penetrationRange: 1.0,
};

/** Default penetration left in place (mm): the resolution target. */
export const BITE_CONTACT_TOLERANCE = 0.05;

// ---------------------------------------------------------------- matrices
// Kernel transforms: 12 numbers, rows of [R | t]. Mat4: column-major 16.

type Rt = number[];

function rtInverse(m: Rt): Rt {
  const [a, b, c, x, d, e, f, y, g, h, i, z] = m as [number, number, number, number, number, number, number, number, number, number, number, number];
  return [a, d, g, -(a * x + d * y + g * z), b, e, h, -(b * x + e * y + h * z), c, f, i, -(c * x + f * y + i * z)];
}

function rtMul(m: Rt, n: Rt): Rt {
  const o: number[] = new Array(12).fill(0);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 4; c++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += m[r * 4 + k]! * n[k * 4 + c]!;
      if (c === 3) s += m[r * 4 + 3]!;
      o[r * 4 + c] = s;
    }
  }
  return o;
}

function rtToMat4(m: Rt): number[] {
  return [m[0]!, m[4]!, m[8]!, 0, m[1]!, m[5]!, m[9]!, 0, m[2]!, m[6]!, m[10]!, 0, m[3]!, m[7]!, m[11]!, 1];
}

function mat4ToRt(m: Mat4): Rt {
  return [m[0]!, m[4]!, m[8]!, m[12]!, m[1]!, m[5]!, m[9]!, m[13]!, m[2]!, m[6]!, m[10]!, m[14]!];
}

/** Rigid map (rows of [R | t]) that best takes points a onto b in the least-squares sense (Horn's quaternion method). */
export function kabsch(a: readonly Vec3[], b: readonly Vec3[]): Rt {
  const n = a.length;
  const ca = [0, 0, 0];
  const cb = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let j = 0; j < 3; j++) {
    ca[j] = ca[j]! + a[i]![j]! / n;
    cb[j] = cb[j]! + b[i]![j]! / n;
  }
  const S = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < n; i++) {
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) S[r * 3 + c] = S[r * 3 + c]! + (a[i]![r]! - ca[r]!) * (b[i]![c]! - cb[c]!);
  }
  const [sxx, sxy, sxz, syx, syy, syz, szx, szy, szz] = S as [number, number, number, number, number, number, number, number, number];
  const N = [
    [sxx + syy + szz, syz - szy, szx - sxz, sxy - syx],
    [syz - szy, sxx - syy - szz, sxy + syx, szx + sxz],
    [szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy],
    [sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz],
  ];
  const q = largestEigenvector4(N);
  const [w, x, y, z] = q as [number, number, number, number];
  const R = [
    w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z,
  ];
  const t = [0, 1, 2].map((r) => cb[r]! - (R[r * 3]! * ca[0]! + R[r * 3 + 1]! * ca[1]! + R[r * 3 + 2]! * ca[2]!));
  return [R[0]!, R[1]!, R[2]!, t[0]!, R[3]!, R[4]!, R[5]!, t[1]!, R[6]!, R[7]!, R[8]!, t[2]!];
}

/** Eigenvector of the largest eigenvalue of a symmetric 4x4 (cyclic Jacobi). */
function largestEigenvector4(A: number[][]): number[] {
  const a = A.map((r) => r.slice());
  const v = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j): number => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    for (let p = 0; p < 4; p++) for (let q = p + 1; q < 4; q++) off += a[p]![q]! ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < 4; p++) {
      for (let q = p + 1; q < 4; q++) {
        const apq = a[p]![q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < 4; k++) {
          const akp = a[k]![p]!, akq = a[k]![q]!;
          a[k]![p] = c * akp - s * akq;
          a[k]![q] = s * akp + c * akq;
        }
        for (let k = 0; k < 4; k++) {
          const apk = a[p]![k]!, aqk = a[q]![k]!;
          a[p]![k] = c * apk - s * aqk;
          a[q]![k] = s * apk + c * aqk;
        }
        for (let k = 0; k < 4; k++) {
          const vkp = v[k]![p]!, vkq = v[k]![q]!;
          v[k]![p] = c * vkp - s * vkq;
          v[k]![q] = s * vkp + c * vkq;
        }
      }
    }
  }
  let best = 0;
  for (let i = 1; i < 4; i++) if (a[i]![i]! > a[best]![best]!) best = i;
  return [0, 1, 2, 3].map((k) => v[k]![best]!);
}

// ---------------------------------------------------------------- kernel plumbing

const SAMPLE = 24;
const DESC = 144;

class Scratch {
  constructor(readonly k: KernelExports) {}
  alloc(bytes: number): number {
    const ptr = this.k.arenaAlloc(Math.max(16, bytes)) >>> 0;
    if (ptr === 0) throw new KernelError('OUT_OF_MEMORY', `bite registration: no room for ${bytes} bytes`);
    return ptr;
  }
  f64(ptr: number, n: number): Float64Array {
    return new Float64Array(this.k.memory.buffer, ptr, n);
  }
  f32(ptr: number, n: number): Float32Array {
    return new Float32Array(this.k.memory.buffer, ptr, n);
  }
  u8(ptr: number, n: number): Uint8Array {
    return new Uint8Array(this.k.memory.buffer, ptr, n);
  }
  mat(m: Rt): number {
    const ptr = this.alloc(96);
    this.f64(ptr, 12).set(m);
    return ptr;
  }
  readMat(ptr: number): Rt {
    return Array.from(this.f64(ptr, 12));
  }
}

interface Samples {
  ptr: number;
  n: number;
}

function sample(s: Scratch, positionsPtr: number, normalsPtr: number, count: number, voxel: number, pick = false): Samples {
  const out = s.alloc(count * SAMPLE);
  const n = s.k.biteVoxelSample(positionsPtr, normalsPtr, count, 0, voxel, pick ? 1 : 0, out);
  if (n < 0) throw new KernelError('OUT_OF_MEMORY', 'bite registration: no room for the voxel table');
  return { ptr: out, n };
}

function descriptors(s: Scratch, pts: Samples, radius: number): number {
  const out = s.alloc(pts.n * DESC);
  if (s.k.biteFpfh(pts.ptr, pts.n, radius, out) < 0) throw new KernelError('OUT_OF_MEMORY', 'bite registration: no room for the descriptors');
  return out;
}

function ensureNormals(s: Scratch, mesh: MeshRef): number {
  if (mesh.normalsPtr) return mesh.normalsPtr;
  const out = s.alloc(mesh.vertexCount * 12);
  if (s.k.meshVertexNormals(mesh.positionsPtr, mesh.indicesPtr, mesh.vertexCount, mesh.triangleCount, out) < 0) {
    throw new KernelError('BAD_INPUT', 'a triangle refers to a vertex that does not exist');
  }
  return out;
}

function extent(s: Scratch, mesh: MeshRef): { min: Vec3; max: Vec3; size: number; center: Vec3 } {
  const ptr = s.k.meshBounds(mesh.positionsPtr, mesh.vertexCount) >>> 0;
  const b = s.f32(ptr, 6);
  const min: Vec3 = [b[0]!, b[1]!, b[2]!];
  const max: Vec3 = [b[3]!, b[4]!, b[5]!];
  return { min, max, size: Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]), center: [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2] };
}

/** Time slices: yields when the slice is spent, checks cancellation, reports progress. */
class Slicer {
  readonly phases: Record<string, number> = {};
  private phaseStart = performance.now();
  /** Ends the current phase under `name` (milliseconds, summed). */
  phase(name: string): void {
    const now = performance.now();
    this.phases[name] = (this.phases[name] ?? 0) + now - this.phaseStart;
    this.phaseStart = now;
  }
  private sliceStart = performance.now();
  private lastReport = -Infinity;
  constructor(private readonly job: JobOptions) {}
  async tick(fraction: number): Promise<void> {
    const now = performance.now();
    if (now - this.sliceStart < (this.job.sliceMs ?? 30)) return;
    if (this.job.onProgress && now - this.lastReport >= (this.job.progressIntervalMs ?? 50)) {
      this.job.onProgress(Math.min(1, fraction));
      this.lastReport = now;
    }
    await (this.job.yieldToEventLoop ?? (() => new Promise<void>((r) => setTimeout(r, 0))))();
    if (this.job.shouldCancel?.()) throw new KernelError('ABORTED');
    this.sliceStart = performance.now();
  }
}

// ---------------------------------------------------------------- one jaw

interface JawSide {
  mesh: MeshRef;
  bvh: Bvh;
  desc: Samples;
  descPtr: number;
}

interface BiteSide {
  desc: Samples;
  descPtr: number;
  fine: Samples;
}

/** ICP in stages of shrinking distance: `stages` of [maxDist, iterations]. */
async function icp(s: Scratch, slicer: Slicer, progress: number, jaw: JawSide, pts: Samples, maskPtr: number, m: Rt, stages: readonly [number, number][], seedsPtr = 0): Promise<{ m: Rt; used: number; rms: number }> {
  const matPtr = s.mat(m);
  let used = 0;
  for (const [maxDist, iters] of stages) {
    for (let done = 0; done < iters; ) {
      const step = Math.min(8, iters - done);
      used = s.k.biteIcp(jaw.bvh.ptr, pts.ptr, pts.n, maskPtr, matPtr, maxDist, 0.5, step, seedsPtr);
      done += step;
      const ran = s.k.biteLastIterations();
      await slicer.tick(progress);
      if (ran < step) break;
    }
  }
  return { m: s.readMat(matPtr), used, rms: s.k.biteLastRms() };
}

function fit(s: Scratch, jaw: JawSide, pts: Samples, maskPtr: number, m: Rt, maxDist: number, inlier: number, distPtr = 0): { count: number; rms: number } {
  const matPtr = s.mat(m);
  const count = s.k.biteFit(jaw.bvh.ptr, pts.ptr, pts.n, maskPtr, matPtr, maxDist, 0.5, inlier, distPtr);
  return { count, rms: s.k.biteLastRms() };
}

/**
 * Global search for one jaw: descriptor pairs from the bite samples with mask
 * byte set to the jaw's, RANSAC, then the best hypotheses verified by a short
 * ICP on the descriptor samples and scored by the bite points they put on the
 * surface. Returns the best transform (bite -> jaw) and its score.
 */
async function globalSearch(s: Scratch, slicer: Slicer, progress: number, jaw: JawSide, bite: BiteSide, descMask: Uint8Array, fineMaskPtr: number, seed: number): Promise<{ m: Rt; score: number } | null> {
  const { k } = s;
  // Compact the allowed bite descriptor samples.
  const idx: number[] = [];
  for (let i = 0; i < bite.desc.n; i++) if (descMask[i]) idx.push(i);
  if (idx.length < 10) return null;
  const subPts = s.alloc(idx.length * SAMPLE);
  const subDesc = s.alloc(idx.length * DESC);
  {
    const buf = k.memory.buffer;
    const srcP = new Uint8Array(buf, bite.desc.ptr, bite.desc.n * SAMPLE);
    const srcD = new Uint8Array(buf, bite.descPtr, bite.desc.n * DESC);
    const dp = new Uint8Array(buf, subPts, idx.length * SAMPLE);
    const dd = new Uint8Array(buf, subDesc, idx.length * DESC);
    idx.forEach((i, j) => {
      dp.set(srcP.subarray(i * SAMPLE, (i + 1) * SAMPLE), j * SAMPLE);
      dd.set(srcD.subarray(i * DESC, (i + 1) * DESC), j * DESC);
    });
  }
  const pairs = s.alloc(idx.length * BITE.matchK * 8);
  slicer.phase('other');
  // in chunks of bite descriptors, so a cancel gets through (a chunk's pairs count from its start)
  let nPairs = 0;
  for (let start = 0; start < idx.length; start += 256) {
    const n = Math.min(256, idx.length - start);
    const got = k.biteMatch(subDesc + start * DESC, n, jaw.descPtr, jaw.desc.n, BITE.matchK, pairs + nPairs * 8);
    const view = new Int32Array(k.memory.buffer, pairs + nPairs * 8, got * 2);
    for (let j = 0; j < got; j++) view[j * 2] = view[j * 2]! + start;
    nPairs += got;
    await slicer.tick(progress);
  }
  slicer.phase('match');
  const maxHyp = BITE.verify;
  const hypPtr = s.alloc(maxHyp * 13 * 8);
  const all: { m: Rt; inliers: number }[] = [];
  const chunks = 4;
  for (let c = 0; c < chunks; c++) {
    const got = k.biteRansac(subPts, jaw.desc.ptr, pairs, nPairs, Math.ceil(BITE.ransacTries / chunks), (seed + c * 7919) >>> 0, BITE.ransacInlier, BITE.ransacEdgeTol, BITE.ransacMinEdge, 0.6, hypPtr, maxHyp);
    const h = s.f64(hypPtr, got * 13);
    for (let j = 0; j < got; j++) all.push({ m: Array.from(h.subarray(j * 13, j * 13 + 12)), inliers: h[j * 13 + 12]! });
    await slicer.tick(progress);
  }
  slicer.phase('ransac');
  all.sort((a, b) => b.inliers - a.inliers);
  const candidates = dedupe(all).slice(0, maxHyp);
  let best: { m: Rt; score: number } | null = null;
  const subMaskPtr = 0;
  const sub: Samples = { ptr: subPts, n: idx.length };
  for (const cand of candidates) {
    const refined = await icp(s, slicer, progress, jaw, sub, subMaskPtr, cand.m, [
      [3, 6],
      [1.5, 6],
      [0.8, 6],
    ]);
    const score = fit(s, jaw, sub, subMaskPtr, refined.m, 1, BITE.verifyInlier).count;
    if (!best || score > best.score) best = { m: refined.m, score };
    // A third of the allowed bite on this jaw within the inlier distance: no wrong pose does that.
    if (best.score >= BITE.acceptShare * sub.n) break;
  }
  slicer.phase('verify');
  return best;
}

function dedupe<T extends { m: Rt }>(list: T[]): T[] {
  const out: T[] = [];
  for (const h of list) {
    const similar = out.some((o) => {
      const tr = o.m[0]! * h.m[0]! + o.m[1]! * h.m[1]! + o.m[2]! * h.m[2]! + o.m[4]! * h.m[4]! + o.m[5]! * h.m[5]! + o.m[6]! * h.m[6]! + o.m[8]! * h.m[8]! + o.m[9]! * h.m[9]! + o.m[10]! * h.m[10]!;
      const d = Math.hypot(o.m[3]! - h.m[3]!, o.m[7]! - h.m[7]!, o.m[11]! - h.m[11]!);
      return tr > 2.98 && d < 3;
    });
    if (!similar) out.push(h);
  }
  return out;
}

interface Aligned {
  mu: Rt;
  ml: Rt;
  overlap: number;
  rms: number;
  fits: { upperFit: { rms: number; points: number }; lowerFit: { rms: number; points: number } };
  cu: Vec3;
  cl: Vec3;
  nu: number;
  nl: number;
  nsum: Vec3;
}

/** Turns the bite samples' normals round and recomputes their descriptors. */
function flipNormals(s: Scratch, bite: BiteSide): void {
  for (const pts of [bite.desc, bite.fine]) {
    const a = s.f32(pts.ptr, pts.n * 6);
    for (let i = 0; i < pts.n; i++) for (let c = 3; c < 6; c++) a[i * 6 + c] = -a[i * 6 + c]!;
  }
  if (s.k.biteFpfh(bite.desc.ptr, bite.desc.n, BITE.descRadius, bite.descPtr) < 0) throw new KernelError('OUT_OF_MEMORY', 'bite registration: no room for the descriptors');
}

const FINE_STAGES: readonly [number, number][] = [
  [1.0, 10],
  [0.5, 16],
];

// ---------------------------------------------------------------- registerBite

function failure(code: BiteErrorCode, error: string, extra: Partial<BiteResult> = {}): BiteResult {
  return { upper: IDENTITY, lower: IDENTITY, rms: 0, overlap: 0, penetration: 0, ...extra, error, code };
}

/**
 * Registers the upper and the lower jaw (closed study models or open scans)
 * to a bite scan (buccal surfaces of both jaws in occlusion, one side or
 * both, any number of shells). All three meshes must live in instance `k`
 * (its arena grows by about 60 bytes per jaw triangle for the BVHs, released
 * at the end). Bad input and poor fits are results with `code`, not throws;
 * throws KernelError('ABORTED') when cancelled.
 */
export async function registerBite(
  k: KernelExports,
  meshes: { upper: MeshRef; lower: MeshRef; bite: MeshRef },
  options: BiteOptions = {},
): Promise<BiteResult> {
  const t0 = performance.now();
  const { upper, lower, bite } = meshes;
  if (upper.k !== k || lower.k !== k || bite.k !== k) throw new KernelError('BAD_INPUT', 'registerBite: the meshes must live in the instance it is given');
  if (options.shouldCancel?.()) throw new KernelError('ABORTED');
  for (const [name, m] of [['upper', upper], ['lower', lower]] as const) {
    if (m.triangleCount < BITE.minJawTriangles) return failure('BITE_BAD_INPUT', `The ${name} jaw has ${m.triangleCount} triangles: too few for a model (at least ${BITE.minJawTriangles}).`);
  }
  if (bite.vertexCount < BITE.minBitePoints || bite.triangleCount < 1) return failure('BITE_BAD_INPUT', `The bite scan has ${bite.vertexCount} points: too few (at least ${BITE.minBitePoints}).`);
  const s = new Scratch(k);
  const mark = k.arenaMark() >>> 0;
  const slicer = new Slicer(options);
  try {
    return await register(s, slicer, meshes, options, t0);
  } finally {
    k.arenaRelease(mark);
  }
}

async function register(s: Scratch, slicer: Slicer, meshes: { upper: MeshRef; lower: MeshRef; bite: MeshRef }, options: BiteOptions, t0: number): Promise<BiteResult> {
  const { k } = s;
  const { upper, lower, bite } = meshes;
  const seed = options.seed ?? 0x5eed;
  // Sizes: a jaw is a few centimetres, a bite scan a few.
  const sizes = { upper: extent(s, upper).size, lower: extent(s, lower).size, bite: extent(s, bite).size };
  for (const name of ['upper', 'lower'] as const) {
    const size = sizes[name];
    if (!(size >= BITE.jawExtent[0] && size <= BITE.jawExtent[1])) {
      return failure('BITE_NOT_DENTAL', `The ${name} jaw is ${size.toFixed(1)} mm across: a dental arch is ${BITE.jawExtent[0]} to ${BITE.jawExtent[1]} mm.`);
    }
  }
  if (!(sizes.bite >= BITE.biteExtent[0] && sizes.bite <= BITE.biteExtent[1])) {
    return failure('BITE_NOT_DENTAL', `The bite scan is ${sizes.bite.toFixed(1)} mm across: a bite scan is ${BITE.biteExtent[0]} to ${BITE.biteExtent[1]} mm.`);
  }

  // Samples and descriptors.
  const jaws: Record<'upper' | 'lower', JawSide> = {} as Record<'upper' | 'lower', JawSide>;
  let fraction = 0;
  for (const [name, mesh] of [['upper', upper], ['lower', lower]] as const) {
    slicer.phase('other');
    const bvh = await buildBvhAsync(mesh, {}, { ...options, onProgress: undefined });
    slicer.phase('bvh');
    const normals = ensureNormals(s, mesh);
    const desc = sample(s, mesh.positionsPtr, normals, mesh.vertexCount, BITE.descVoxel);
    const descPtr = descriptors(s, desc, BITE.descRadius);
    slicer.phase('descriptors');
    jaws[name] = { mesh, bvh, desc, descPtr };
    fraction += 0.1;
    await slicer.tick(fraction);
  }
  const biteNormals = ensureNormals(s, bite);
  const biteDesc = sample(s, bite.positionsPtr, biteNormals, bite.vertexCount, BITE.descVoxel);
  const biteSide: BiteSide = {
    desc: biteDesc,
    descPtr: descriptors(s, biteDesc, BITE.descRadius),
    fine: sample(s, bite.positionsPtr, biteNormals, bite.vertexCount, BITE.fineVoxel, true),
  };
  if (biteSide.fine.n < 20 || biteDesc.n < 10) return failure('BITE_BAD_INPUT', 'The bite scan has too few usable points.');
  for (const [name, d] of [
    ['upper jaw', jaws.upper.desc.n ? k.biteDescriptorSpread(jaws.upper.descPtr, jaws.upper.desc.n) : 0],
    ['lower jaw', jaws.lower.desc.n ? k.biteDescriptorSpread(jaws.lower.descPtr, jaws.lower.desc.n) : 0],
    ['bite scan', k.biteDescriptorSpread(biteSide.descPtr, biteDesc.n)],
  ] as const) {
    if (!(d >= BITE.minSpread)) return failure('BITE_NOT_DENTAL', `The ${name} has no dental anatomy: its surface looks the same everywhere (descriptor spread ${d.toFixed(3)}).`);
  }
  fraction = 0.25;
  await slicer.tick(fraction);

  const nFine = biteSide.fine.n;
  const ms = () => performance.now() - t0;

  /**
   * One try: the first jaw found globally and refined, the bite points it explains removed, the
   * second jaw on the rest, then both refined jointly; the fit figures, or a refusal.
   */
  const align = async (lowerFirst: boolean, progress0: number): Promise<Aligned | BiteResult> => {
    const fineMaskPtr = s.alloc(nFine);
    const distA = s.alloc(nFine * 4);
    const distU = s.alloc(nFine * 4);
    const distL = s.alloc(nFine * 4);
    const seedsU = s.alloc(nFine * 4);
    const seedsL = s.alloc(nFine * 4);
    new Int32Array(k.memory.buffer, seedsU, nFine).fill(-1);
    new Int32Array(k.memory.buffer, seedsL, nFine).fill(-1);
    s.u8(fineMaskPtr, nFine).fill(1);
    const descMask = new Uint8Array(biteSide.desc.n).fill(1);
    const roles = lowerFirst
      ? ([['lower', jaws.lower, seedsL, options.initial?.lower], ['upper', jaws.upper, seedsU, options.initial?.upper]] as const)
      : ([['upper', jaws.upper, seedsU, options.initial?.upper], ['lower', jaws.lower, seedsL, options.initial?.lower]] as const);
    const found: Rt[] = [];
    for (let r = 0; r < 2; r++) {
      const [name, jaw, seeds, initial] = roles[r]!;
      let m: Rt;
      if (initial) m = rtInverse(mat4ToRt(initial));
      else {
        const g = await globalSearch(s, slicer, progress0 + 0.15 * r, jaw, biteSide, descMask, fineMaskPtr, seed + r);
        if (!g) {
          return failure('BITE_NO_OVERLAP', r === 0 ? `No part of the bite scan matches the ${name} jaw.` : `No part of the bite scan left after the other jaw matches the ${name} jaw.`);
        }
        m = g.m;
      }
      slicer.phase('other');
      m = (await icp(s, slicer, progress0 + 0.15 * r + 0.1, jaw, biteSide.fine, fineMaskPtr, m, FINE_STAGES, seeds)).m;
      slicer.phase('icp');
      found.push(m);
      if (r === 1) break;
      // Remove what the first jaw explains (fine and descriptor samples).
      fit(s, jaw, biteSide.fine, 0, m, 1, 0.3, distA);
      const d = s.f32(distA, nFine);
      const mask = s.u8(fineMaskPtr, nFine);
      for (let i = 0; i < nFine; i++) mask[i] = d[i]! <= 0.3 ? 0 : 1;
      const dd = s.alloc(biteSide.desc.n * 4);
      fit(s, jaw, biteSide.desc, 0, m, 1.5, 0.6, dd);
      const dv = s.f32(dd, biteSide.desc.n);
      for (let i = 0; i < biteSide.desc.n; i++) descMask[i] = dv[i]! <= 0.6 ? 0 : 1;
    }
    let mu = lowerFirst ? found[1]! : found[0]!;
    let ml = lowerFirst ? found[0]! : found[1]!;

    // Joint refinement: each bite point goes to the nearer model, both refined on their own points.
    const maskU = s.alloc(nFine);
    const maskL = s.alloc(nFine);
    fit(s, jaws.upper, biteSide.fine, 0, mu, 1, 1, distU);
    fit(s, jaws.lower, biteSide.fine, 0, ml, 1, 1, distL);
    {
      const du = s.f32(distU, nFine);
      const dl = s.f32(distL, nFine);
      const a = s.u8(maskU, nFine);
      const b = s.u8(maskL, nFine);
      for (let i = 0; i < nFine; i++) {
        a[i] = du[i]! <= dl[i]! && du[i]! <= 0.5 ? 1 : 0;
        b[i] = dl[i]! < du[i]! && dl[i]! <= 0.5 ? 1 : 0;
      }
    }
    mu = (await icp(s, slicer, progress0 + 0.3, jaws.upper, biteSide.fine, maskU, mu, [[0.25, 30]], seedsU)).m;
    ml = (await icp(s, slicer, progress0 + 0.35, jaws.lower, biteSide.fine, maskL, ml, [[0.25, 30]], seedsL)).m;
    slicer.phase('joint');

    // Fit figures.
    const fu = fit(s, jaws.upper, biteSide.fine, maskU, mu, 1, BITE.onSurface);
    const fl = fit(s, jaws.lower, biteSide.fine, maskL, ml, 1, BITE.onSurface);
    fit(s, jaws.upper, biteSide.fine, 0, mu, 1, 1, distU);
    fit(s, jaws.lower, biteSide.fine, 0, ml, 1, 1, distL);
    let on = 0;
    let sum2 = 0;
    let cu: Vec3 = [0, 0, 0];
    let cl: Vec3 = [0, 0, 0];
    let nu = 0;
    let nl = 0;
    let nsum: Vec3 = [0, 0, 0];
    {
      const du = s.f32(distU, nFine);
      const dl = s.f32(distL, nFine);
      const pts = s.f32(biteSide.fine.ptr, nFine * 6);
      for (let i = 0; i < nFine; i++) {
        const d = Math.min(du[i]!, dl[i]!);
        if (d <= BITE.onSurface) {
          on++;
          sum2 += d * d;
        }
        const p: Vec3 = [pts[i * 6]!, pts[i * 6 + 1]!, pts[i * 6 + 2]!];
        if (du[i]! <= BITE.onSurface && du[i]! <= dl[i]!) {
          cu = [cu[0] + p[0], cu[1] + p[1], cu[2] + p[2]];
          nu++;
        } else if (dl[i]! <= BITE.onSurface) {
          cl = [cl[0] + p[0], cl[1] + p[1], cl[2] + p[2]];
          nl++;
        }
        nsum = [nsum[0] + pts[i * 6 + 3]!, nsum[1] + pts[i * 6 + 4]!, nsum[2] + pts[i * 6 + 5]!];
      }
    }
    slicer.phase('fit');
    const overlap = on / nFine;
    const rms = on > 0 ? Math.sqrt(sum2 / on) : 0;
    const fits = {
      upperFit: { rms: fu.rms, points: fu.count },
      lowerFit: { rms: fl.rms, points: fl.count },
    };
    if (overlap < BITE.minOverlap || Math.min(nu, nl) < 10) {
      return failure('BITE_NO_OVERLAP', `Only ${(overlap * 100).toFixed(0)} % of the bite scan lies on the models (upper ${nu}, lower ${nl} points): the scan does not show these jaws.`, { rms, overlap, ...fits, ms: ms() });
    }
    const rmsLimit = overlap >= BITE.noisyOverlap ? BITE.noisyRms : BITE.maxRms;
    if (overlap < BITE.goodOverlap || rms > rmsLimit || Math.min(nu, nl) < BITE.minJawShare * nFine) {
      return failure(
        'BITE_POOR_FIT',
        `The bite scan fits the models poorly (${(overlap * 100).toFixed(0)} % of it within ${BITE.onSurface} mm, RMS ${rms.toFixed(3)} mm; upper ${nu}, lower ${nl} of ${nFine} points): is it this patient's?`,
        { rms, overlap, ...fits, ms: ms() },
      );
    }
    return { mu, ml, overlap, rms, fits, cu, cl, nu, nl, nsum };
  };

  // Tries, until one fits: upper first; lower first (should the upper have taken the wrong half);
  // the bite's normals flipped (a scan exported inside out), upper first.
  let aligned: Aligned | undefined;
  let refusal: BiteResult | undefined;
  const tries = [
    { flip: false, lowerFirst: false },
    { flip: false, lowerFirst: true },
    { flip: true, lowerFirst: false },
  ];
  for (let t = 0; t < tries.length && !aligned; t++) {
    const { flip, lowerFirst } = tries[t]!;
    if (flip) flipNormals(s, biteSide);
    const r = await align(lowerFirst, 0.25 + 0.05 * t);
    if ('mu' in r) aligned = r;
    else refusal ??= r;
  }
  if (!aligned) return { ...refusal!, ms: ms() };
  const { mu, ml, overlap, rms, fits, nu, nl, nsum } = aligned;
  let { cu, cl } = aligned;
  const upperT = rtInverse(mu);
  let lowerT = rtInverse(ml);

  // Occlusal direction (bite frame): from the upper's bite points to the lower's, without the
  // buccal component (the mean normal of a one-sided scan).
  cu = [cu[0] / nu, cu[1] / nu, cu[2] / nu];
  cl = [cl[0] / nl, cl[1] / nl, cl[2] / nl];
  let occ: Vec3 = [cl[0] - cu[0], cl[1] - cu[1], cl[2] - cu[2]];
  const nlen = Math.hypot(...nsum);
  if (nlen > 0.3 * nFine) {
    const nb: Vec3 = [nsum[0] / nlen, nsum[1] / nlen, nsum[2] / nlen];
    const d = occ[0] * nb[0] + occ[1] * nb[1] + occ[2] * nb[2];
    occ = [occ[0] - d * nb[0], occ[1] - d * nb[1], occ[2] - d * nb[2]];
  }
  const ol = Math.hypot(...occ) || 1;
  occ = [occ[0] / ol, occ[1] / ol, occ[2] / ol];

  // Penetration: lower vertices in the upper's frame (mu * lowerT), behind the upper surface.
  const tolerance = options.contactTolerance ?? BITE_CONTACT_TOLERANCE;
  const penetrationOf = (positionsPtr: number, n: number, lt: Rt, distPtr = 0): number => {
    const matPtr = s.mat(rtMul(mu, lt));
    return k.bitePenetration(jaws.upper.bvh.ptr, positionsPtr, n, matPtr, BITE.penetrationRange, distPtr);
  };
  // Only lower vertices inside the upper's box (grown by the range) can touch it (the plinth and
  // the far side of the arch drop out): a quick pass picks them, the closest points measure those.
  let near = { ptr: 0, n: 0 };
  {
    const box = extent(s, upper);
    const g = BITE.penetrationRange;
    const ptr = s.alloc(lower.vertexCount * 12);
    const matPtr = s.mat(rtMul(mu, lowerT));
    const n = k.biteBoxFilter(lower.positionsPtr, lower.vertexCount, matPtr, box.min[0] - g, box.min[1] - g, box.min[2] - g, box.max[0] + g, box.max[1] + g, box.max[2] + g, ptr);
    near = { ptr, n };
  }
  slicer.phase('penetration-filter');
  const signed = s.alloc(near.n * 4);
  const penetration = penetrationOf(near.ptr, near.n, lowerT, signed);
  {
    // the resolution below moves the lower away: only vertices within the range matter
    const d = s.f32(signed, near.n);
    const pos = s.f32(near.ptr, near.n * 3);
    let m = 0;
    for (let v = 0; v < near.n; v++) {
      if (!(Math.abs(d[v]!) <= BITE.penetrationRange)) continue;
      pos.copyWithin(m * 3, v * 3, v * 3 + 3);
      m++;
    }
    near = { ptr: near.ptr, n: m };
  }
  // The resolution: the lower jaw moved along the occlusal direction until the penetration is
  // the tolerance. Applied to `lower` only with resolvePenetration (see docs: the study models'
  // true bite itself penetrates 0.30 mm, so resolving by default would move away from the truth).
  let resolveBy = 0;
  let lowerResolved = lowerT;
  if (penetration > tolerance) {
    // secant steps on pen(moved): moving along the occlusal direction lowers the penetration at
    // the rate of the contact normal's cosine with it (1 when they agree)
    let pen = penetration;
    let rate = 1;
    for (let it = 0; it < 12 && pen > tolerance + 1e-4; it++) {
      const step = (pen - tolerance) / rate;
      const next = penetrationOf(near.ptr, near.n, rtMul([1, 0, 0, occ[0] * (resolveBy + step), 0, 1, 0, occ[1] * (resolveBy + step), 0, 0, 1, occ[2] * (resolveBy + step)], lowerT));
      rate = Math.min(1, Math.max(0.2, (pen - next) / step));
      resolveBy += step;
      pen = next;
      await slicer.tick(0.95);
    }
    lowerResolved = rtMul([1, 0, 0, occ[0] * resolveBy, 0, 1, 0, occ[1] * resolveBy, 0, 0, 1, occ[2] * resolveBy], lowerT);
  }
  const resolved = options.resolvePenetration ? resolveBy : 0;
  if (options.resolvePenetration) lowerT = lowerResolved;
  slicer.phase('penetration');
  if (options.profile) Object.assign(options.profile, slicer.phases);
  options.onProgress?.(1);
  return {
    upper: rtToMat4(upperT),
    lower: rtToMat4(lowerT),
    rms,
    overlap,
    penetration,
    resolved,
    resolveBy,
    lowerResolved: rtToMat4(lowerResolved),
    occlusal: occ,
    ...fits,
    ms: ms(),
  };
}

// ---------------------------------------------------------------- STL entry (server job, CLI)

/**
 * Parses the STLs (several bite files make one bite scan) and registers them
 * in a fresh instance of `module`. Unreadable files are BITE_BAD_INPUT results.
 */
export async function registerBiteStl(
  module: WebAssembly.Module,
  files: { upper: Uint8Array; lower: Uint8Array; bites: readonly Uint8Array[] },
  options: BiteOptions = {},
): Promise<BiteResult & { timings?: { parseMs: number; registerMs: number } }> {
  const t0 = performance.now();
  const parser = instantiateModule(module);
  const parsed: { positions: Float32Array; normals: Float32Array; indices: Uint32Array }[] = [];
  const names = ['upper jaw', 'lower jaw', ...files.bites.map((_, i) => (files.bites.length > 1 ? `bite scan ${i + 1}` : 'bite scan'))];
  const sources = [files.upper, files.lower, ...files.bites];
  if (files.bites.length === 0) return failure('BITE_BAD_INPUT', 'No bite scan was given.');
  for (let i = 0; i < sources.length; i++) {
    const r = await parseStl(parser, sources[i]!, { shouldCancel: options.shouldCancel, yieldToEventLoop: options.yieldToEventLoop });
    if (!r.ok) {
      if (r.error.code === 'ABORTED') throw new KernelError('ABORTED');
      return failure('BITE_BAD_INPUT', `The ${names[i]} is not a readable STL (${r.error.code}${r.error.detail ? `: ${r.error.detail}` : ''}).`);
    }
    parsed.push(r.mesh);
  }
  // One bite mesh from all bite files.
  const bites = parsed.slice(2);
  const vc = bites.reduce((a, m) => a + m.positions.length / 3, 0);
  const tc = bites.reduce((a, m) => a + m.indices.length / 3, 0);
  const bp = new Float32Array(vc * 3);
  const bn = new Float32Array(vc * 3);
  const bi = new Uint32Array(tc * 3);
  let vo = 0;
  let to = 0;
  for (const m of bites) {
    bp.set(m.positions, vo * 3);
    bn.set(m.normals, vo * 3);
    for (let j = 0; j < m.indices.length; j++) bi[to * 3 + j] = m.indices[j]! + vo;
    vo += m.positions.length / 3;
    to += m.indices.length / 3;
  }
  const parseMs = performance.now() - t0;
  const k = instantiateModule(module);
  const [u, l] = parsed as [(typeof parsed)[0], (typeof parsed)[0]];
  const upper = meshFromArrays(k, u.positions, u.indices, u.normals);
  const lower = meshFromArrays(k, l.positions, l.indices, l.normals);
  const bite = meshFromArrays(k, bp, bi, bn);
  const t1 = performance.now();
  const result = await registerBite(k, { upper, lower, bite }, options);
  return { ...result, timings: { parseMs, registerMs: performance.now() - t1 } };
}

// ---------------------------------------------------------------- manual alignment

/**
 * The editor's manual alignment: the rigid map (jaw -> bite) of three or more
 * picked point pairs (Horn/Kabsch), then ICP of the bite scan's points onto
 * this jaw (trimmed: the other jaw's points stay out). Both meshes in `k`.
 * `initial` (jaw -> bite) replaces the pairs' map when given and the pairs are fewer than 3.
 */
export async function alignByPairs(
  k: KernelExports,
  jaw: MeshRef,
  bite: MeshRef,
  pairs: readonly { jaw: readonly [number, number, number]; bite: readonly [number, number, number] }[],
  initial?: Mat4,
  options: JobOptions = {},
): Promise<{ matrix: Mat4; rms: number; points: number }> {
  if (jaw.k !== k || bite.k !== k) throw new KernelError('BAD_INPUT', 'alignByPairs: the meshes must live in the instance it is given');
  let start: Rt;
  if (pairs.length >= 3) start = kabsch(pairs.map((p) => [...p.jaw] as Vec3), pairs.map((p) => [...p.bite] as Vec3));
  else if (initial) start = mat4ToRt(initial);
  else throw new KernelError('BAD_INPUT', 'alignByPairs needs at least 3 point pairs');
  if (jaw.triangleCount < 1 || bite.vertexCount < 3) throw new KernelError('BAD_INPUT', 'alignByPairs: empty mesh');
  const s = new Scratch(k);
  const mark = k.arenaMark() >>> 0;
  try {
    const slicer = new Slicer(options);
    const bvh = await buildBvhAsync(jaw, {}, { ...options, onProgress: undefined });
    const side: JawSide = { mesh: jaw, bvh, desc: { ptr: 0, n: 0 }, descPtr: 0 };
    const fine = sample(s, bite.positionsPtr, ensureNormals(s, bite), bite.vertexCount, BITE.fineVoxel, true);
    const seeds = s.alloc(fine.n * 4);
    new Int32Array(k.memory.buffer, seeds, fine.n).fill(-1);
    let m = rtInverse(start);
    m = (await icp(s, slicer, 0.5, side, fine, 0, m, [[2, 16], [1, 16], [0.5, 16], [0.25, 40]], seeds)).m;
    const f = fit(s, side, fine, 0, m, 1, BITE.onSurface);
    options.onProgress?.(1);
    return { matrix: rtToMat4(rtInverse(m)), rms: f.rms, points: f.count };
  } finally {
    k.arenaRelease(mark);
  }
}
