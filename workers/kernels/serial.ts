// One job at a time per kernel instance for kernels that keep their state in
// module globals across time slices (straightening, simplification): a second
// call on the same instance waits for the first to settle.

import type { KernelExports } from './abi.ts';

const tails = new WeakMap<KernelExports, Promise<unknown>>();

export function serialized<T>(k: KernelExports, job: () => Promise<T>): Promise<T> {
  const previous = tails.get(k) ?? Promise.resolve();
  const run = previous.then(job, job);
  // The queue continues whether this job resolves or rejects.
  tails.set(k, run.catch(() => undefined));
  return run;
}
