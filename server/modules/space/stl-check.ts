// Is this really an STL file? The same wasm kernel the editor's worker runs reads it (so the
// server accepts exactly what the editor can open). Without build/kernels.wasm (a server run
// without `npm run build:wasm`), a structural check stands in and a warning is logged once.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MessageKey } from '../../core/i18n.ts';
import type { Logger } from '../../core/logger.ts';

// The kernel wrappers are worker code (WebAssembly and DOM types the server project does not
// load), so they are imported by URL and typed here by the little the server uses.
interface Kernels {
  arenaReset(): void;
}
interface KernelModules {
  instantiateKernels(bytes: Uint8Array): Promise<Kernels>;
  parseStl(k: Kernels, source: Blob): Promise<
    { ok: true; mesh: { triangleCount: number } } | { ok: false; error: { code: string; detail: string } }
  >;
}
const moduleUrl = (file: string) => new URL(`../../../workers/kernels/${file}`, import.meta.url).href;

const WASM_PATH = fileURLToPath(new URL('../../../build/kernels.wasm', import.meta.url));

export type StlCheck = { ok: true; triangles: number } | { ok: false; code: string; detail: string };

/** The catalog message of a kernel error code (a reason users can read in their language). */
export const STL_REASON: Readonly<Record<string, MessageKey>> = {
  STL_EMPTY: 'stlEmpty',
  STL_TOO_SHORT: 'stlTooShort',
  STL_NOT_STL: 'stlNotStl',
  STL_TRUNCATED: 'stlTruncated',
  STL_COUNT_MISMATCH: 'stlCountMismatch',
  STL_MALFORMED: 'stlMalformed',
  STL_NO_TRIANGLES: 'stlNoTriangles',
  STL_NON_FINITE: 'stlNonFinite',
  STL_TOO_LARGE: 'stlTooLarge',
};

let kernels: Promise<{ k: Kernels; parseStl: KernelModules['parseStl'] } | null> | undefined;

function loadKernels(logger: Logger) {
  kernels ??= (async () => {
    if (!fs.existsSync(WASM_PATH)) {
      logger.warn(`${WASM_PATH} is missing (npm run build:wasm): STL uploads get a structural check only`);
      return null;
    }
    const abi = (await import(moduleUrl('abi.ts'))) as Pick<KernelModules, 'instantiateKernels'>;
    const stl = (await import(moduleUrl('stl.ts'))) as Pick<KernelModules, 'parseStl'>;
    return { k: await abi.instantiateKernels(fs.readFileSync(WASM_PATH)), parseStl: stl.parseStl };
  })();
  return kernels;
}

export async function checkStl(file: Blob, logger: Logger): Promise<StlCheck> {
  const loaded = await loadKernels(logger);
  if (!loaded) return structuralCheck(new Uint8Array(await file.arrayBuffer()));
  const { k, parseStl } = loaded;
  const result = await parseStl(k, file);
  // Free the arena so a big scan does not stay in wasm memory until the next upload.
  k.arenaReset();
  return result.ok
    ? { ok: true, triangles: result.mesh.triangleCount }
    : { ok: false, code: result.error.code, detail: result.error.detail };
}

/** Binary: 84-byte header, then exactly 50 bytes per counted triangle; ASCII: solid ... facet. */
export function structuralCheck(bytes: Uint8Array): StlCheck {
  if (bytes.byteLength >= 84) {
    const count = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
    if (count > 0 && bytes.byteLength === 84 + 50 * count) return { ok: true, triangles: count };
  }
  const head = new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.byteLength, 4096))).replace(/^\uFEFF/, '');
  if (/^\s*solid\b/i.test(head) && /\bfacet\s+normal\b/i.test(head)) {
    const text = new TextDecoder().decode(bytes);
    const facets = text.match(/\bfacet\s+normal\b/gi)?.length ?? 0;
    if (facets > 0 && /\bendsolid\b/i.test(text)) return { ok: true, triangles: facets };
  }
  return { ok: false, code: 'STL_NOT_STL', detail: 'the file is not an STL file' };
}
