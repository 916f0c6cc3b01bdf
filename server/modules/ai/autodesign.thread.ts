// Thread side of the `autodesign` job (run by the geo-jobs runner in a worker thread): the
// engine behind engine.ts's boundary.
import { runAutodesign, type AutodesignInput, type AutodesignResult } from './engine.ts';

export async function run(input: AutodesignInput, progress: (f: number) => void): Promise<AutodesignResult> {
  return runAutodesign(input, progress);
}
