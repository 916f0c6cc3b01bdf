// `npm start`: build what is missing (kernels, front end), then migrate, seed and serve.
import { spawn } from 'node:child_process';
import { buildMissing, THREADPOOL_SIZE } from './launch.ts';
import { loadConfig } from './config.ts';
import { runMain } from './index.ts';

// Without UV_THREADPOOL_SIZE (server/launch.ts) the server runs in a child process that has it.
if (!process.env.UV_THREADPOOL_SIZE) {
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, UV_THREADPOOL_SIZE: THREADPOOL_SIZE },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  buildMissing();
  runMain(loadConfig(process.env)).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
