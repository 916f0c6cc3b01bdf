// npm run bench -- [--runs=N] [--quick]   (--quick: the 100k spheres and the real files, 3 runs)
//
// STL bytes to a Babylon.js mesh, side by side in one process:
//   ours          parseStl (workers/kernels/stl.ts) over build/kernels.wasm, the
//                 worker's code path, then a Mesh built as EditorEngine does;
//   babylon       @babylonjs/loaders' STLFileLoader (triangle soup, no weld);
//   babylon+weld  the same, then a JS weld and VertexData.ComputeNormals, so
//                 the output matches ours.
// Each contender gets warm-up runs, then up to N timed runs (interleaved, a
// full GC before each, outside the clock). Figures go to stdout as a Markdown
// table; BENCHMARKS.md explains them. No assertions: this is a measurement.

import { existsSync } from 'node:fs';
import { availableParallelism, cpus, platform, release, totalmem } from 'node:os';
import { LoadAssetContainerAsync } from '@babylonjs/core/Loading/sceneLoader.js';
import { loadKernels, WASM_PATH } from '../kernels/kernels.ts';
import {
  ArchwrightContender,
  babylonLoader,
  babylonWelded,
  benchScene,
  type Contender,
  type Input,
  type Output,
} from './contenders.ts';
import { benchInputs, fixturesDir, type InputSpec } from './inputs.ts';
import { collectGarbage, formatInt, formatMs, liveBytes, median, MiB, min, settle, table, type Align } from './measure.ts';

// ---------------------------------------------------------------- options

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const runsArg = argv.find((a) => a.startsWith('--runs='));
const RUNS = runsArg ? Math.max(1, Number.parseInt(runsArg.slice('--runs='.length), 10) || 7) : quick ? 3 : 7;
/** Fewer timed runs for a contender once it has spent this long on one input (at least MIN_RUNS). */
const BUDGET_MS = 8000;
const MIN_RUNS = Math.min(3, RUNS);
/** A second warm-up run only when the first was quicker than this. */
const SECOND_WARMUP_UNDER_MS = 1000;

if (argv.some((a) => a !== '--quick' && !a.startsWith('--runs='))) {
  console.error('usage: npm run bench -- [--runs=N] [--quick]');
  process.exit(2);
}

if (!existsSync(WASM_PATH)) {
  console.error(`${WASM_PATH} is missing: run \`npm run build:wasm\` first (or \`npm run build:wasm && npm run bench\`).`);
  process.exit(1);
}

// ---------------------------------------------------------------- setup

const started = performance.now();
const ours = new ArchwrightContender(await loadKernels());
const contenders: { key: string; contender: Contender }[] = [
  { key: 'ours', contender: ours },
  { key: 'babylon', contender: babylonLoader },
  { key: 'babylon+weld', contender: babylonWelded },
];

const cpuList = cpus();
console.log('# STL parsing bench: STL bytes to a Babylon.js mesh\n');
console.log(`- machine: ${availableParallelism()} cores (${cpuList[0]?.model.trim() ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${platform()} ${release()}`);
console.log(`- Node ${process.version} (V8 ${process.versions.v8}), @babylonjs/core and @babylonjs/loaders ${await babylonVersion()}`);
console.log(`- kernel: ${WASM_PATH}`);
console.log(`- method: warm-up (1 or 2 runs), then up to ${RUNS} timed runs per contender, interleaved, full GC before each;`);
console.log(`  fewer (at least ${MIN_RUNS}) when a contender has spent ${BUDGET_MS / 1000} s on an input`);
console.log('- contenders (each run ends with a Babylon Mesh in a NullEngine scene):');
for (const { key, contender } of contenders) console.log(`  - ${key}: ${contender.name}; ${contender.produces}`);
console.log('');

async function babylonVersion(): Promise<string> {
  const { AbstractEngine } = await import('@babylonjs/core/Engines/abstractEngine.js');
  return AbstractEngine.Version;
}

// ---------------------------------------------------------------- measuring

interface Measured {
  key: string;
  times: number[];
  vertices: number;
  triangles: number;
  /** Growth of liveBytes() over one run from a collected heap, bytes. */
  memDelta: number;
}

async function timedRun(contender: Contender, input: Input): Promise<{ ms: number; out: Output; memDelta: number }> {
  await settle();
  const before = liveBytes();
  const t0 = performance.now();
  const out = await contender.run(input);
  const ms = performance.now() - t0;
  const memDelta = liveBytes() - before;
  out.release();
  return { ms, out, memDelta };
}

async function benchInput(spec: InputSpec): Promise<Measured[]> {
  const t0 = performance.now();
  const bytes = spec.load();
  const input: Input = { bytes, arrayBuffer: bytes.buffer };
  console.log(
    `## ${spec.name}: ${formatInt(spec.triangles)} triangles, ${(bytes.byteLength / MiB).toFixed(1)} MiB, ` +
      `${spec.name.startsWith('sphere') ? 'generated' : 'read'} in ${formatMs(performance.now() - t0)} ms`,
  );

  const results = contenders.map(({ key }): Measured => ({ key, times: [], vertices: 0, triangles: 0, memDelta: 0 }));
  const spent = contenders.map(() => 0);
  const split = { copyIn: [] as number[], kernel: [] as number[], mesh: [] as number[] };

  // Warm-up.
  for (const { contender } of contenders) {
    const first = await timedRun(contender, input);
    if (first.ms < SECOND_WARMUP_UNDER_MS) await timedRun(contender, input);
  }

  // Timed runs, interleaved so drift (thermal, the other core's load) hits everyone alike.
  for (let round = 0; round < RUNS; round++) {
    for (let c = 0; c < contenders.length; c++) {
      const r = results[c]!;
      if (r.times.length >= MIN_RUNS && spent[c]! >= BUDGET_MS) continue;
      const { ms, out, memDelta } = await timedRun(contenders[c]!.contender, input);
      r.times.push(ms);
      spent[c]! += ms;
      r.vertices = out.vertices;
      r.triangles = out.triangles;
      if (c === 0) {
        split.copyIn.push(ours.last.copyIn);
        split.kernel.push(ours.last.kernel);
        split.mesh.push(ours.last.mesh);
      }
      // Babylon allocates everything anew on each run: any run shows its growth.
      if (c > 0) r.memDelta = Math.max(r.memDelta, memDelta);
    }
  }

  // Ours reuses its grown wasm memory from run to run; measure a fresh kernel
  // instance (as in a fresh worker), whose memory starts small and grows.
  const reused = ours.kernels;
  ours.kernels = await loadKernels();
  const fresh = await timedRun(ours, input);
  results[0]!.memDelta = fresh.memDelta;
  const wasmMiB = ours.kernels.memory.buffer.byteLength / MiB;
  const arenaMiB = (ours.kernels.arenaUsed() >>> 0) / MiB;
  ours.kernels = reused;
  collectGarbage();

  for (const r of results) {
    if (r.triangles !== spec.triangles) console.log(`  ! ${r.key} produced ${r.triangles} triangles, expected ${spec.triangles}`);
  }
  const [o, , w] = results;
  const sameWeld = o && w && o.vertices === w.vertices;
  console.log(
    `  ours: ${formatInt(o?.vertices ?? 0)} vertices; wasm memory of a fresh instance after the job ${wasmMiB.toFixed(0)} MiB ` +
      `(arena ${arenaMiB.toFixed(0)} MiB); babylon+weld ${sameWeld ? 'welds to the same vertex count' : `welds to ${formatInt(w?.vertices ?? 0)} vertices: DIFFERENT`}`,
  );
  console.log(
    `  ours, medians: copy into wasm ${formatMs(median(split.copyIn))} ms, kernel + copy out ${formatMs(median(split.kernel))} ms, ` +
      `Babylon Mesh from the arrays ${formatMs(median(split.mesh))} ms`,
  );
  for (const r of results) {
    console.log(`  ${r.key.padEnd(12)} median ${formatMs(median(r.times)).padStart(6)} ms, min ${formatMs(min(r.times)).padStart(6)} ms (${r.times.length} runs)`);
  }
  console.log('');
  return results;
}

// ---------------------------------------------------------------- SceneLoader check

/**
 * The timed peer calls STLFileLoader.importMesh on an ArrayBuffer directly.
 * Show once that SceneLoader's public entry point runs the same plugin and
 * gets the same mesh. (It refuses an ArrayBufferView for this plugin, which
 * has no loadFile, so the bytes go in as a base64 data: URL; not timed.)
 */
async function sceneLoaderCheck(spec: InputSpec, expectedVertices: number): Promise<void> {
  const bytes = spec.load();
  const url = `data:application/octet-stream;base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
  const container = await LoadAssetContainerAsync(url, benchScene(), { pluginExtension: '.stl' });
  const vertices = container.meshes[0]?.getTotalVertices() ?? 0;
  container.dispose();
  console.log(
    `SceneLoader check (${spec.name}): LoadAssetContainerAsync(data: URL, { pluginExtension: '.stl' }) gives ` +
      `${formatInt(vertices)} vertices, ${vertices === expectedVertices ? 'the same as' : 'NOT the same as'} STLFileLoader.importMesh.\n`,
  );
}

// ---------------------------------------------------------------- main

const { inputs, skipped } = benchInputs(quick);
console.log(`Real files from ${fixturesDir}\n`);
for (const s of skipped) console.log(`SKIPPED ${s.name}: ${s.reason}\n`);

const all: { spec: InputSpec; results: Measured[] }[] = [];
for (const spec of inputs) {
  const results = await benchInput(spec);
  all.push({ spec, results });
  if (all.length === 1) await sceneLoaderCheck(spec, results[1]!.vertices);
}

const header = ['input', 'contender', 'vertices out', 'median ms', 'min ms', 'runs', 'M tri/s', 'peer/ours', 'mem Δ MiB (approx.)'];
const align: Align[] = ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'];
const rows: string[][] = [];
for (const { spec, results } of all) {
  const oursMedian = median(results[0]!.times);
  for (const r of results) {
    const med = median(r.times);
    rows.push([
      r.key === 'ours' ? `${spec.name} (${formatInt(spec.triangles)} tri, ${(spec.format === 'ascii' ? 'text' : 'binary')})` : '',
      r.key,
      formatInt(r.vertices),
      formatMs(med),
      formatMs(min(r.times)),
      String(r.times.length),
      (spec.triangles / med / 1000).toFixed(2),
      r.key === 'ours' ? '1' : `${(med / oursMedian).toFixed(2)}×`,
      (r.memDelta / MiB).toFixed(0),
    ]);
  }
}
console.log('## Results\n');
console.log(table(header, rows, align));
console.log(
  '\npeer/ours = peer median / ours median (above 1: ours is faster). mem Δ: growth of the V8 heap in use plus external ' +
    'memory (ArrayBuffers, wasm memory) over one run, from a collected heap, with the result still alive; ours on a fresh ' +
    'kernel instance whose wasm memory grows from its initial size (a long-lived worker keeps it for the next file). ' +
    'Garbage already collected during the run is not counted: approximate, closer to a lower bound of the peak.',
);
console.log(
  `\nTotal ${((performance.now() - started) / 1000).toFixed(0)} s; peak RSS of the bench process ` +
    `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (input generation included).`,
);
