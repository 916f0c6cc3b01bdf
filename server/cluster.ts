// `npm run start:cluster -- --processes N`: N server processes on the ports PORT, PORT+1, ...,
// sharing DATABASE_URL (PostgreSQL), DATA_DIR and STORAGE_DIR, for a load balancer in front
// (docs/scaling.md). The first process migrates and seeds before the others start; a process that
// dies is started again; SIGINT and SIGTERM are passed on, and the script ends when all have.
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config.ts';
import { buildMissing, THREADPOOL_SIZE } from './launch.ts';

const ENTRY = fileURLToPath(new URL('./index.ts', import.meta.url));
const RESTART_MS = 1000;
const READY_TIMEOUT_MS = 120_000;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const { values } = parseArgs({ options: { processes: { type: 'string', short: 'n' } }, strict: true });
const count = values.processes === undefined ? os.availableParallelism() : Number(values.processes);
if (!Number.isInteger(count) || count < 1 || count > 64) fail(`--processes must be an integer from 1 to 64, got "${values.processes}"`);
const config = loadConfig(process.env);
if (count > 1 && !/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
  fail('Several processes share one PostgreSQL database: set DATABASE_URL=postgres://... (see docs/scaling.md)');
}
if (count > 1 && !process.env.JWT_SECRET) {
  console.warn(`JWT_SECRET is not set: these processes share the secret in ${config.dataDir}/jwt-secret; processes on other hosts need the same JWT_SECRET`);
}
buildMissing();

const children = new Map<number, ChildProcess>();
let stopping = false;

function startOne(index: number): ChildProcess {
  const port = config.port + index;
  const child = spawn(process.execPath, [...process.execArgv, ENTRY], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PORT: String(port), UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE || THREADPOOL_SIZE },
  });
  child.stdout!.on('data', (chunk: Buffer) => process.stdout.write(chunk.toString().replace(/^(?=.)/gm, `[${port}] `)));
  children.set(index, child);
  child.on('exit', (code, signal) => {
    children.delete(index);
    if (stopping) {
      if (children.size === 0) process.exit(0);
      return;
    }
    console.error(`[${port}] exited (${signal ?? `code ${code}`}); starting it again in ${RESTART_MS} ms`);
    setTimeout(() => !stopping && startOne(index), RESTART_MS);
  });
  return child;
}

/** Resolves when the child says it listens (runMain's line), rejects when it exits first. */
function listening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the first process did not start in time')), READY_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      if (!chunk.toString().includes('Archwright listening on')) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve();
    };
    child.stdout!.on('data', onData);
    child.once('exit', () => reject(new Error('the first process exited while starting')));
  });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopping = true;
    if (children.size === 0) process.exit(0);
    for (const child of children.values()) child.kill(signal);
  });
}

// Migrations and the seed run once, in the first process; the others find them done.
await listening(startOne(0)).catch((err: Error) => fail(err.message));
for (let i = 1; i < count && !stopping; i++) startOne(i);
console.log(`Archwright cluster: ${count} process${count > 1 ? 'es' : ''} on ports ${config.port}-${config.port + count - 1}`);
