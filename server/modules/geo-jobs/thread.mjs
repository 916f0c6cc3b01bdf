// Entry of a geometry job's worker thread: loads its TypeScript through tsx (a worker thread
// does not inherit the main thread's loader), then thread.ts runs the job.
import { tsImport } from 'tsx/esm/api';

await tsImport('./thread.ts', import.meta.url);
