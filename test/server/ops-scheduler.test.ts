// The scheduler runs inside the real server: it starts with startServer (plans the seeded system
// tasks), runs a due task on its own timer by the injected clock, and close() stops it.
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { silentLogger } from '../../server/core/logger.ts';
import { startServer, type RunningServer } from '../../server/index.ts';
import { schedulerFor } from '../../server/modules/task/index.ts';
import { ADMIN_PASSWORD, manualClock, tempDir, testEnv } from './helpers.ts';

const clock = manualClock();
let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = tempDir();
  server = await startServer(loadConfig(testEnv({ PORT: '0' }, dataDir)), { staticDir: dataDir, logger: silentLogger, clock });
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function call(path: string, token: string | undefined, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: any };
}

it('plans the seeded tasks on start, runs a due task by the clock, and stops with the server', async () => {
  const db = server.ctx.db;
  await vi.waitFor(
    async () => {
      const planned = await db.selectFrom('task_info').select('nextRunTime').where('type', '=', 0).execute();
      expect(planned.every((t) => t.nextRunTime !== null)).toBe(true);
    },
    { timeout: 10_000, interval: 50 },
  );

  const { token } = (await call('/admin/base/open/login', undefined, { username: 'admin', password: ADMIN_PASSWORD })).data;
  const added = await call('/admin/task/info/add', token, { name: 'Soon', service: 'log.purge', taskType: 1, every: 60_000, status: 1 });
  expect(added.code).toBe(1000);
  const id = added.data.id as number;
  clock.advance(61_000);
  // The timer sleeps by real time until the planned run; a moved test clock needs a nudge (wake
  // does nothing unless the server started the scheduler).
  schedulerFor(server.ctx).wake();
  await vi.waitFor(
    async () => {
      const runs = await db.selectFrom('task_log').select(['status', 'trigger']).where('taskId', '=', id).execute();
      expect(runs).toEqual([{ status: 1, trigger: 'schedule' }]);
    },
    { timeout: 10_000, interval: 50 },
  );

  await server.close();
  // close() waited for the scheduler before closing the database.
  await expect(db.selectFrom('task_info').select('id').execute()).rejects.toThrow();
});
