// `npm start`: build what is missing (kernels, front end), then migrate, seed and serve.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config.ts';
import { runMain } from './index.ts';

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

// libuv's thread pool runs password hashing, Web Crypto and file I/O for every request; its
// default 4 threads let a burst of sign-ins and uploads queue everything else behind them (see the
// Load section of BENCHMARKS.md). It can only be sized before the process starts (the TypeScript
// loader has started it by the time this file runs), so without UV_THREADPOOL_SIZE the server
// runs in a child process that has it: 16 threads, idle ones cost nothing.
const THREADPOOL_SIZE = '16';

if (!process.env.UV_THREADPOOL_SIZE) {
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, UV_THREADPOOL_SIZE: THREADPOOL_SIZE },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  if (!fs.existsSync(inRoot('build/kernels.wasm'))) {
    run('the WASM kernels', process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build:wasm']);
  }
  if (!fs.existsSync(inRoot('dist/index.html'))) {
    run('the front end', inRoot('node_modules/.bin/vite'), ['build']);
  }

  runMain(loadConfig(process.env)).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
