// Entry of the STL check's worker thread: loads its TypeScript through tsx (a worker thread does
// not inherit the main thread's loader), then stl-check.worker.ts takes the messages.
import { tsImport } from 'tsx/esm/api';

await tsImport('./stl-check.worker.ts', import.meta.url);
