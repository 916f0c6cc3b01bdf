// Thread side of the `teeth` job: reads one jaw model from local storage and segments its teeth
// with the kernels of the command line (workers/kernels/teeth-stl.ts, imported by URL like
// bite.thread.ts: worker code the server project does not type-check).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { StoredTeeth } from '../../../common/teeth.ts';
import { localBlobPath } from '../space/storage.ts';
import type { TeethInput } from './teeth.ts';

const moduleUrl = (file: string) => new URL(`../../../workers/kernels/${file}`, import.meta.url).href;
const WASM_PATH = fileURLToPath(new URL('../../../build/kernels.wasm', import.meta.url));

interface TeethModules {
  compileKernels(bytes: Uint8Array): Promise<object>;
  segmentTeethStl(module: object, bytes: Uint8Array, jaw: 'upper' | 'lower', onProgress?: (f: number) => void): Promise<{ stored: StoredTeeth }>;
}

export async function run(input: TeethInput, progress: (f: number) => void): Promise<StoredTeeth> {
  if (!fs.existsSync(WASM_PATH)) throw new Error('the geometry kernels are not built (build/kernels.wasm is missing)');
  const bytes = new Uint8Array(fs.readFileSync(localBlobPath(input.uploads, input.key)));
  const abi = (await import(moduleUrl('abi.ts'))) as Pick<TeethModules, 'compileKernels'>;
  const teeth = (await import(moduleUrl('teeth-stl.ts'))) as Pick<TeethModules, 'segmentTeethStl'>;
  const compiled = await abi.compileKernels(fs.readFileSync(WASM_PATH));
  return (await teeth.segmentTeethStl(compiled, bytes, input.jaw, progress)).stored;
}
