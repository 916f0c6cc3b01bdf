// Real server processes (tsx server/index.ts) on one PostgreSQL database, each on a free port of
// its own, for the multi-process tests (test/server/cluster.test.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed. */
  out: () => string;
  /** SIGTERM, and its exit. */
  stop(): Promise<void>;
  /** SIGKILL: as if it crashed. */
  kill(): Promise<void>;
}

/** Starts one process with `env` (PORT 0: a free port) and resolves once it listens. */
export async function startProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: '0', STATIC_DIR: '/nonexistent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const m = /Archwright listening on (http:\/\/\S+)/.exec(out);
      if (!m?.[1]) return;
      child.stdout!.off('data', look);
      resolve(m[1]);
    };
    child.stdout!.on('data', look);
    child.once('exit', () => reject(new Error(`server exited early:\n${out}`)));
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { url, child, out: () => out, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
}

/** POST/GET with JSON; answers the envelope and the HTTP status. */
export async function call(url: string, path: string, body?: unknown, token?: string): Promise<{ status: number; code: number; data: any; message: string }> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(token ? { Authorization: token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; data: any; message: string };
  return { status: res.status, ...json };
}
