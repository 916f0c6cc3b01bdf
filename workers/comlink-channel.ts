// The workers' message channel as the job runner (workers/kernels/job.ts) uses it: Comlink's
// transfer list and the progress proxy's release. One place for both workers.
import * as Comlink from 'comlink';
import type { JobChannel } from './kernels/job.ts';

export const comlinkChannel: JobChannel = {
  transfer: (value, buffers) => Comlink.transfer(value, buffers),
  release: (callback) => (callback as Partial<Record<typeof Comlink.releaseProxy, () => void>>)[Comlink.releaseProxy]?.(),
};
