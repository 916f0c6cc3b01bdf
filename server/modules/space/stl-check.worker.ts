// The worker thread of stl-check.ts: checks one STL file at a time, off the HTTP loop.
import { parentPort } from 'node:worker_threads';
import type { Logger } from '../../core/logger.ts';
import { checkStlHere } from './stl-check.ts';

const port = parentPort!;
port.on('message', async ({ id, bytes }: { id: number; bytes: Uint8Array }) => {
  const warn = (message: string) => port.postMessage({ id, warn: message });
  const logger: Logger = { info() {}, warn, error: warn };
  try {
    port.postMessage({ id, result: await checkStlHere(bytes, logger) });
  } catch (err) {
    // The main thread checks the file itself (and reports what fails there).
    warn(`STL check failed in its thread: ${err instanceof Error ? err.message : String(err)}`);
    port.postMessage({ id, result: null });
  }
});
