// Thread side of the `autodesign` job: reads the order's jaw models from local storage and designs
// its wires with the engine of `npm run autodesign` (workers/design/autodesign.ts, imported by URL
// like teeth.thread.ts: worker code the server project does not type-check).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AutodesignWireReport } from '../../../common/autodesign.ts';
import type { Prescription } from '../../../common/prescription.ts';
import { localBlobPath } from '../space/storage.ts';
import type { AutodesignInput } from './autodesign.ts';

const moduleUrl = (file: string) => new URL(`../../../workers/${file}`, import.meta.url).href;
const WASM_PATH = fileURLToPath(new URL('../../../build/kernels.wasm', import.meta.url));

/** What the job ends with: the design document (the editor's format) and the report per prescribed wire. */
export interface AutodesignOutput {
  document: { wires: unknown[] } & Record<string, unknown>;
  report: AutodesignWireReport[];
  teeth: Partial<Record<'upper' | 'lower', number[]>>;
  timings: Record<string, number>;
}

interface Modules {
  compileKernels(bytes: Uint8Array): Promise<object>;
  autodesign(module: object, input: { upper: Uint8Array | null; lower: Uint8Array | null; prescription: Prescription }, options?: { onProgress?: (f: number) => void }): Promise<AutodesignOutput>;
}

export async function run(input: AutodesignInput, progress: (f: number) => void): Promise<AutodesignOutput> {
  if (!fs.existsSync(WASM_PATH)) throw new Error('the geometry kernels are not built (build/kernels.wasm is missing)');
  const read = (key: string | null) => (key ? new Uint8Array(fs.readFileSync(localBlobPath(input.uploads, key))) : null);
  const abi = (await import(moduleUrl('kernels/abi.ts'))) as Pick<Modules, 'compileKernels'>;
  const engine = (await import(moduleUrl('design/autodesign.ts'))) as Pick<Modules, 'autodesign'>;
  const compiled = await abi.compileKernels(fs.readFileSync(WASM_PATH));
  return engine.autodesign(compiled, { upper: read(input.upper), lower: read(input.lower), prescription: input.prescription }, { onProgress: progress });
}
