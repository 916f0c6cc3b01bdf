// npm run bench -- [--quick] [--runs=N] [--json] [--suite=name]
//
// Runs every suite in test/bench/suites/*.ts (each exports a BenchSuite, see
// suite.ts) on the same inputs (inputs.ts: a generated 1M-triangle sphere,
// 100k with --quick, and upper.stl from the shared fixtures when present),
// ours and the peer side by side in this process. Prints each suite's own
// notes and a table of its rows; with --json, one JSON object per row on
// stdout ({"name","input","ours_ms","peer","peer_ms","ratio"}) and all human
// text on stderr. No assertions: this is a measurement (BENCHMARKS.md).

import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism, cpus, platform, release, totalmem } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WASM_PATH } from '../kernels/kernels.ts';
import { benchInputs, fixturesDir, type InputSpec } from './inputs.ts';
import { formatMs, table, type Align } from './measure.ts';
import type { BenchContext, BenchRow, BenchSuite } from './suite.ts';

// ---------------------------------------------------------------- options

const USAGE = 'usage: npm run bench -- [--quick] [--runs=N] [--json] [--suite=name]';
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const json = argv.includes('--json');
const runsArg = argv.find((a) => a.startsWith('--runs='));
const suiteArg = argv.find((a) => a.startsWith('--suite='))?.slice('--suite='.length);
const runs = runsArg ? Math.max(1, Number.parseInt(runsArg.slice('--runs='.length), 10) || 7) : quick ? 3 : 7;

if (argv.some((a) => a !== '--quick' && a !== '--json' && !a.startsWith('--runs=') && !a.startsWith('--suite='))) {
  console.error(USAGE);
  process.exit(2);
}

// With --json, stdout carries only JSON lines: everything human goes to stderr,
// including what suites print with console.log.
const log = (line: string): void => {
  if (json) process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
};
if (json) console.log = (...args: unknown[]) => console.error(...args);

if (!existsSync(WASM_PATH)) {
  console.error(`${WASM_PATH} is missing: run \`npm run build:wasm\` first (or \`npm run build:wasm && npm run bench\`).`);
  process.exit(1);
}

// ---------------------------------------------------------------- suites

function isSuite(value: unknown): value is BenchSuite {
  return typeof value === 'object' && value !== null && typeof (value as BenchSuite).name === 'string' && typeof (value as BenchSuite).run === 'function';
}

/** Every BenchSuite exported by a file in suites/, in file-name order. */
async function loadSuites(): Promise<BenchSuite[]> {
  const dir = fileURLToPath(new URL('./suites/', import.meta.url));
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).sort() : [];
  const suites: BenchSuite[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(`${dir}${file}`).href)) as Record<string, unknown>;
    const found = Object.values(module).filter(isSuite);
    if (found.length === 0) log(`(suites/${file} exports no BenchSuite; skipped)`);
    for (const s of found) if (!suites.includes(s)) suites.push(s);
  }
  return suites;
}

// ---------------------------------------------------------------- main

const started = performance.now();
const all = await loadSuites();
const suites = suiteArg ? all.filter((s) => s.name === suiteArg) : all;
if (suites.length === 0) {
  console.error(suiteArg ? `no suite named "${suiteArg}"; there are: ${all.map((s) => s.name).join(', ') || 'none'}` : 'no suites in test/bench/suites/');
  process.exit(2);
}

const { inputs, skipped } = benchInputs(quick);
// Generate or read each input once; suites call load() as often as they like.
const cached: InputSpec[] = inputs.map((spec) => {
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  return {
    ...spec,
    load: () => {
      // A suite that transferred the buffer detached it: load afresh.
      if (!bytes || bytes.byteLength === 0) bytes = spec.load();
      return bytes;
    },
  };
});

const cpuList = cpus();
log('# Archwright bench\n');
log(`- machine: ${availableParallelism()} cores (${cpuList[0]?.model.trim() ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${platform()} ${release()}`);
log(`- Node ${process.version} (V8 ${process.versions.v8}); ${runs} timed runs${quick ? ' (--quick)' : ''}`);
log(`- suites: ${suites.map((s) => s.name).join(', ')}`);
log(`- inputs: ${cached.map((i) => i.name).join('; ')} (real files from ${fixturesDir})`);
for (const s of skipped) log(`- SKIPPED input ${s.name}: ${s.reason}`);
log('');

const ctx: BenchContext = { quick, runs, inputs: cached, log };
let failed = 0;
const summary: BenchRow[] = [];

for (const suite of suites) {
  const t0 = performance.now();
  log(`# suite ${suite.name}\n`);
  let rows: BenchRow[];
  try {
    rows = await suite.run(ctx);
  } catch (e) {
    failed++;
    log(`suite ${suite.name} FAILED: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    continue;
  }
  for (const r of rows) {
    summary.push(r);
    if (json) {
      const { name, input, ours_ms, peer, peer_ms, ratio } = r;
      const num = (n: number): number | null => (Number.isFinite(n) ? Number(n.toPrecision(6)) : null);
      process.stdout.write(`${JSON.stringify({ name, input, ours_ms: num(ours_ms), peer, peer_ms: num(peer_ms), ratio: num(ratio) })}\n`);
    }
  }
  log(`suite ${suite.name}: ${rows.length} rows in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
}

// ---------------------------------------------------------------- summary

const header = ['name', 'input', 'ours ms', 'peer', 'peer ms', 'peer/ours', 'note'];
const align: Align[] = ['left', 'left', 'right', 'left', 'right', 'right', 'left'];
const cells = summary.map((r) => [
  r.name,
  r.input,
  formatMs(r.ours_ms),
  r.peer,
  Number.isFinite(r.peer_ms) ? formatMs(r.peer_ms) : '',
  Number.isFinite(r.ratio) ? `${r.ratio.toFixed(2)}×` : '',
  r.note ?? '',
]);
log('# Summary\n');
log(table(header, cells, align));
log(
  `\npeer/ours = peer ms / ours ms (above 1: ours is faster). Total ${((performance.now() - started) / 1000).toFixed(0)} s; ` +
    `peak RSS of the bench process ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB.`,
);
if (failed > 0) {
  log(`${failed} suite(s) failed.`);
  process.exitCode = 1;
}
