// Bite suite: registerBite (workers/kernels/bite.ts) on the study models and
// their bite scans (../shared/fixtures/study-models, or ARCHWRIGHT_FIXTURES),
// no peer. For bite-left + bite-right together and each side alone: 20
// seeded random poses of each jaw (rotation up to 180 degrees about the jaw's
// centroid, translation up to 50 mm), each registered from scratch in a fresh
// instance. Reports the relative upper-lower pose error against the truth
// (identity): rotation angle, and translation as the largest displacement
// over the lower jaw's vertices (the centroid's is in the note too); the
// worst and the mean over the poses. Time: one registration on one core,
// BVH builds of both jaws included (split in the note); parsing and welding
// the three STLs is a separate row.

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { instantiateKernels } from '../../../workers/kernels/abi.ts';
import { registerBite } from '../../../workers/kernels/bite.ts';
import { meshFromArrays } from '../../../workers/kernels/mesh.ts';
import { parseStl, type StlMesh } from '../../../workers/kernels/stl.ts';
import { biteError, centroid, randomPose, rng, transformed } from '../../fixtures/bite-poses.ts';
import { WASM_PATH } from '../../kernels/kernels.ts';
import { fixturesDir } from '../inputs.ts';
import { median } from '../measure.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';

export interface BitePoseRun {
  side: string;
  pose: number;
  deg: number;
  mm: number;
  centroidMm: number;
  ms: number;
  bvhMs: number;
  code?: string;
  penetration: number;
  profile: Record<string, number>;
}

const STUDY = () => resolve(fixturesDir, 'study-models');

/** Registers `poses` random poses per bite configuration; calls `each` after every run. */
export async function biteRuns(poses: number, sides: readonly string[], each?: (r: BitePoseRun) => void): Promise<{ runs: BitePoseRun[]; parseMs: number } | null> {
  const dir = STUDY();
  if (!existsSync(resolve(dir, 'upper-model.stl'))) return null;
  const bytes = readFileSync(WASM_PATH);
  const parser = await instantiateKernels(bytes);
  const read = async (f: string): Promise<StlMesh> => {
    const r = await parseStl(parser, readFileSync(resolve(dir, f)));
    if (!r.ok) throw new Error(`${f}: ${r.error.code}`);
    return r.mesh;
  };
  const t0 = performance.now();
  const upper = await read('upper-model.stl');
  const lower = await read('lower-model.stl');
  const left = await read('bite-left.stl');
  const right = await read('bite-right.stl');
  const parseMs = performance.now() - t0;
  const both = concat([left, right]);
  const bites: Record<string, { positions: Float32Array; normals: Float32Array; indices: Uint32Array }> = { both, left, right };
  const runs: BitePoseRun[] = [];
  const cu = centroid(upper.positions);
  const cl = centroid(lower.positions);
  for (const side of sides) {
    const next = rng(20261127);
    for (let pose = 0; pose < poses; pose++) {
      const pu = randomPose(next, cu);
      const pl = randomPose(next, cl);
      const u = transformed(pu, upper.positions, upper.normals);
      const l = transformed(pl, lower.positions, lower.normals);
      const k = await instantiateKernels(bytes);
      const b = bites[side]!;
      const meshes = {
        upper: meshFromArrays(k, u.positions, upper.indices, u.normals),
        lower: meshFromArrays(k, l.positions, lower.indices, l.normals),
        bite: meshFromArrays(k, b.positions, b.indices, b.normals),
      };
      const profile: Record<string, number> = {};
      const t = performance.now();
      const r = await registerBite(k, meshes, { profile, sliceMs: 1e9 });
      const ms = performance.now() - t;
      const e = biteError(pu, pl, r.upper, r.lower, upper.positions, lower.positions);
      const run: BitePoseRun = { side, pose, deg: e.relative.deg, mm: e.relative.mm, centroidMm: e.relative.centroidMm, ms, bvhMs: profile.bvh ?? 0, code: r.code, penetration: r.penetration, profile };
      runs.push(run);
      each?.(run);
    }
  }
  return { runs, parseMs };
}

function concat(meshes: readonly { positions: Float32Array; normals: Float32Array; indices: Uint32Array }[]) {
  const vc = meshes.reduce((a, m) => a + m.positions.length, 0);
  const ic = meshes.reduce((a, m) => a + m.indices.length, 0);
  const positions = new Float32Array(vc);
  const normals = new Float32Array(vc);
  const indices = new Uint32Array(ic);
  let v = 0, i = 0;
  for (const m of meshes) {
    positions.set(m.positions, v);
    normals.set(m.normals, v);
    for (let j = 0; j < m.indices.length; j++) indices[i + j] = m.indices[j]! + v / 3;
    v += m.positions.length;
    i += m.indices.length;
  }
  return { positions, normals, indices };
}

export const biteSuite: BenchSuite = {
  name: 'bite',
  async run(ctx) {
    const poses = ctx.quick ? 5 : 20;
    const sides = ['both', 'left', 'right'];
    const result = await biteRuns(poses, sides, (r) => ctx.log(`bite: ${r.side} pose ${r.pose}: ${r.deg.toFixed(4)} deg, ${r.mm.toFixed(4)} mm, ${r.ms.toFixed(0)} ms${r.code ? ` ${r.code}` : ''}`));
    if (!result) {
      ctx.log(`bite: skipped, ${STUDY()} not found (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`);
      return [];
    }
    const rows: BenchRow[] = [
      { name: 'bite-parse/ours', input: 'study models + both bites', ours_ms: result.parseMs, peer: '', peer_ms: NaN, ratio: NaN, note: 'parse + weld of the 4 STLs' },
    ];
    for (const side of sides) {
      const rs = result.runs.filter((r) => r.side === side);
      const worstDeg = Math.max(...rs.map((r) => r.deg));
      const worstMm = Math.max(...rs.map((r) => r.mm));
      const meanDeg = rs.reduce((a, r) => a + r.deg, 0) / rs.length;
      const meanMm = rs.reduce((a, r) => a + r.mm, 0) / rs.length;
      const worstC = Math.max(...rs.map((r) => r.centroidMm));
      const failed = rs.filter((r) => r.code).length;
      const within = rs.filter((r) => !r.code && r.deg <= 0.1 && r.mm <= 0.05).length;
      rows.push({
        name: `bite-register/${side}`,
        input: `study models, ${rs.length} poses`,
        ours_ms: median(rs.map((r) => r.ms)),
        peer: '',
        peer_ms: NaN,
        ratio: NaN,
        note:
          `relative pose worst ${worstDeg.toFixed(4)} deg / ${worstMm.toFixed(4)} mm (max over lower vertices; centroid ${worstC.toFixed(4)}), ` +
          `mean ${meanDeg.toFixed(4)} deg / ${meanMm.toFixed(4)} mm; ${within}/${rs.length} within 0.1 deg & 0.05 mm, ${failed} failed; ` +
          `min ${Math.min(...rs.map((r) => r.ms)).toFixed(0)} ms, max ${Math.max(...rs.map((r) => r.ms)).toFixed(0)} ms, of which BVH ${median(rs.map((r) => r.bvhMs)).toFixed(0)} ms (median); goal ≤ 1500 ms`,
      });
    }
    return rows;
  },
};
