// The editor's calls to the bending machines, under /admin/design/*: queue a bend job (checked
// against the device first, stored before anything is sent), the queue, the usable devices and
// cancel. The WebSocket side is hub.ts; without a running hub (app.request tests) jobs stay queued.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { ok } from '../../core/envelope.ts';
import { addEps, type Eps } from '../../core/eps.ts';
import { fail, invalidField } from '../../core/errors.ts';
import { validate } from '../../core/validate.ts';
import { authOf, SEE_ALL, seesAll } from '../space/access.ts';
import { hubOf } from './hub.ts';
import { insertJob, JOB_STATES, transition, type Step } from './jobs.ts';

export { hubOf } from './hub.ts';

const PREFIX = '/admin/design';

// Loose on purpose: a missing device or wire gets the specification's message, not "invalid".
const bendBody = z.object({
  deviceId: z.unknown().optional(),
  orderId: z.unknown().optional(),
  wire: z.unknown().optional(),
  steps: z.unknown().optional(),
});
const wireSchema = z.object({
  type: z.string().trim().min(1).max(64),
  diameter: z.coerce.number().positive().max(10),
  material: z.string().max(64).nullable().optional(),
});
const stepSchema = z.object({ feed: z.number().finite().min(0), rotate: z.number().finite(), bend: z.number().finite() });
const queueBody = z.object({
  deviceId: z.coerce.number().int().positive().optional(),
  mine: z.union([z.boolean(), z.literal(0), z.literal(1)]).optional(),
  status: z.enum(JOB_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
const jobBody = z.object({ jobId: z.string().min(1).max(64) });

async function usableDeviceIds(ctx: AppContext, userId: number): Promise<number[] | undefined> {
  if (await seesAll(ctx.db, userId, SEE_ALL.devices)) return undefined;
  const bound = await ctx.db.selectFrom('device_user').select('deviceId').where('userId', '=', userId).execute();
  const owned = await ctx.db.selectFrom('device_info').select('id').where('personnelId', '=', userId).execute();
  return [...new Set([...bound.map((r) => r.deviceId), ...owned.map((r) => r.id)])];
}

export function deviceHubModule(ctx: AppContext, eps: Eps) {
  addEps(eps, 'design', { prefix: PREFIX, name: 'DesignBend', columns: [], api: [
    { method: 'post', path: '/bend', summary: 'Queue a bend program for a device: { deviceId, orderId?, wire, steps } -> { jobId }' },
    { method: 'post', path: '/getQueueList', summary: 'Bend jobs, newest first ({ deviceId?, mine? }); non-admins see their own' },
    { method: 'post', path: '/userDeviceList', summary: 'Devices the caller may bend on, with online status and state' },
    { method: 'post', path: '/cancel', summary: 'Cancel a job not yet started ({ jobId })' },
  ] });

  async function cancel(c: Parameters<typeof authOf>[0], jobId: string) {
    const { userId } = authOf(c);
    const job = await ctx.db.selectFrom('device_job').select(['jobId', 'deviceId', 'userId', 'status']).where('jobId', '=', jobId).executeTakeFirst();
    if (!job || (job.userId !== userId && !(await seesAll(ctx.db, userId, SEE_ALL.devices)))) throw fail('hubJobNotFound');
    if (!(await transition(ctx, jobId, 'cancelled', { detail: `user ${userId}` }))) {
      const now = await ctx.db.selectFrom('device_job').select('status').where('jobId', '=', jobId).executeTakeFirstOrThrow();
      throw fail('hubJobStarted', { status: now.status });
    }
    if (job.status !== 'queued') hubOf(ctx)?.sendCancel(job.deviceId, jobId);
    return ok(c, { jobId, status: 'cancelled' });
  }

  return new Hono<AppEnv>()
    .post(`${PREFIX}/bend`, validate('json', bendBody), async (c) => {
      const body = c.req.valid('json');
      const { userId } = authOf(c);
      const deviceId = Number(body.deviceId);
      const device =
        Number.isInteger(deviceId) && deviceId > 0
          ? await ctx.db.selectFrom('device_info').select(['id', 'diameters', 'memory']).where('id', '=', deviceId).executeTakeFirst()
          : undefined;
      if (!device) throw fail('hubNoDevice');
      const usable = await usableDeviceIds(ctx, userId);
      if (usable && !usable.includes(device.id)) throw fail('hubNotBound');
      if (!body.wire || !Array.isArray(body.steps) || body.steps.length === 0) throw fail('hubNoWire');
      const wire = wireSchema.safeParse(body.wire);
      if (!wire.success) throw invalidField('wire');
      const steps = z.array(stepSchema).safeParse(body.steps);
      if (!steps.success) throw invalidField('steps');
      const diameters = device.diameters.split(',').map(Number);
      const diameter = Math.round(wire.data.diameter * 100) / 100;
      if (!diameters.some((d) => Math.abs(d - diameter) < 1e-6)) {
        throw fail('hubDiameterMismatch', { diameter, diameters: diameters.join(', ') });
      }
      if (steps.data.length > device.memory) throw fail('hubOverMemory', { steps: steps.data.length, memory: device.memory });
      const orderId = body.orderId === undefined || body.orderId === null || body.orderId === '' ? null : Number(body.orderId);
      if (orderId !== null && !(Number.isInteger(orderId) && orderId > 0)) throw invalidField('orderId');
      // The same rule as the design calls: the order's designer or an orders admin.
      if (orderId !== null) {
        let order = ctx.db.selectFrom('order_info').select('id').where('id', '=', orderId);
        if (!(await seesAll(ctx.db, userId, SEE_ALL.orders))) order = order.where('designerId', '=', userId);
        if (!(await order.executeTakeFirst())) throw fail('designOrderNotFound');
      }
      const jobId = await insertJob(ctx, {
        deviceId: device.id,
        userId,
        orderId,
        wire: { type: wire.data.type, diameter, ...(wire.data.material ? { material: wire.data.material } : {}) },
        steps: steps.data as Step[],
      });
      // Stored: the reply does not wait for the device; the hub sends it now or when it connects.
      void hubOf(ctx)?.dispatch(device.id);
      return ok(c, { jobId });
    })
    .post(`${PREFIX}/getQueueList`, validate('json', queueBody), async (c) => {
      const { deviceId, mine, status, limit } = c.req.valid('json');
      const { userId } = authOf(c);
      const admin = await seesAll(ctx.db, userId, SEE_ALL.devices);
      let q = ctx.db
        .selectFrom('device_job as j')
        .leftJoin('device_info as d', 'd.id', 'j.deviceId')
        .leftJoin('base_sys_user as u', 'u.id', 'j.userId')
        .leftJoin('order_info as o', 'o.id', 'j.orderId')
        .select([
          'j.jobId', 'j.deviceId', 'd.devicename as deviceName', 'j.orderId', 'o.caseNo', 'j.userId', 'u.name as userName', 'j.status',
          'j.step', 'j.stepCount as steps', 'j.errorCode', 'j.errorMessage', 'j.bendMs', 'j.createTime', 'j.updateTime',
        ])
        .orderBy('j.id', 'desc')
        .limit(limit ?? 200);
      if (!admin || mine) q = q.where('j.userId', '=', userId);
      if (deviceId) q = q.where('j.deviceId', '=', deviceId);
      if (status) q = q.where('j.status', '=', status);
      return ok(c, await q.execute());
    })
    .post(`${PREFIX}/userDeviceList`, async (c) => {
      const { userId } = authOf(c);
      const usable = await usableDeviceIds(ctx, userId);
      let q = ctx.db
        .selectFrom('device_info as d')
        .leftJoin('device_link as l', 'l.deviceId', 'd.id')
        .select(['d.id', 'd.devicename', 'd.status', 'd.diameters', 'd.memory', 'd.dieRadius', 'l.state', 'l.detail', 'l.statusTime', 'l.serial', 'l.firmware'])
        .orderBy('d.id');
      if (usable) q = usable.length ? q.where('d.id', 'in', usable) : q.where('d.id', '=', -1);
      const rows = await q.execute();
      const pending = rows.length
        ? await ctx.db
            .selectFrom('device_job')
            .select(['deviceId', (eb) => eb.fn.countAll<number>().as('n')])
            .where('status', 'in', ['queued', 'sent', 'acked', 'bending'])
            .where('deviceId', 'in', rows.map((r) => r.id))
            .groupBy('deviceId')
            .execute()
        : [];
      const count = new Map(pending.map((p) => [p.deviceId, Number(p.n)]));
      // The calibration the editor compensates bends with (device config, per wire diameter).
      const configs = rows.length
        ? await ctx.db.selectFrom('device_config').select(['deviceId', 'diameter', 'springback']).where('deviceId', 'in', rows.map((r) => r.id)).orderBy('diameter').execute()
        : [];
      const springback = (id: number) =>
        configs.filter((k) => k.deviceId === id).map((k) => ({ diameter: k.diameter, table: JSON.parse(String(k.springback)) as [number, number][] }));
      return ok(
        c,
        rows.map((r) => ({
          ...r,
          online: r.status === 1,
          state: r.status === 1 ? (r.state ?? 'idle') : 'offline',
          diameterList: r.diameters.split(',').map(Number),
          pending: count.get(r.id) ?? 0,
          springback: springback(r.id),
        })),
      );
    })
    .post(`${PREFIX}/cancel`, validate('json', jobBody), (c) => cancel(c, c.req.valid('json').jobId))
    // The name the editor's brief used; same call.
    .post(`${PREFIX}/cancelJob`, validate('json', jobBody), (c) => cancel(c, c.req.valid('json').jobId));
}
