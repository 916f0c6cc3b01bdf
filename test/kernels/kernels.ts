// Loads build/kernels.wasm for the kernel tests, the same way the worker does
// minus the fetch. The tests never build: `npm test` builds first.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { instantiateKernels, type KernelExports } from '../../workers/kernels/abi.ts';

export const WASM_PATH = fileURLToPath(new URL('../../build/kernels.wasm', import.meta.url));

export async function loadKernels(): Promise<KernelExports> {
  if (!existsSync(WASM_PATH)) {
    throw new Error(`${WASM_PATH} is missing: run \`npm run build:wasm\` first (npm test does it through npm run build)`);
  }
  return instantiateKernels(readFileSync(WASM_PATH));
}
