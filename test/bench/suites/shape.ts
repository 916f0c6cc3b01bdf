// Shape suite: straightening and decimation times (no peer).
//
// straighten/ours: straighten() (surface moments, normal histogram, height
// maps, cusp tips, mirror search) on a mesh already in the instance.
// decimate/ours: simplify() to 10 % of the triangles, quadric-error edge
// collapse, with the copy-out of the result; the arena is released after each
// run. The notes add the process's CPU time (on a shared machine the wall
// time, the figure in the row, overstates). Inputs: the run's binary inputs (a 1M-triangle sphere, upper.stl) and a
// generated jaw of about 1M triangles (test/fixtures/jaw.ts), the shape these
// kernels are for.

import { readFileSync } from 'node:fs';
import { instantiateKernels, type KernelExports } from '../../../workers/kernels/abi.ts';
import { meshFromArrays, type MeshRef } from '../../../workers/kernels/mesh.ts';
import { simplify } from '../../../workers/kernels/simplify.ts';
import { parseStl } from '../../../workers/kernels/stl.ts';
import { straighten, type StraightenJaw } from '../../../workers/kernels/straighten.ts';
import { jawMesh } from '../../fixtures/jaw.ts';
import { WASM_PATH } from '../../kernels/kernels.ts';
import { median, settle } from '../measure.ts';
import type { BenchContext, BenchRow, BenchSuite } from '../suite.ts';

interface Model {
  name: string;
  positions: Float32Array;
  indices: Uint32Array;
  jaw: StraightenJaw;
}

let wasmBytes: ArrayBuffer | undefined;
async function freshKernels(): Promise<KernelExports> {
  if (!wasmBytes) {
    const b = readFileSync(WASM_PATH);
    wasmBytes = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }
  return instantiateKernels(wasmBytes);
}

async function models(ctx: BenchContext): Promise<Model[]> {
  const out: Model[] = [];
  for (const spec of ctx.inputs) {
    if (spec.format !== 'binary') continue;
    const k = await freshKernels();
    const r = await parseStl(k, spec.load());
    if (!r.ok) throw new Error(`${spec.name}: ${r.error.code}`);
    out.push({ name: spec.name, positions: r.mesh.positions, indices: r.mesh.indices, jaw: spec.name.includes('upper') ? 'upper' : 'lower' });
  }
  const detail = ctx.quick ? 1.5 : 4.6;
  const t0 = performance.now();
  const jaw = jawMesh({ detail });
  const triangles = jaw.indices.length / 3;
  ctx.log(`shape: generated jaw of ${triangles.toLocaleString('en-US')} triangles in ${(performance.now() - t0).toFixed(0)} ms`);
  out.push({ name: `jaw ${(triangles / 1e6).toFixed(2)}M (generated)`, positions: jaw.positions, indices: jaw.indices, jaw: 'lower' });
  return out;
}

/** CPU time of this process since `start` (the machine may be shared: wall time then overstates). */
function cpuMs(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

async function rowsFor(ctx: BenchContext, model: Model): Promise<BenchRow[]> {
  const k = await freshKernels();
  const mesh: MeshRef = meshFromArrays(k, model.positions, model.indices);
  const triangles = mesh.triangleCount;
  await settle();

  // straighten: warm-up, then timed runs on the same mesh.
  const first = await straighten(mesh, { jaw: model.jaw, sliceMs: 1e9 });
  const st: number[] = [];
  const stCpu: number[] = [];
  for (let r = 0; r < ctx.runs; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await straighten(mesh, { jaw: model.jaw, sliceMs: 1e9 });
    st.push(performance.now() - t0);
    stCpu.push(cpuMs(c0));
  }

  // decimate to 10 %: each run from the same input, its memory released afterwards.
  const target = Math.round(triangles / 10);
  const dt: number[] = [];
  const dtCpu: number[] = [];
  let outTriangles = 0;
  const decimateRuns = triangles > 500_000 ? Math.min(ctx.runs, 3) : ctx.runs;
  for (let r = 0; r < decimateRuns + 1; r++) {
    const mark = k.arenaMark() >>> 0;
    await settle();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await simplify(mesh, { targetTriangles: target, sliceMs: 1e9 });
    const ms = performance.now() - t0;
    const cpu = cpuMs(c0);
    outTriangles = res.triangleCount;
    k.arenaRelease(mark);
    if (r > 0) {
      // the first run warms up
      dt.push(ms);
      dtCpu.push(cpu);
    }
  }
  ctx.log(`shape: ${model.name} done`);
  return [
    {
      name: 'straighten/ours',
      input: model.name,
      ours_ms: median(st),
      peer: '',
      peer_ms: NaN,
      ratio: NaN,
      note: `${triangles.toLocaleString('en-US')} triangles, jaw '${model.jaw}': method ${first.method}, quality ${first.quality.toFixed(2)}; CPU ${median(stCpu).toFixed(0)} ms`,
    },
    {
      name: 'decimate/ours',
      input: model.name,
      ours_ms: median(dt),
      peer: '',
      peer_ms: NaN,
      ratio: NaN,
      note: `${triangles.toLocaleString('en-US')} → ${outTriangles.toLocaleString('en-US')} triangles, ${dt.length} runs; CPU ${median(dtCpu).toFixed(0)} ms`,
    },
  ];
}

export const shapeSuite: BenchSuite = {
  name: 'shape',
  async run(ctx) {
    const rows: BenchRow[] = [];
    for (const m of await models(ctx)) rows.push(...(await rowsFor(ctx, m)));
    return rows;
  },
};

export default shapeSuite;
