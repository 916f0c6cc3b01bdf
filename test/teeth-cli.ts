// npm run teeth -- MODEL.stl --out labels.bin [--json teeth.json] [--jaw upper|lower]
//
// Segments the teeth of one jaw model with the kernel (workers/kernels/teeth-stl.ts: the same
// parse, weld and segmentation as the kernel tests and the server's `teeth` job), in this
// process on one core. Writes one byte per welded vertex to --out (Universal number 1-32, 0
// gum; the order of the fixtures' *.labels.bin) and, with --json, the teeth (every field of
// each tooth's record, landmarks included), the arch and the timings. The jaw is taken from
// --jaw, else from the file name (upper/maxilla/oberkiefer, lower/mandible/unterkiefer). A
// summary goes to stderr. Lives beside bite-cli.ts.
//
// Exit codes: 0 done; 2 usage; 3 a file is missing, unreadable or not an STL, or an output
// cannot be written; 1 kernels.wasm
// missing or an internal error.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { compileKernels } from '../workers/kernels/abi.ts';
import { segmentTeethStl } from '../workers/kernels/teeth-stl.ts';
import { WASM_PATH } from './kernels/kernels.ts';
import { eachArg, fail, readInput } from './cli-args.ts';

const USAGE = 'usage: npm run teeth -- MODEL.stl --out labels.bin [--json teeth.json] [--jaw upper|lower]';

/** The jaw a file name says, or null (both or neither). */
function jawFromName(file: string): 'upper' | 'lower' | null {
  const name = basename(file).toLowerCase();
  const upper = /upper|maxill|oberkiefer/.test(name);
  const lower = /lower|mandib|unterkiefer/.test(name);
  return upper === lower ? null : upper ? 'upper' : 'lower';
}

const argv = process.argv.slice(2);
const opts: { model?: string; out?: string; json?: string; jaw?: string } = {};
eachArg(argv, USAGE, (a, value) => {
  if (a === '--out') opts.out = value('a file name');
  else if (a === '--json') opts.json = value('a file name');
  else if (a === '--jaw') opts.jaw = value('upper or lower');
  else if (a === '--help' || a === '-h') fail(0, USAGE);
  else if (a.startsWith('-')) fail(2, `unknown argument ${a}\n${USAGE}`);
  else if (opts.model) fail(2, `one model at a time (${opts.model}, ${a})\n${USAGE}`);
  else opts.model = a;
});
if (!opts.model) fail(2, `the model's STL file is required\n${USAGE}`);
if (!opts.out) fail(2, `--out is required (the labels file)\n${USAGE}`);
if (opts.jaw !== undefined && opts.jaw !== 'upper' && opts.jaw !== 'lower') fail(2, `--jaw must be upper or lower, not ${opts.jaw}\n${USAGE}`);
const jaw = (opts.jaw as 'upper' | 'lower' | undefined) ?? jawFromName(opts.model);
if (!jaw) fail(2, `cannot tell the jaw from the file name ${basename(opts.model)}: give --jaw upper or --jaw lower\n${USAGE}`);

const bytes = readInput('model', opts.model);
if (!existsSync(WASM_PATH)) fail(1, `${WASM_PATH} is missing: run \`npm run build:wasm\` first`);

try {
  const module = await compileKernels(readFileSync(WASM_PATH));
  const t0 = performance.now();
  let done;
  try {
    done = await segmentTeethStl(module, bytes, jaw);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (message.startsWith('BAD_INPUT')) fail(3, `model: ${opts.model}: ${message.replace(/^BAD_INPUT: /, '')}`);
    throw e;
  }
  const totalMs = performance.now() - t0;
  const { result, timings } = done;
  const write = (path: string, data: string | Uint8Array) => {
    try {
      writeFileSync(path, data);
    } catch (e) {
      fail(3, `cannot write ${path}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  write(opts.out, result.labels);
  if (opts.json) {
    const json = {
      jaw,
      model: basename(opts.model),
      vertexCount: done.vertexCount,
      teeth: result.teeth,
      arch: result.arch,
      timings: { totalMs, ...timings, kernel: result.timings },
    };
    write(opts.json, `${JSON.stringify(json, null, 2)}\n`);
  }
  const numbers = result.teeth.map((t) => t.fdi).join(' ');
  console.error(
    `${jaw} jaw: ${result.teeth.length} teeth (FDI ${numbers || 'none'}) over ${done.vertexCount} vertices in ${totalMs.toFixed(0)} ms ` +
      `(parse ${timings.parseMs.toFixed(0)} ms, segmentation ${timings.segmentMs.toFixed(0)} ms); labels written to ${opts.out}` +
      (opts.json ? `, teeth to ${opts.json}` : ''),
  );
} catch (e) {
  fail(1, `teeth segmentation failed: ${e instanceof Error ? e.message : String(e)}`);
}
