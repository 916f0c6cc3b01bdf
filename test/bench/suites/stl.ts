// STL parsing suite: STL bytes to an indexed mesh with normals, ours against
// three.js, Babylon.js and a plain copy of the bytes, plus the geometry
// worker's round-trip overhead. BENCHMARKS.md explains the rows.
//
// Rows (once per input):
//   stl-parse/three         ours: parseStl (bytes to welded arrays + normals)
//                           peer: three STLLoader.parse + mergeVertices + computeVertexNormals
//   stl-parse/babylon       ours: parseStl + a Babylon Mesh (as EditorEngine builds it)
//                           peer: Babylon STLFileLoader.importMesh (a soup Mesh, no weld)
//                           Both start from the file's bytes in an ArrayBuffer: ours pays for
//                           copying them into wasm memory (in the app the worker does the same
//                           copy with each chunk of the File it reads; wasm memory cannot be a
//                           read's target), Babylon's loader reads them in place.
//   stl-parse/babylon+weld  ours as above; peer: the same loader + JS weld + ComputeNormals
//   stl-parse/copy          ours: parseStl; peer: Uint8Array.slice of the bytes (the floor)
//   stl-parse/babylon-main-thread  ours: the main thread's share of ours (building the Babylon
//                           Mesh; the parse runs in the worker); peer: Babylon's loader, which
//                           runs on the main thread
//   worker/open-stl         ours: openStl of a Blob through a real worker thread (read in the
//                           worker, arrays transferred out, mesh kept by handle); peer: parseStl
//                           of the bytes in this thread
// and once: worker/roundtrip (no peer), a trivial Comlink call through a worker thread.

import { LoadAssetContainerAsync } from '@babylonjs/core/Loading/sceneLoader.js';
import { loadKernels, WASM_PATH } from '../../kernels/kernels.ts';
import { startGeometryWorker } from '../../kernels/stl-worker-thread.ts';
import {
  ArchwrightArrays,
  ArchwrightContender,
  babylonLoader,
  babylonWelded,
  benchScene,
  plainCopy,
  threeWelded,
  type Contender,
  type Input,
  type Output,
} from '../contenders.ts';
import { sphereInput, type InputSpec } from '../inputs.ts';
import { collectGarbage, formatInt, formatMs, liveBytes, median, MiB, min, settle, table, type Align } from '../measure.ts';
import type { BenchContext, BenchRow, BenchSuite } from '../suite.ts';

/** Fewer timed runs for a contender once it has spent this long on one input (at least MIN_RUNS). */
const BUDGET_MS = 8000;
/** A second warm-up run only when the first was quicker than this. */
const SECOND_WARMUP_UNDER_MS = 1000;

type Key = 'ours' | 'ours-arrays' | 'babylon' | 'babylon+weld' | 'three' | 'copy';

interface Measured {
  key: Key;
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

async function babylonVersion(): Promise<string> {
  const { AbstractEngine } = await import('@babylonjs/core/Engines/abstractEngine.js');
  return AbstractEngine.Version;
}

/**
 * The timed Babylon peer calls STLFileLoader.importMesh on an ArrayBuffer.
 * Show once that SceneLoader's public entry point runs the same plugin and
 * gets the same mesh (through a base64 data: URL, since it refuses an
 * ArrayBufferView for this plugin; not timed).
 */
async function sceneLoaderCheck(ctx: BenchContext, spec: InputSpec, expectedVertices: number): Promise<void> {
  const bytes = spec.load();
  const url = `data:application/octet-stream;base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
  const container = await LoadAssetContainerAsync(url, benchScene(), { pluginExtension: '.stl' });
  const vertices = container.meshes[0]?.getTotalVertices() ?? 0;
  container.dispose();
  ctx.log(
    `SceneLoader check (${spec.name}): LoadAssetContainerAsync(data: URL, { pluginExtension: '.stl' }) gives ` +
      `${formatInt(vertices)} vertices, ${vertices === expectedVertices ? 'the same as' : 'NOT the same as'} STLFileLoader.importMesh.\n`,
  );
}

async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const runs = ctx.runs;
  const minRuns = Math.min(3, runs);
  const ours = new ArchwrightContender(await loadKernels());
  const arrays = new ArchwrightArrays(ours.kernels);
  const contenders: { key: Key; contender: Contender }[] = [
    { key: 'ours', contender: ours },
    { key: 'ours-arrays', contender: arrays },
    { key: 'babylon', contender: babylonLoader },
    { key: 'babylon+weld', contender: babylonWelded },
    { key: 'three', contender: threeWelded },
    { key: 'copy', contender: plainCopy },
  ];

  ctx.log('## STL parsing: STL bytes to an indexed mesh with normals\n');
  ctx.log(`- @babylonjs/core and @babylonjs/loaders ${await babylonVersion()}; kernel: ${WASM_PATH}`);
  ctx.log(`- method: warm-up (1 or 2 runs), then up to ${runs} timed runs per contender, interleaved, full GC before each;`);
  ctx.log(`  fewer (at least ${minRuns}) when a contender has spent ${BUDGET_MS / 1000} s on an input`);
  ctx.log('- contenders:');
  for (const { key, contender } of contenders) ctx.log(`  - ${key}: ${contender.name}; ${contender.produces}`);
  ctx.log('');

  // The common inputs, plus a text file: ASCII is where parsers differ most.
  const specs: InputSpec[] = [...ctx.inputs, sphereInput(250, 201, false)];
  const all: { spec: InputSpec; results: Measured[] }[] = [];
  const rows: BenchRow[] = [];
  const worker = startGeometryWorker();
  try {
    for (const spec of specs) {
      const { results, meshMs } = await benchInput(ctx, spec, contenders, ours, runs, minRuns);
      all.push({ spec, results });
      if (all.length === 1) await sceneLoaderCheck(ctx, spec, results.find((r) => r.key === 'babylon')!.vertices);
      const med = (key: Key): number => median(results.find((r) => r.key === key)!.times);
      const row = (name: string, oursKey: Key, peerKey: Key, peer: string, note: string): BenchRow => ({
        name,
        input: spec.name,
        ours_ms: med(oursKey),
        peer,
        peer_ms: med(peerKey),
        ratio: med(peerKey) / med(oursKey),
        note,
      });
      rows.push(
        row('stl-parse/three', 'ours-arrays', 'three', threeWelded.name, 'goal ≥ 5'),
        row(
          'stl-parse/babylon',
          'ours',
          'babylon',
          babylonLoader.name,
          'goal ≥ 3; both from the bytes in an ArrayBuffer (ours copies them into wasm memory, as the worker does with each chunk of a File it reads) to a Babylon Mesh; the peer does not weld',
        ),
        row('stl-parse/babylon+weld', 'ours', 'babylon+weld', babylonWelded.name, 'same output as ours'),
        row('stl-parse/copy', 'ours-arrays', 'copy', plainCopy.name, 'the physical floor: ratio = share of ours that a bare copy takes'),
        {
          name: 'stl-parse/babylon-main-thread',
          input: spec.name,
          ours_ms: meshMs,
          peer: babylonLoader.name,
          peer_ms: med('babylon'),
          ratio: med('babylon') / meshMs,
          note: 'time the page is blocked: ours parses in the worker and only builds the Babylon Mesh on the main thread',
        },
      );
      rows.push(await workerOpenStl(ctx, worker.api, spec, ours.kernels, runs));
    }
    rows.push(await workerRoundTrip(ctx, worker.api));
  } finally {
    await worker.terminate();
  }

  printTable(ctx, all);
  return rows;
}

async function benchInput(
  ctx: BenchContext,
  spec: InputSpec,
  contenders: { key: Key; contender: Contender }[],
  ours: ArchwrightContender,
  runs: number,
  minRuns: number,
): Promise<{ results: Measured[]; meshMs: number }> {
  const t0 = performance.now();
  const bytes = spec.load();
  const input: Input = { bytes, arrayBuffer: bytes.buffer };
  ctx.log(
    `### ${spec.name}: ${formatInt(spec.triangles)} triangles, ${(bytes.byteLength / MiB).toFixed(1)} MiB, ` +
      `${spec.name.startsWith('sphere') ? 'generated' : 'read'} in ${formatMs(performance.now() - t0)} ms`,
  );

  const results = contenders.map(({ key }): Measured => ({ key, times: [], vertices: 0, triangles: 0, memDelta: 0 }));
  const spent = contenders.map(() => 0);
  const split = { copyIn: [] as number[], kernel: [] as number[], copyOut: [] as number[], mesh: [] as number[] };

  for (const { contender } of contenders) {
    const first = await timedRun(contender, input);
    if (first.ms < SECOND_WARMUP_UNDER_MS) await timedRun(contender, input);
  }

  // Timed runs, interleaved so drift (thermal, the other core's load) hits everyone alike.
  for (let round = 0; round < runs; round++) {
    for (let c = 0; c < contenders.length; c++) {
      const r = results[c]!;
      if (r.times.length >= minRuns && spent[c]! >= BUDGET_MS) continue;
      const { ms, out, memDelta } = await timedRun(contenders[c]!.contender, input);
      r.times.push(ms);
      spent[c]! += ms;
      r.vertices = out.vertices;
      r.triangles = out.triangles;
      if (r.key === 'ours') {
        split.copyIn.push(ours.last.copyIn);
        split.kernel.push(ours.last.kernel);
        split.copyOut.push(ours.last.copyOut);
        split.mesh.push(ours.last.mesh);
      }
      // The peers allocate everything anew on each run: any run shows their growth.
      if (!r.key.startsWith('ours')) r.memDelta = Math.max(r.memDelta, memDelta);
    }
  }

  // Ours reuses its grown wasm memory from run to run (as the worker's idle
  // parser does); also measure a fresh kernel instance, whose memory starts small.
  const reused = ours.kernels;
  ours.kernels = await loadKernels();
  const fresh = await timedRun(ours, input);
  results[0]!.memDelta = fresh.memDelta;
  const wasmMiB = ours.kernels.memory.buffer.byteLength / MiB;
  const arenaMiB = (ours.kernels.arenaUsed() >>> 0) / MiB;
  ours.kernels = reused;
  collectGarbage();

  for (const r of results) {
    if (r.key !== 'copy' && r.triangles !== spec.triangles) ctx.log(`  ! ${r.key} produced ${r.triangles} triangles, expected ${spec.triangles}`);
  }
  const get = (key: Key): Measured => results.find((r) => r.key === key)!;
  const o = get('ours');
  const sameWeld = o.vertices === get('babylon+weld').vertices;
  ctx.log(
    `  ours: ${formatInt(o.vertices)} vertices; wasm memory of a fresh instance after the job ${wasmMiB.toFixed(0)} MiB ` +
      `(arena ${arenaMiB.toFixed(0)} MiB), first parse in it ${formatMs(fresh.ms)} ms; babylon+weld ${sameWeld ? 'welds to the same vertex count' : `welds to ${formatInt(get('babylon+weld').vertices)} vertices: DIFFERENT`}; ` +
      `three merges to ${formatInt(get('three').vertices)} vertices`,
  );
  for (const [label, of] of [['medians', median], ['minimums', min]] as const) {
    const moving = of(split.copyIn) + of(split.copyOut) + of(split.mesh);
    const babylonMs = of(get('babylon').times);
    ctx.log(
      `  ours, ${label}: copy into wasm ${formatMs(of(split.copyIn))} ms, kernel ${formatMs(of(split.kernel))} ms, ` +
        `copy out ${formatMs(of(split.copyOut))} ms, Babylon Mesh from the arrays ${formatMs(of(split.mesh))} ms; ` +
        `without the kernel ${formatMs(moving)} ms, so a 3× goal against babylon's ${formatMs(babylonMs)} ms leaves the kernel ` +
        `${formatMs(babylonMs / 3 - moving)} ms (${formatMs(((babylonMs / 3 - moving) * 1e6) / spec.triangles)} ns per triangle)`,
    );
  }
  for (const r of results) {
    ctx.log(`  ${r.key.padEnd(12)} median ${formatMs(median(r.times)).padStart(6)} ms, min ${formatMs(min(r.times)).padStart(6)} ms (${r.times.length} runs)`);
  }
  ctx.log('');
  return { results, meshMs: median(split.mesh) };
}

type Api = ReturnType<typeof startGeometryWorker>['api'];

/** openStl through a real worker thread against parseStl in this thread, same bytes. */
async function workerOpenStl(ctx: BenchContext, api: Api, spec: InputSpec, kernels: ArchwrightContender['kernels'], runs: number): Promise<BenchRow> {
  const bytes = spec.load();
  const arrays = new ArchwrightArrays(kernels);
  const input: Input = { bytes, arrayBuffer: bytes.buffer };
  // A Blob, as the app passes a File: posting it does not copy the bytes; the worker reads them into wasm memory.
  const blob = new Blob([bytes]);
  const viaWorker = async (): Promise<number> => {
    await settle();
    const t0 = performance.now();
    const r = await api.openStl(blob, {}, 0);
    const ms = performance.now() - t0;
    if (!r.ok) throw new Error(`openStl failed: ${r.error.code} ${r.error.detail}`);
    await api.release(r.value.handle);
    return ms;
  };
  await viaWorker();
  await timedRun(arrays, input);
  const worker: number[] = [];
  const local: number[] = [];
  for (let i = 0; i < runs; i++) {
    worker.push(await viaWorker());
    local.push((await timedRun(arrays, input)).ms);
  }
  ctx.log(`  worker/open-stl (${spec.name}): through the worker ${formatMs(median(worker))} ms, in-process parseStl ${formatMs(median(local))} ms\n`);
  return {
    name: 'worker/open-stl',
    input: spec.name,
    ours_ms: median(worker),
    peer: 'parseStl in the same thread (no worker, no handle)',
    peer_ms: median(local),
    ratio: median(local) / median(worker),
    note: 'the thread hop: a Blob read in the worker, arrays transferred out, the mesh copied into its own instance',
  };
}

/**
 * Round trip of a trivial call (api.ping) through Comlink and a real worker
 * thread (node:worker_threads standing in for a browser Web Worker), in
 * batches of sequential calls; the median batch's mean per call.
 */
async function workerRoundTrip(ctx: BenchContext, api: Api): Promise<BenchRow> {
  const BATCH = 500;
  for (let i = 0; i < BATCH; i++) await api.ping(i);
  const perCall: number[] = [];
  for (let b = 0; b < 11; b++) {
    const t0 = performance.now();
    for (let i = 0; i < BATCH; i++) await api.ping(i);
    perCall.push((performance.now() - t0) / BATCH);
  }
  ctx.log(`worker/roundtrip: ${(median(perCall) * 1000).toFixed(0)} µs per Comlink call through a Node worker thread (median of 11 batches of ${BATCH})\n`);
  return {
    name: 'worker/roundtrip',
    input: '-',
    ours_ms: median(perCall),
    peer: '',
    peer_ms: Number.NaN,
    ratio: Number.NaN,
    note: 'Comlink call and reply through node:worker_threads; a browser Web Worker is of the same order',
  };
}

function printTable(ctx: BenchContext, all: { spec: InputSpec; results: Measured[] }[]): void {
  const header = ['input', 'contender', 'vertices out', 'median ms', 'min ms', 'runs', 'M tri/s', 'peer/ours', 'mem Δ MiB (approx.)'];
  const align: Align[] = ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'];
  const rows: string[][] = [];
  for (const { spec, results } of all) {
    const medianOf = (key: Key): number => median(results.find((r) => r.key === key)!.times);
    for (const r of results) {
      const med = median(r.times);
      // Peers that build a Babylon mesh compare with ours + Mesh; the others with ours-arrays.
      const base = r.key === 'babylon' || r.key === 'babylon+weld' ? medianOf('ours') : medianOf('ours-arrays');
      rows.push([
        r.key === 'ours' ? `${spec.name} (${formatInt(spec.triangles)} tri, ${spec.format === 'ascii' ? 'text' : 'binary'})` : '',
        r.key,
        r.key === 'copy' ? '' : formatInt(r.vertices),
        formatMs(med),
        formatMs(min(r.times)),
        String(r.times.length),
        (spec.triangles / med / 1000).toFixed(2),
        r.key.startsWith('ours') ? '1' : `${(med / base).toFixed(2)}×`,
        (r.memDelta / MiB).toFixed(0),
      ]);
    }
  }
  ctx.log('### STL parsing, all contenders\n');
  ctx.log(table(header, rows, align));
  ctx.log(
    '\npeer/ours = peer median / ours median (above 1: ours is faster); babylon rows against ours (with a Babylon Mesh), ' +
      'three and copy against ours-arrays. mem Δ: growth of the V8 heap in use plus external memory (ArrayBuffers, wasm ' +
      'memory) over one run, from a collected heap, with the result still alive; ours on a fresh kernel instance. ' +
      'Approximate, closer to a lower bound of the peak.\n',
  );
}

export const stlSuite: BenchSuite = { name: 'stl', run };
