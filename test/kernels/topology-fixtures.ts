// Loads a real or generated STL the way the worker will: parsed by the STL
// kernel in a fresh instance, the mesh left in that instance's arena and
// referred to by pointers (no copy). Shared by the topology tests and bench.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import type { MeshRef } from '../../workers/kernels/mesh.ts';
import { parseStl } from '../../workers/kernels/stl.ts';
import { loadKernels } from './kernels.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const fixturesDir = process.env.ARCHWRIGHT_FIXTURES ?? resolve(root, '../shared/fixtures');

/** Absolute path of a shared fixture, or undefined when it is absent. */
export function fixturePath(relative: string): string | undefined {
  const path = resolve(fixturesDir, relative);
  return existsSync(path) ? path : undefined;
}

export function readBytes(path: string): Uint8Array {
  const buf = readFileSync(path);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** Parses STL bytes into a fresh instance and refers to the result in place. */
export async function meshFromStl(bytes: Uint8Array, k?: KernelExports): Promise<MeshRef> {
  const kernels = k ?? (await loadKernels());
  const r = await parseStl(kernels, bytes);
  if (!r.ok) throw new Error(`STL: ${r.error.code} ${r.error.detail}`);
  return {
    k: kernels,
    positionsPtr: kernels.stlPositionsPtr() >>> 0,
    indicesPtr: kernels.stlIndicesPtr() >>> 0,
    normalsPtr: kernels.stlNormalsPtr() >>> 0,
    vertexCount: kernels.stlVertexCount() >>> 0,
    triangleCount: kernels.stlTriangleCount() >>> 0,
  };
}
