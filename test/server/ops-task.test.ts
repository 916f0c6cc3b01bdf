// Tasks: CRUD with schedule checks, start/stop/once, the run log, the scheduler's tick on a
// moved clock, run limits, and the seeded system tasks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTime } from '../../server/core/clock.ts';
import { schedulerFor } from '../../server/modules/task/index.ts';
import { nextRunTime } from '../../server/modules/task/schedule.ts';
import { createRole, type TestServer } from './helpers.ts';
import { insertUser, opsServer } from './ops-helpers.ts';

let t: TestServer;
let admin: string;
let plain: string;
beforeAll(async () => ({ t, admin, plain } = await opsServer()));
afterAll(() => t.close());

const MIN = 60_000;
const call = (method: string, path: string, body?: unknown, token = admin) =>
  t.call(method, `/admin/task/info/${path}`, { token, lang: 'en', body });
const info = async (id: number) => (await call('GET', `info?id=${id}`)).body.data;
const runs = async (id: number) => (await call('GET', `log?id=${id}&size=100`)).body.data;
/** Tokens live 2 hours; tests that move the clock further log in again. */
async function advance(ms: number) {
  t.clock.advance(ms);
  admin = (await t.login()).token;
}

describe('the schedule', () => {
  it('plans cron and interval runs within start and end dates', () => {
    const from = Date.UTC(2026, 0, 1, 8, 0, 30);
    const base = { cron: null, every: null, startDate: null, endDate: null };
    expect(nextRunTime({ ...base, taskType: 1, every: 5 * MIN }, from)).toBe('2026-01-01 08:05:30');
    expect(nextRunTime({ ...base, taskType: 0, cron: '*/10 * * * * *' }, from)).toBe('2026-01-01 08:00:40');
    expect(nextRunTime({ ...base, taskType: 1, every: MIN, startDate: '2026-02-01 00:00:00' }, from)).toBe('2026-02-01 00:00:00');
    expect(nextRunTime({ ...base, taskType: 1, every: MIN, endDate: '2026-01-01 08:01:00' }, from)).toBeNull();
  });
});

describe('tasks', () => {
  it('seeds the two daily system tasks, running, which cannot be deleted', async () => {
    const list = (await call('POST', 'list', {})).body.data;
    const system = list.filter((r: any) => r.type === 0);
    expect(system.map((r: any) => [r.service, r.status])).toEqual([
      ['log.purge', 1],
      ['recycle.purge', 1],
    ]);
    // The first tick plans them (they were seeded without a next run) and runs nothing.
    expect(await schedulerFor(t.ctx).tick()).toBe(0);
    const planned = await info(system[0].id);
    expect(planned.nextRunTime).toMatch(/^2026-01-0[12] \d\d:00:00$/);
    // Both jobs exist and run (nothing to purge yet).
    for (const task of system) {
      expect((await call('POST', 'once', { id: task.id })).body.data).toMatchObject({ status: 1, detail: '{"deleted":0}' });
    }
    const del = await call('POST', 'delete', { ids: [system[0].id] });
    expect(del.body).toEqual({ code: 1001, message: 'System tasks cannot be deleted; stop them instead' });
    expect(await info(system[0].id)).toBeTruthy();
  });

  it('rejects unknown jobs, bad cron, missing schedules and bad data', async () => {
    const base = { name: 'x', service: 'log.purge', taskType: 0, cron: '0 * * * *' };
    expect((await call('POST', 'add', { ...base, service: 'rm -rf /' })).body).toEqual({ code: 1001, message: 'Unknown job "rm -rf /"' });
    const badCron = (await call('POST', 'add', { ...base, cron: 'every day' })).body;
    expect(badCron.code).toBe(1001);
    expect(badCron.message).toBe('The cron expression "every day" is invalid: write minute, hour, day of month, month and weekday, e.g. 0 3 * * * (every day at 03:00)');
    // In German too, without the scheduling library's English reason.
    const badCronDe = (await t.call('POST', '/admin/task/info/add', { token: admin, lang: 'de', body: { ...base, cron: 'not a cron' } })).body;
    expect(badCronDe.message).toMatch(/^Der Cron-Ausdruck „not a cron“ ist ungültig: Minute, Stunde/);
    expect(badCronDe.message).not.toMatch(/configuration|space separated/);
    expect((await call('POST', 'add', { ...base, cron: '' })).body.message).toBe('Give a cron expression or an interval (every, at least 1000 ms)');
    expect((await call('POST', 'add', { ...base, taskType: 1, cron: null, every: 10 })).body).toEqual({ code: 1002, message: 'every is invalid' });
    expect((await call('POST', 'add', { ...base, data: '[1,2]' })).body).toEqual({ code: 1002, message: 'data is invalid' });
    expect((await call('POST', 'add', { ...base, data: '{oops' })).body).toEqual({ code: 1002, message: 'data is invalid' });
    expect((await call('POST', 'add', { service: 'log.purge' })).body).toEqual({ code: 1002, message: 'name cannot be empty' });
  });

  it('start plans the next run, tick runs it when due, stop ends it; every run is logged', async () => {
    const id = (await call('POST', 'add', { name: 'Trim log', service: 'log.purge', taskType: 1, every: 10 * MIN, data: { days: 1 } })).body.data.id;
    const added = await info(id);
    expect(added).toMatchObject({ type: 1, status: 0, nextRunTime: null, data: '{"days":1}' });

    const start = await call('POST', 'start', { id });
    expect(start.body.data.nextRunTime).toBe(formatTime(t.clock.now() + 10 * MIN));
    expect(await schedulerFor(t.ctx).tick()).toBe(0);
    expect((await runs(id)).list).toEqual([]);

    await advance(10 * MIN);
    expect(await schedulerFor(t.ctx).tick()).toBeGreaterThanOrEqual(1);
    const log = await runs(id);
    expect(log.pagination.total).toBe(1);
    expect(log.list[0]).toMatchObject({ taskId: id, taskName: 'Trim log', status: 1, trigger: 'schedule' });
    expect(JSON.parse(log.list[0].detail)).toEqual({ deleted: expect.any(Number) });
    const after = await info(id);
    expect(after.nextRunTime).toBe(formatTime(t.clock.now() + 10 * MIN));
    expect(after.runCount).toBe(1);
    expect(after.lastRunTime).toBe(formatTime(t.clock.now()));

    expect((await call('POST', 'stop', { id })).body.code).toBe(1000);
    expect(await info(id)).toMatchObject({ status: 0, nextRunTime: null });
    await advance(60 * MIN);
    await schedulerFor(t.ctx).tick();
    expect((await runs(id)).pagination.total).toBe(1);
  });

  it('once runs now without touching the schedule; a failing job is logged as a failure', async () => {
    const id = (await call('POST', 'add', { name: 'Bad days', service: 'log.purge', taskType: 0, cron: '0 0 1 1 *', data: '{"days":-3}' })).body.data.id;
    const run = await call('POST', 'once', { id });
    expect(run.body.data).toMatchObject({ taskId: id, status: 0, trigger: 'manual', detail: 'data.days must be a whole number of days, at least 1' });
    await call('POST', 'update', { id, data: { days: 400 } });
    const ok = await call('POST', 'once', { id });
    expect(ok.body.data).toMatchObject({ status: 1, trigger: 'manual' });
    expect(await info(id)).toMatchObject({ status: 0, nextRunTime: null, runCount: 0 });
    expect((await runs(id)).list.map((r: any) => r.status)).toEqual([1, 0]);
    expect((await call('POST', 'once', { id: 9999 })).body).toEqual({ code: 1001, message: 'Data does not exist' });
  });

  it('stops by itself after its run limit', async () => {
    const id = (await call('POST', 'add', { name: 'Twice', service: 'log.purge', taskType: 1, every: MIN, limit: 2, status: 1 })).body.data.id;
    expect((await info(id)).status).toBe(1);
    for (let i = 0; i < 4; i++) {
      await advance(MIN);
      await schedulerFor(t.ctx).tick();
    }
    expect((await runs(id)).pagination.total).toBe(2);
    expect(await info(id)).toMatchObject({ status: 0, nextRunTime: null, runCount: 2 });
    // Starting again begins a new count.
    await call('POST', 'start', { id });
    expect(await info(id)).toMatchObject({ status: 1, runCount: 0 });
  });

  it('refuses to start a task whose end date has passed', async () => {
    const id = (await call('POST', 'add', { name: 'Over', service: 'log.purge', taskType: 1, every: MIN, endDate: '2025-01-01' })).body.data.id;
    expect((await call('POST', 'start', { id })).body).toEqual({
      code: 1001,
      message: 'The task has no run left (end date passed or run limit reached)',
    });
  });

  it('deletes runs one by one or all of a task', async () => {
    const id = (await call('POST', 'add', { name: 'Logs', service: 'log.purge', taskType: 0, cron: '0 0 * * *' })).body.data.id;
    for (let i = 0; i < 3; i++) await call('POST', 'once', { id });
    const list = (await runs(id)).list;
    expect(list).toHaveLength(3);
    await call('POST', 'deleteLog', { ids: [list[0].id] });
    expect((await runs(id)).pagination.total).toBe(2);
    await call('POST', 'deleteLogAll', { id });
    expect((await runs(id)).pagination.total).toBe(0);
    expect((await call('POST', 'deleteLog', { ids: [] })).body.code).toBe(1002);
    // Deleting the task deletes its runs.
    await call('POST', 'once', { id });
    await call('POST', 'delete', { ids: [id] });
    expect(await t.ctx.db.selectFrom('task_log').select('id').where('taskId', '=', id).execute()).toEqual([]);
  });

  it('lists the built-in jobs', async () => {
    const jobs = (await call('GET', 'jobs')).body.data;
    expect(jobs.map((j: any) => j.name)).toEqual(expect.arrayContaining(['log.purge', 'recycle.purge']));
  });

  it('every call needs its permission', async () => {
    for (const [method, path, body] of [
      ['POST', 'page', {}],
      ['POST', 'start', { id: 1 }],
      ['POST', 'stop', { id: 1 }],
      ['POST', 'once', { id: 1 }],
      ['GET', 'log', undefined],
      ['POST', 'deleteLogAll', {}],
    ] as const) {
      expect((await call(method, path, body, plain)).status).toBe(403);
    }
    const roleId = await createRole(t.ctx, 'runner', ['task:info:once', 'task:info:page']);
    const runner = await insertUser(t, 'runner', 'runner-pass', [roleId]);
    const first = (await call('POST', 'page', {}, runner)).body.data.list[0];
    expect((await call('POST', 'once', { id: first.id }, runner)).body.code).toBe(1000);
    expect((await call('POST', 'start', { id: first.id }, runner)).status).toBe(403);
  });
});
