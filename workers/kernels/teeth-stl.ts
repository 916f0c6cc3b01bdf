// Teeth segmentation from STL bytes, as the command line (npm run teeth) and the server's
// `teeth` job run it: parse and weld (stl.ts, the weld order of the fixtures' *.labels.bin),
// segment (teeth.ts) in a fresh instance, and the result as stored (common/teeth.ts).
import { encodeLabels, type StoredTeeth, type ToothRecord } from '../../common/teeth.ts';
import { instantiateModule } from './abi.ts';
import { KernelError } from './job.ts';
import { meshFromArrays } from './mesh.ts';
import { parseStl } from './stl.ts';
import { segmentTeeth, type TeethResult } from './teeth.ts';

export interface TeethFromStl {
  result: TeethResult;
  stored: StoredTeeth;
  /** Welded vertices of the model (the labels' length). */
  vertexCount: number;
  timings: { parseMs: number; segmentMs: number };
}

/** The stored form: every field of each tooth (landmarks included), labels run-length encoded. */
export function storedTeeth(jaw: 'upper' | 'lower', result: TeethResult): StoredTeeth {
  return {
    jaw,
    vertexCount: result.labels.length,
    labels: encodeLabels(result.labels),
    teeth: result.teeth.map((t): ToothRecord => ({ ...t })),
    arch: result.arch,
  };
}

/**
 * Parses `bytes` and segments the jaw. An unreadable file throws KernelError BAD_INPUT with the
 * parser's code. `onProgress`: 0..1 (parsing is the first tenth, the segmentation's phases the rest).
 */
export async function segmentTeethStl(
  module: WebAssembly.Module,
  bytes: Uint8Array,
  jaw: 'upper' | 'lower',
  onProgress: (f: number) => void = () => {},
): Promise<TeethFromStl> {
  let t0 = performance.now();
  const parsed = await parseStl(instantiateModule(module), bytes, {
    onProgress: (f) => onProgress(0.1 * f),
    sliceMs: 1e9,
    yieldToEventLoop: () => Promise.resolve(),
  });
  if (!parsed.ok) throw new KernelError('BAD_INPUT', `not a readable STL (${parsed.error.code}${parsed.error.detail ? `: ${parsed.error.detail}` : ''})`);
  const parseMs = performance.now() - t0;
  const { positions, indices } = parsed.mesh;
  if (!indices.length) throw new KernelError('BAD_INPUT', 'the STL has no triangles');
  onProgress(0.1);
  t0 = performance.now();
  const result = await segmentTeeth(meshFromArrays(instantiateModule(module), positions, indices), { jaw, onProgress: (f) => onProgress(0.1 + 0.9 * f) });
  const segmentMs = performance.now() - t0;
  onProgress(1);
  return { result, stored: storedTeeth(jaw, result), vertexCount: positions.length / 3, timings: { parseMs, segmentMs } };
}
