// npm run bite -- --upper U.stl --lower L.stl --bite B.stl [--bite B2.stl] [--out result.json] [--resolve]
//
// Registers the upper and lower jaw models to a bite scan (several bite files
// are one scan) with the kernel's STL entry (workers/kernels/bite.ts,
// registerBiteStl: the server's job thread runs the same), in this process on
// one core. Writes the BiteResult (common/bite.ts) as JSON to --out, or to
// stdout: upper and lower are 4x4 column-major matrices mapping each file's
// coordinates into the bite scan's frame. --resolve applies the penetration
// resolution to `lower` (by default it is reported in lowerResolved/resolveBy).
// A summary goes to stderr. Lives beside device-sim.ts: a Node tool of the
// test world (tools/ is not part of the fixed layout).
//
// Exit codes: 0 registered; 4 not registered (the result says why: code, error;
// result.json is still written); 2 usage; 3 a file is missing or unreadable;
// 1 kernels.wasm missing or an internal error.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { compileKernels } from '../workers/kernels/abi.ts';
import { registerBiteStl } from '../workers/kernels/bite.ts';
import { WASM_PATH } from './kernels/kernels.ts';
import { eachArg, fail, readInput } from './cli-args.ts';

const USAGE = 'usage: npm run bite -- --upper U.stl --lower L.stl --bite B.stl [--bite B2.stl ...] [--out result.json] [--resolve]';

const argv = process.argv.slice(2);
const opts: { upper?: string; lower?: string; bites: string[]; out?: string; resolve: boolean } = { bites: [], resolve: false };
eachArg(argv, USAGE, (a, value) => {
  if (a === '--upper') opts.upper = value('a file name');
  else if (a === '--lower') opts.lower = value('a file name');
  else if (a === '--bite') opts.bites.push(value('a file name'));
  else if (a === '--out') opts.out = value('a file name');
  else if (a === '--resolve') opts.resolve = true;
  else if (a === '--help' || a === '-h') fail(0, USAGE);
  else fail(2, `unknown argument ${a}\n${USAGE}`);
});
if (!opts.upper || !opts.lower || opts.bites.length === 0) fail(2, `--upper, --lower and at least one --bite are required\n${USAGE}`);

const upper = readInput('upper jaw', opts.upper);
const lower = readInput('lower jaw', opts.lower);
const bites = opts.bites.map((b, i) => readInput(`bite scan ${i + 1}`, b));
if (!existsSync(WASM_PATH)) fail(1, `${WASM_PATH} is missing: run \`npm run build:wasm\` first`);

try {
  const module = await compileKernels(readFileSync(WASM_PATH));
  const t0 = performance.now();
  const result = await registerBiteStl(module, { upper, lower, bites }, { resolvePenetration: opts.resolve, sliceMs: 1e9, yieldToEventLoop: () => Promise.resolve() });
  const totalMs = performance.now() - t0;
  const json = `${JSON.stringify(result, null, 2)}\n`;
  if (opts.out) writeFileSync(opts.out, json);
  else process.stdout.write(json);
  if (result.code) {
    console.error(`not registered: ${result.code}: ${result.error}`);
    process.exit(4);
  }
  console.error(
    `registered in ${totalMs.toFixed(0)} ms (parse ${result.timings?.parseMs.toFixed(0)} ms, registration ${result.timings?.registerMs.toFixed(0)} ms): ` +
      `RMS ${result.rms.toFixed(3)} mm, overlap ${(result.overlap * 100).toFixed(1)} %, penetration ${result.penetration.toFixed(3)} mm` +
      (result.resolveBy ? (opts.resolve ? `, resolved by moving the lower ${result.resolved?.toFixed(3)} mm` : ` (resolving it would move the lower ${result.resolveBy.toFixed(3)} mm: --resolve)`) : '') +
      (opts.out ? `; written to ${opts.out}` : ''),
  );
} catch (e) {
  fail(1, `bite registration failed: ${e instanceof Error ? e.message : String(e)}`);
}
