// Base suite: acrylic base generation (no peer).
//
// base-generate/ours: generateBase() at the default 0.25 mm grid and 2 mm
// thickness, on a model already in its instance with its BVH built (as in the
// worker, where the BVH is kept with the mesh): outline checks, ray casts
// from the appliance side (wasm), lifting, the outer envelope, mesh assembly.
// Inputs: the real upper study model (straightened as an upper jaw, a
// horseshoe over the palate), when present, and the generated jaw with a
// palate (a horseshoe over ridge and teeth). The notes add the process's CPU
// time (on a shared machine the wall time, the figure in the row, overstates).

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { instantiateKernels, type KernelExports } from '../../../workers/kernels/abi.ts';
import { generateBase, type BaseSettings } from '../../../workers/kernels/base.ts';
import { buildBvh } from '../../../workers/kernels/bvh.ts';
import { meshFromArrays } from '../../../workers/kernels/mesh.ts';
import { parseStl } from '../../../workers/kernels/stl.ts';
import { straighten, transformMesh } from '../../../workers/kernels/straighten.ts';
import { jawHorseshoe, palateHorseshoe, palateJaw } from '../../fixtures/base-models.ts';
import { pickOutline } from '../../kernels/base-checks.ts';
import { WASM_PATH } from '../../kernels/kernels.ts';
import { fixturesDir } from '../inputs.ts';
import { median, settle } from '../measure.ts';
import type { BenchContext, BenchRow, BenchSuite } from '../suite.ts';

let wasmBytes: ArrayBuffer | undefined;
async function freshKernels(): Promise<KernelExports> {
  if (!wasmBytes) {
    const b = readFileSync(WASM_PATH);
    wasmBytes = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }
  return instantiateKernels(wasmBytes);
}

interface Case {
  name: string;
  positions: Float32Array;
  indices: Uint32Array;
  outline: [number, number][];
  settings: BaseSettings;
  straightenAs?: 'upper';
}

async function cases(ctx: BenchContext): Promise<Case[]> {
  const out: Case[] = [];
  const file = resolve(fixturesDir, 'study-models/upper-model.stl');
  if (existsSync(file)) {
    const k = await freshKernels();
    const buf = readFileSync(file);
    const r = await parseStl(k, new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
    if (!r.ok) throw new Error(`upper-model.stl: ${r.error.code}`);
    out.push({ name: 'upper-model.stl', positions: r.mesh.positions, indices: r.mesh.indices, outline: palateHorseshoe(), settings: { jaw: 'upper' }, straightenAs: 'upper' });
  } else {
    ctx.log(`base: ${file} not found; generated jaw only`);
  }
  const jaw = palateJaw({ detail: 1 });
  out.push({ name: 'palate jaw (generated)', positions: jaw.positions, indices: jaw.indices, outline: jawHorseshoe(), settings: {} });
  return out;
}

async function rowFor(ctx: BenchContext, c: Case): Promise<BenchRow> {
  const k = await freshKernels();
  const mesh = meshFromArrays(k, c.positions, c.indices);
  if (c.straightenAs) transformMesh(mesh, (await straighten(mesh, { jaw: c.straightenAs })).matrix);
  const bvh = buildBvh(mesh);
  const outline = pickOutline(bvh, c.outline, c.settings.jaw === 'upper' ? [0, 0, -1] : [0, 0, 1]);
  const settings = { ...c.settings, thickness: 2, sliceMs: 1e9 };
  const first = await generateBase(mesh, bvh, outline, settings);
  const times: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < ctx.runs; r++) {
    await settle();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await generateBase(mesh, bvh, outline, settings);
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  ctx.log(`base: ${c.name} done`);
  return {
    name: 'base-generate/ours',
    input: c.name,
    ours_ms: median(times),
    peer: '',
    peer_ms: NaN,
    ratio: NaN,
    note: `${(c.indices.length / 3).toLocaleString('en-US')} model triangles; ${first.projectedArea.toFixed(0)} mm² outline at 0.25 mm: ${first.rays.toLocaleString('en-US')} rays, base of ${first.triangleCount.toLocaleString('en-US')} triangles, ${first.volume.toFixed(0)} mm³; CPU ${median(cpu).toFixed(0)} ms`,
  };
}

export const baseSuite: BenchSuite = {
  name: 'base',
  async run(ctx) {
    const rows: BenchRow[] = [];
    for (const c of await cases(ctx)) rows.push(await rowFor(ctx, c));
    return rows;
  },
};

export default baseSuite;
