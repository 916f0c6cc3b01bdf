// Thread side of the `bite` job: reads the order's upper, lower and occlusion STL files from
// local storage and registers the bite with the same kernel the editor runs
// (workers/kernels/bite.ts, imported by URL like stl-check.ts: worker code the server project
// does not type-check).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BiteResult } from '../../../common/bite.ts';
import type { BiteInput } from '../order/lifecycle.ts';
import { localBlobPath } from '../space/storage.ts';

const moduleUrl = (file: string) => new URL(`../../../workers/kernels/${file}`, import.meta.url).href;
const WASM_PATH = fileURLToPath(new URL('../../../build/kernels.wasm', import.meta.url));

type Compiled = object;
interface BiteModules {
  compileKernels(bytes: Uint8Array): Promise<Compiled>;
  registerBiteStl(
    compiled: Compiled,
    input: { upper: Uint8Array; lower: Uint8Array; bites: Uint8Array[] },
    options?: { onProgress?: (f: number) => void; resolvePenetration?: boolean },
  ): Promise<BiteResult>;
}

export async function run(input: BiteInput, progress: (f: number) => void): Promise<BiteResult> {
  if (!fs.existsSync(WASM_PATH)) throw new Error('the geometry kernels are not built (build/kernels.wasm is missing)');
  const read = (key: string) => new Uint8Array(fs.readFileSync(localBlobPath(input.uploads, key)));
  const upper = read(input.upper);
  const lower = read(input.lower);
  const occlusion = read(input.occlusion);
  const abi = (await import(moduleUrl('abi.ts'))) as Pick<BiteModules, 'compileKernels'>;
  const bite = (await import(moduleUrl('bite.ts'))) as Pick<BiteModules, 'registerBiteStl'>;
  const compiled = await abi.compileKernels(fs.readFileSync(WASM_PATH));
  // An order's bite has its penetration resolved (docs/geometry.md, Penetration policy).
  return bite.registerBiteStl(compiled, { upper, lower, bites: [occlusion] }, { onProgress: progress, resolvePenetration: true });
}
