// The editor's calls to the bending machines, under /admin/design/*: queue a bend job (checked
// against the device first, stored before anything is sent), the queue, the usable devices and
// cancel. Jobs live in the device hub's service (server/modules/device-hub/jobs.ts); the device
// hears of them through ctx.delivery (server/core/delivery.ts), never from here directly. Without
// a running hub (app.request tests) jobs stay queued.
import { Hono } from 'hono';
import { z } from 'zod';
import { MAX_PROGRAM_STEPS } from '../../../common/bend-program.ts';
import { bendBodySchema, bendStepSchema, bendWireSchema, jobIdSchema, queueListSchema } from '../../../common/bend-request.ts';
import { WIRE_TYPES } from '../../../common/wires.ts';
import type { AppContext } from '../../context.ts';
import { authOf, SEE_ALL, seesAll } from '../../core/access.ts';
import type { AppEnv } from '../../core/env.ts';
import { Code, ok } from '../../core/envelope.ts';
import { entryDoc, epsGroup } from '../../core/eps.ts';
import { ApiError, fail, invalidField } from '../../core/errors.ts';
import { validate, validationError } from '../../core/validate.ts';
import { bendTarget, deviceList, jobOwner, jobStatus, queueList, transition, usableDeviceIds } from '../device-hub/jobs.ts';
import { checkProgram, queueBend } from './bend-queue.ts';
import { visibleOrder } from './service.ts';

const PREFIX = '/admin/design';

const BEND = epsGroup('design', PREFIX, 'DesignBend');

export function bendRoutes(ctx: AppContext) {
  const doc = entryDoc(BEND);

  const usable = async (userId: number) => usableDeviceIds(ctx.db, userId, await seesAll(ctx.db, userId, SEE_ALL.devices));

  async function cancel(c: Parameters<typeof authOf>[0], jobId: string) {
    const { userId } = authOf(c);
    const job = await jobOwner(ctx.db, jobId);
    if (!job || (job.userId !== userId && !(await seesAll(ctx.db, userId, SEE_ALL.devices)))) throw fail('hubJobNotFound');
    const goneMs = ctx.config.deviceGoneCancelMs;
    // A job its device is bending may be cancelled only once the device has been gone for goneMs
    // (it may never report on it again); the check is part of the update.
    if (!(await transition(ctx, jobId, 'cancelled', { detail: `user ${userId}`, deviceOfflineSince: ctx.clock.now() - goneMs }))) {
      const status = await jobStatus(ctx.db, jobId);
      if (status === 'bending') {
        throw fail('hubJobOnDevice', { status, minutes: Math.round(goneMs / 6000) / 10 });
      }
      throw fail('hubJobStarted', { status });
    }
    if (job.status !== 'queued') ctx.delivery.cancel(job.deviceId, jobId);
    return ok(c, { jobId, status: 'cancelled' });
  }

  return new Hono<AppEnv>()
    .post(`${PREFIX}/bend`, doc('Queue a bend program for a device: { deviceId, orderId?, wire, steps } -> { jobId }'), validate('json', bendBodySchema), async (c) => {
      const body = c.req.valid('json');
      const { userId } = authOf(c);
      const deviceId = Number(body.deviceId);
      const device = Number.isInteger(deviceId) && deviceId > 0 ? await bendTarget(ctx.db, deviceId) : undefined;
      if (!device) throw fail('hubNoDevice');
      const devices = await usable(userId);
      if (devices && !devices.includes(device.id)) throw fail('hubNotBound');
      if (!body.wire || !Array.isArray(body.steps) || body.steps.length === 0) throw fail('hubNoWire');
      const wire = bendWireSchema.safeParse(body.wire);
      if (!wire.success) {
        // A wire type outside the product's list (common/wires.ts) is named, with the list.
        const type = (body.wire as { type?: unknown } | null)?.type;
        if (wire.error.issues[0]?.path[0] === 'type' && typeof type === 'string' && type.trim() !== '') {
          throw new ApiError(Code.validation, 'wireTypeUnknown', 200, { field: 'wire.type', type: type.slice(0, 64), types: WIRE_TYPES.join(', ') });
        }
        throw invalidField('wire');
      }
      if (body.steps.length > MAX_PROGRAM_STEPS) throw fail('hubTooManySteps', { steps: body.steps.length, max: MAX_PROGRAM_STEPS });
      const steps = z.array(bendStepSchema).safeParse(body.steps);
      if (!steps.success) throw validationError(steps.error.issues.map((i) => ({ path: ['steps', ...i.path] })), { steps: body.steps });
      await checkProgram(ctx, device, wire.data, steps.data);
      const orderId = body.orderId === undefined || body.orderId === null || body.orderId === '' ? null : Number(body.orderId);
      if (orderId !== null && !(Number.isInteger(orderId) && orderId > 0)) throw invalidField('orderId');
      // The same rule as the design document: the order's designer or an orders admin.
      if (orderId !== null && !(await visibleOrder(ctx.db, userId, orderId))) throw fail('designOrderNotFound');
      return ok(c, { jobId: await queueBend(ctx, device, { userId, orderId, wire: wire.data, steps: steps.data }) });
    })
    .post(`${PREFIX}/getQueueList`, doc('Bend jobs, newest first ({ deviceId?, mine? }); non-admins see their own'), validate('json', queueListSchema), async (c) => {
      const { deviceId, mine, status, limit } = c.req.valid('json');
      const { userId } = authOf(c);
      const admin = await seesAll(ctx.db, userId, SEE_ALL.devices);
      return ok(
        c,
        await queueList(ctx, {
          ...(!admin || mine ? { userId } : {}),
          ...(deviceId ? { deviceId } : {}),
          ...(status ? { status } : {}),
          limit: limit ?? 200,
        }),
      );
    })
    .post(`${PREFIX}/userDeviceList`, doc('Devices the caller may bend on, with online status and state'), async (c) => {
      const { userId } = authOf(c);
      return ok(c, await deviceList(ctx.db, await usable(userId)));
    })
    .post(`${PREFIX}/cancel`, doc('Cancel a job not yet started ({ jobId })'), validate('json', jobIdSchema), (c) => cancel(c, c.req.valid('json').jobId))
    // Another name for /cancel, answered for callers that use it; same call (not listed in eps).
    .post(`${PREFIX}/cancelJob`, validate('json', jobIdSchema), (c) => cancel(c, c.req.valid('json').jobId));
}
