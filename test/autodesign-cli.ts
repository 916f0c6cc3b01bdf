// npm run autodesign -- [--upper U.stl] [--lower L.stl] [--bite result.json] [--prescription p.json] --out design.json [--report report.json]
//
// The automatic design of one order (workers/design/autodesign.ts: the same kernels and wire
// geometry as the server's job and the editor), in this process on one core. Writes the design
// document (the editor's format, src/editor/engine/document.ts) to --out and, with --report, the
// report per prescribed wire (placed, or failed with the specification's reason), the teeth found
// and the timings. Without --prescription: the default (common/prescription.ts) on the jaws
// given. --bite: a registration of the two models (`npm run bite`'s result.json, common/bite.ts
// BiteResult): the jaws are designed where it puts them, as the editor draws them, and the
// document carries it as its `bite`. A summary, one line per wire, goes to stderr. Lives beside
// teeth-cli.ts.
//
// Exit codes: 0 designed (some wires may have failed: see the summary); 2 usage or a prescription
// that is refused; 3 a file is missing, unreadable or not an STL, or an output cannot be written;
// 1 kernels.wasm missing or an internal error.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { BiteResult } from '../common/bite.ts';
import { isRigidMatrix } from '../common/pose.ts';
import { DEFAULT_PRESCRIPTION, type Prescription } from '../common/prescription.ts';
import { prescriptionSchema } from '../common/prescription-schema.ts';
import { universalToFdi } from '../common/teeth.ts';
import { compileKernels } from '../workers/kernels/abi.ts';
import { KernelError } from '../workers/kernels/job.ts';
import { autodesign } from '../workers/design/autodesign.ts';
import { WASM_PATH } from './kernels/kernels.ts';
import { eachArg, fail, readInput } from './cli-args.ts';

const USAGE = 'usage: npm run autodesign -- [--upper U.stl] [--lower L.stl] [--bite result.json] [--prescription p.json] --out design.json [--report report.json]';

const argv = process.argv.slice(2);
const opts: { upper?: string; lower?: string; bite?: string; prescription?: string; out?: string; report?: string } = {};
eachArg(argv, USAGE, (a, value) => {
  if (a === '--upper') opts.upper = value('an STL file');
  else if (a === '--lower') opts.lower = value('an STL file');
  else if (a === '--prescription') opts.prescription = value('a JSON file');
  else if (a === '--bite') opts.bite = value('a JSON file (npm run bite --out)');
  else if (a === '--out') opts.out = value('a file name');
  else if (a === '--report') opts.report = value('a file name');
  else if (a === '--help' || a === '-h') fail(0, USAGE);
  else fail(2, `unknown argument ${a}\n${USAGE}`);
});
if (!opts.upper && !opts.lower) fail(2, `a model is required (--upper, --lower or both)\n${USAGE}`);
if (!opts.out) fail(2, `--out is required (the design document)\n${USAGE}`);

let prescription: Prescription;
if (opts.prescription) {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(readInput('prescription', opts.prescription)));
  } catch (e) {
    fail(2, `prescription: ${opts.prescription} is not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = prescriptionSchema.safeParse(raw);
  if (!parsed.success) fail(2, `prescription: ${parsed.error.issues.map((x) => `${x.path.join('.') || '(root)'}: ${x.message}`).join('; ')}`);
  prescription = parsed.data;
  for (const jaw of ['upper', 'lower'] as const) {
    if (prescription[jaw]?.wires.length && !opts[jaw]) fail(2, `the prescription has ${jaw} wires: give --${jaw}\n${USAGE}`);
  }
} else {
  prescription = { upper: opts.upper ? DEFAULT_PRESCRIPTION.upper : null, lower: opts.lower ? DEFAULT_PRESCRIPTION.lower : null };
}
let bite: BiteResult | null = null;
if (opts.bite) {
  if (!opts.upper || !opts.lower) fail(2, `--bite registers the two jaws: give --upper and --lower\n${USAGE}`);
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(readInput('bite', opts.bite)));
  } catch (e) {
    fail(2, `bite: ${opts.bite} is not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const b = raw as Partial<BiteResult> | null;
  if (!b || typeof b !== 'object' || !isRigidMatrix(b.upper) || !isRigidMatrix(b.lower)) fail(2, `bite: ${opts.bite} has no rigid 4x4 "upper" and "lower" (npm run bite's result.json)`);
  if (b.error || b.code) fail(2, `bite: ${opts.bite} is a failed registration (${b.code ?? ''} ${b.error ?? ''})`);
  bite = b as BiteResult;
}
const upper = opts.upper ? readInput('upper', opts.upper) : null;
const lower = opts.lower ? readInput('lower', opts.lower) : null;
if (!existsSync(WASM_PATH)) fail(1, `${WASM_PATH} is missing: run \`npm run build:wasm\` first`);

try {
  const module = await compileKernels(readFileSync(WASM_PATH));
  let result;
  try {
    result = await autodesign(module, { upper, lower, prescription, bite });
  } catch (e) {
    if (e instanceof KernelError && e.code === 'BAD_INPUT') fail(3, e.message);
    throw e;
  }
  const write = (path: string, data: unknown) => {
    try {
      writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
    } catch (e) {
      fail(3, `cannot write ${path}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  write(opts.out, result.document);
  if (opts.report) write(opts.report, { report: result.report, bases: result.bases, teeth: result.teeth, insertion: result.insertion, timings: result.timings });
  for (const r of result.report) {
    const teeth = r.teeth.map(universalToFdi).join(', ');
    console.error(`${r.jaw} ${r.type} (${teeth}): ${r.status === 'placed' ? `placed as ${r.wireId}` : `${r.message}${r.detail ? ` (${r.detail})` : ''}`}`);
  }
  for (const b of result.bases) {
    const slots = b.slots.map((x) => `${x.wireId} ${x.status}`).join(', ');
    console.error(`${b.jaw} base: ${b.status === 'generated' ? `${b.shape}, ${b.outlinePoints} outline points, ${b.volume!.toFixed(0)} mm³; slots: ${slots || 'none'}` : `${b.message} (${b.code}: ${b.detail})`}`);
    for (const t of b.tags ?? []) console.error(`${b.jaw} base: the tag of ${t.wireId} is held short: ${t.inside.toFixed(2)} mm inside the rim (1 mm asked), ${t.outside} corner(s) outside the acrylic`);
  }
  const placed = result.report.filter((r) => r.status === 'placed').length;
  console.error(`${placed} of ${result.report.length} wires placed in ${result.timings.totalMs.toFixed(0)} ms; design written to ${opts.out}${opts.report ? `, report to ${opts.report}` : ''}`);
} catch (e) {
  fail(1, `automatic design failed: ${e instanceof Error ? e.message : String(e)}`);
}
