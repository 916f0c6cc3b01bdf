// One geometry job in its own worker thread (started by runner.ts): imports the kind's module by
// URL, runs its function on the job's input, reports progress, and posts the result or the
// failure. The thread ends with the job (its memory, a WASM arena included, goes with it).
import { parentPort, workerData } from 'node:worker_threads';
import type { ThreadMessage, ThreadStart } from './types.ts';

const port = parentPort!;
const { module, fn, input } = workerData as ThreadStart;
const post = (m: ThreadMessage) => port.postMessage(m);

try {
  const mod = (await import(module)) as Record<string, unknown>;
  const run = mod[fn];
  if (typeof run !== 'function') throw new Error(`${module} has no function ${fn}`);
  const result: unknown = await run(input, (f: number) => {
    if (Number.isFinite(f)) post({ type: 'progress', f: Math.min(1, Math.max(0, f)) });
  });
  post({ type: 'done', result: result ?? null });
} catch (err) {
  post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
}
