// server/index.ts run as a program: starts from env, prints where it listens, exits 0 on SIGTERM.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir, testEnv } from './helpers.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('server/index.ts as the entry', () => {
  it('starts from env, answers, and stops cleanly on SIGTERM', async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      cwd: root,
      env: { ...process.env, ...testEnv({ PORT: '0', ADMIN_PASSWORD: '' }, dir) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const m = /Archwright listening on (http:\/\/\S+)/.exec(out);
          if (m?.[1]) {
            clearInterval(timer);
            resolve(m[1]);
          }
        }, 50);
        child.on('exit', () => {
          clearInterval(timer);
          reject(new Error(`server exited early:\n${out}`));
        });
      });
      expect(out).toMatch(/Admin password \(shown once\): \S+/);
      const res = await fetch(`${url}/admin/base/open/captcha`);
      expect((await res.json()).code).toBe(1000);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
