// What `npm start` and `npm run start:cluster` do before a process serves: build what is missing
// (the WASM kernels, the front end) and size libuv's thread pool.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const inRoot = (p: string) => fileURLToPath(new URL(p, new URL('..', import.meta.url)));

function run(what: string, command: string, args: string[]): void {
  console.log(`Building ${what}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.error || result.status !== 0) {
    const why = result.error ? result.error.message : `exit code ${result.status}`;
    console.error(`Could not build ${what} (${why}). Fix the error above, or build it by hand, then run npm start again.`);
    process.exit(1);
  }
}

export function buildMissing(): void {
  if (!fs.existsSync(inRoot('build/kernels.wasm'))) {
    run('the WASM kernels', process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build:wasm']);
  }
  if (!fs.existsSync(inRoot('dist/index.html'))) {
    run('the front end', inRoot('node_modules/.bin/vite'), ['build']);
  }
}

// libuv's thread pool runs password hashing, Web Crypto and file I/O for every request; its
// default 4 threads let a burst of sign-ins and uploads queue everything else behind them (see the
// Load section of BENCHMARKS.md). It can only be sized before the process starts (the TypeScript
// loader has started it by the time a script runs), so a serving process is started with it set:
// 16 threads, idle ones cost nothing.
export const THREADPOOL_SIZE = '16';
