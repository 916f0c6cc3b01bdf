// Several real server processes on one PostgreSQL database (docs/scaling.md): what one process
// does, the others see and respect. Runs in the `postgres` project only (TEST_DATABASE_URL);
// three processes are started once for the whole file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTime } from '../../server/core/clock.ts';
import { loadConfig } from '../../server/config.ts';
import { createDb, type Db } from '../../server/db/index.ts';
import { MAX_ATTEMPTS } from '../../server/modules/geo-jobs/store.ts';
import { LOGIN_MAX_FAILURES } from '../../server/core/rate-limit.ts';
import { call, startProcess, type ServerProcess } from './cluster-helpers.ts';
import { ADMIN_PASSWORD, removeDataDir, tempDir, testEnv } from './helpers.ts';
import { RawClient, steps, until, WIRE, welcomed } from './hub-helpers.ts';
import { onPostgres } from './test-database.ts';

const skipped = onPostgres ? '' : ' (skipped: set TEST_DATABASE_URL to a PostgreSQL server to run them)';
if (!onPostgres && !process.env.TEST_DATABASE_URL) console.info(`multi-process tests${skipped}`);

const SLOT_MS = 1000;
const SLOTS = 4;

describe.skipIf(!onPostgres)(`several processes on one PostgreSQL database${skipped}`, () => {
  let dir: string;
  let env: Record<string, string>;
  let db: Db;
  let a: ServerProcess, b: ServerProcess, c: ServerProcess;
  let token: string;
  let taskId: number;

  beforeAll(async () => {
    dir = tempDir();
    env = testEnv({ ARCHWRIGHT_JOB_CONCURRENCY: '1' }, dir);
    // The first process migrates and seeds (as start:cluster does), then the others join.
    a = await startProcess(env);
    db = createDb(loadConfig(env));
    const time = formatTime(Date.now());
    taskId = (
      await db
        .insertInto('task_info')
        .values({ name: 'cluster-once', taskType: 1, every: SLOT_MS, status: 0, service: 'log.purge', limit: SLOTS, createTime: time, updateTime: time })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    [b, c] = await Promise.all([startProcess(env), startProcess(env)]);
    token = (await call(a.url, '/admin/base/open/login', { username: 'admin', password: ADMIN_PASSWORD })).data.token;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a, b, c].map((p) => p?.stop()));
    await db?.destroy();
    if (dir) await removeDataDir(dir);
  });

  it('signs in on A, refreshes on B; a spent token shown on C revokes the session everywhere', async () => {
    const first = (await call(a.url, '/admin/base/open/login', { username: 'admin', password: ADMIN_PASSWORD })).data;
    const second = await call(b.url, '/admin/base/open/refreshToken', { refreshToken: first.refreshToken });
    expect(second.code).toBe(1000);
    expect((await call(c.url, '/admin/base/comm/person', undefined, second.data.token)).code).toBe(1000);
    const third = await call(c.url, '/admin/base/open/refreshToken', { refreshToken: second.data.refreshToken });
    expect(third.code).toBe(1000);
    // The first token again, after its successor was spent: a copy. The session ends on every process.
    const reuse = await call(c.url, '/admin/base/open/refreshToken', { refreshToken: first.refreshToken });
    expect(reuse.status).toBe(401);
    expect((await call(a.url, '/admin/base/open/refreshToken', { refreshToken: third.data.refreshToken })).status).toBe(401);
    expect((await call(b.url, '/admin/base/comm/person', undefined, third.data.token)).status).toBe(401);
  });

  it('holds the sign-in limit across processes: of 30 concurrent guesses on three processes, 5 are checked', async () => {
    const username = `guess-${Date.now()}`;
    const add = await call(a.url, '/admin/base/sys/user/add', { username, password: 'right-pass-1', name: username, nickName: username, status: 1, roleIdList: [] }, token);
    expect(add.code, add.message).toBe(1000);
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call([a, b, c][i % 3]!.url, '/admin/base/open/login', { username, password: `wrong-${i}` })),
    );
    expect(replies.filter((r) => r.status === 429)).toHaveLength(30 - LOGIN_MAX_FAILURES);
    expect(replies.filter((r) => r.status !== 429).every((r) => r.code !== 1000)).toBe(true);
    // The right password is refused as well, on any process, while the failures fill the window.
    expect((await call(b.url, '/admin/base/open/login', { username, password: 'right-pass-1' })).status).toBe(429);
  });

  it('sends a job stored through B to the machine on A; the machine moves to C mid-bend: nothing lost, nothing bent twice', async () => {
    const ws = (p: ServerProcess) => `${p.url.replace(/^http/, 'ws')}/ws/device`;
    const dev = await call(a.url, '/admin/device/info/add', { devicename: 'Cluster bender', diameters: [0.7, 0.8], memory: 100 }, token);
    expect(dev.code, dev.message).toBe(1000);
    const { id: deviceId, deviceKey } = dev.data;
    const onA = await welcomed(ws(a), deviceKey);
    const first = await call(b.url, '/admin/design/bend', { deviceId, wire: WIRE, steps: steps(3) }, token);
    expect(first.code, first.message).toBe(1000);
    const job = await onA.next((m) => m.type === 'job' && m.jobId === first.data.jobId);
    onA.send({ type: 'ack', jobId: job.jobId });
    onA.send({ type: 'progress', jobId: job.jobId, step: 1 });
    const status = async (jobId: string) => (await db.selectFrom('device_job').select('status').where('jobId', '=', jobId).executeTakeFirst())?.status;
    await until(async () => (await status(job.jobId)) === 'bending', 'bending');
    // The line to A drops; a second job is stored through A meanwhile; the machine comes back on C.
    onA.close();
    const second = await call(a.url, '/admin/design/bend', { deviceId, wire: WIRE, steps: steps(2) }, token);
    expect(second.code, second.message).toBe(1000);
    const onC = new RawClient(ws(c));
    await onC.hello(deviceKey);
    await onC.next((m) => m.type === 'welcome');
    onC.send({ type: 'status', state: 'bending', jobId: job.jobId });
    onC.send({ type: 'done', jobId: job.jobId, ms: 10 });
    const next = await onC.next((m) => m.type === 'job' && m.jobId === second.data.jobId);
    onC.send({ type: 'ack', jobId: next.jobId });
    onC.send({ type: 'done', jobId: next.jobId, ms: 10 });
    await until(async () => (await status(first.data.jobId)) === 'done' && (await status(second.data.jobId)) === 'done', 'both done');
    // The bending job was never sent again; each job ended once.
    expect(onA.messages.filter((m) => m.type === 'job').map((m) => m.jobId)).toEqual([first.data.jobId]);
    expect(onC.messages.filter((m) => m.type === 'job').map((m) => m.jobId)).toEqual([second.data.jobId]);
    const done = await db.selectFrom('device_job_log').select('jobId').where('status', '=', 'done').where('jobId', 'in', [first.data.jobId, second.data.jobId]).execute();
    expect(done.map((r) => r.jobId).sort()).toEqual([first.data.jobId, second.data.jobId].sort());
    // C holds the machine: it is online, whichever process noticed the line to A drop.
    const link = await db.selectFrom('device_link').select(['online', 'hub']).where('deviceId', '=', deviceId).executeTakeFirstOrThrow();
    expect(link.online).toBe(1);
    expect(link.hub).toMatch(new RegExp(`:${new URL(c.url).port}$`));
    onC.close();
  });

  it('runs each geometry job attempt in one process, and takes over a job whose process died', async () => {
    const time = formatTime(Date.now());
    // A job left running by a process that is gone (its lease ran out), and a fresh one.
    const rows = await db
      .insertInto('geo_job')
      .values([
        { kind: 'bite', orderId: null, state: 'running', attempts: 1, input: '{}', owner: 'gone-host:1', leaseUntil: Date.now() - 1000, createTime: time, updateTime: time },
        { kind: 'bite', orderId: null, state: 'queued', attempts: 0, input: '{}', createTime: time, updateTime: time },
      ])
      .returning('id')
      .execute();
    const ids = rows.map((r) => r.id);
    const ended = async () => (await db.selectFrom('geo_job').select(['state', 'attempts', 'owner']).where('id', 'in', ids).execute());
    await until(async () => (await ended()).every((r) => r.state === 'failed'), 'both jobs ended', 20_000);
    // Its input is nothing a bite job can use: every attempt fails, and there are no more than allowed.
    for (const r of await ended()) expect(r.attempts).toBe(MAX_ATTEMPTS);
  });

  it('runs a scheduled task once per slot, not once per process', async () => {
    // Started through A; an edit through B and C wakes their schedulers too (each plans its timer
    // on the task's next slot), so three processes wait for every slot.
    expect((await call(a.url, '/admin/task/info/start', { id: taskId }, token)).code).toBe(1000);
    for (const p of [b, c]) expect((await call(p.url, '/admin/task/info/update', { id: taskId, remark: 'three processes' }, token)).code).toBe(1000);
    // The last slot's claim stops the task before its run writes the log: wait for the log of every claimed run.
    const state = async () => ({
      task: await db.selectFrom('task_info').select(['status', 'runCount']).where('id', '=', taskId).executeTakeFirstOrThrow(),
      runs: await db.selectFrom('task_log').select('id').where('taskId', '=', taskId).execute(),
    });
    await until(
      async () => {
        const { task, runs } = await state();
        return task.status === 0 && runs.length >= task.runCount;
      },
      'every slot run',
      60_000,
    );
    const { task, runs } = await state();
    expect(task.runCount).toBe(SLOTS);
    expect(runs).toHaveLength(SLOTS);
  }, 70_000);
});

