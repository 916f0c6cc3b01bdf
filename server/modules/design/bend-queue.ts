// A checked program to a device's queue, whoever sends it (the editor's POST /admin/design/bend,
// a partner's open `bend`): the program within the machine's limits (common/bend-program.ts),
// the wire's diameter one the device takes, the program within its memory; a wire the automatic
// design made and no designer accepted only to an AI-enabled device; then the job is stored and
// the device's hub told (ctx.delivery), never sent from here directly.
import type { z } from 'zod';
import { isDesignerWire, type WireAiMark } from '../../../common/ai.ts';
import { stepProblems, type BendStep } from '../../../common/bend-program.ts';
import type { bendWireSchema } from '../../../common/bend-request.ts';
import type { AppContext } from '../../context.ts';
import { Code } from '../../core/envelope.ts';
import { ApiError, fail } from '../../core/errors.ts';
import { bendTarget, insertJob } from '../device-hub/jobs.ts';
import { headCollision } from '../device/head-check.ts';

type Device = NonNullable<Awaited<ReturnType<typeof bendTarget>>>;
type Wire = z.output<typeof bendWireSchema>;

/** The design document's wire of this id, if any. */
function storedWire(data: string, id: string): { ai?: WireAiMark | null } | undefined {
  try {
    const doc = JSON.parse(data) as { wires?: unknown };
    if (!Array.isArray(doc.wires)) return undefined;
    return (doc.wires as ({ id?: unknown; ai?: WireAiMark | null } | null)[]).find((w) => w && (typeof w.id === 'string' || typeof w.id === 'number') && String(w.id) === id) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the wire is a designer's (common/ai.ts isDesignerWire): the order's stored design
 * decides for a wire it holds (by id); otherwise the body's own mark.
 */
async function designersWire(ctx: AppContext, orderId: number | null, wire: { id?: string | number; ai?: { accepted: boolean } | null }): Promise<boolean> {
  if (orderId !== null && wire.id !== undefined) {
    const row = await ctx.db.selectFrom('design_data').select('data').where('orderId', '=', orderId).executeTakeFirst();
    const stored = row ? storedWire(row.data, String(wire.id)) : undefined;
    if (stored) return isDesignerWire(stored);
  }
  return isDesignerWire(wire);
}

/** Refuses a program the device cannot take: the first value outside the limits is named
 * ("steps.0.feed is invalid: 1e+300 is outside (0, 120]"), then the diameter, then the memory,
 * then a collision with the device's own bending head (device_info.head, else the default), as
 * the editor checks it. */
export async function checkProgram(ctx: AppContext, device: Device, wire: Wire, steps: readonly BendStep[]): Promise<void> {
  const outside = stepProblems(steps)[0];
  if (outside) {
    throw new ApiError(Code.validation, 'hubStepLimit', 200, { field: `steps.${outside.step}.${outside.field}`, value: String(outside.value), range: outside.range });
  }
  const diameters = device.diameters.split(',').map(Number);
  const diameter = Math.round(wire.diameter * 100) / 100;
  if (!diameters.some((d) => Math.abs(d - diameter) < 1e-6)) {
    throw fail('hubDiameterMismatch', { diameter, diameters: diameters.join(', ') });
  }
  if (steps.length > device.memory) throw fail('hubOverMemory', { steps: steps.length, memory: device.memory });
  const hit = await headCollision(ctx.db, ctx.logger, device.id, steps, diameter);
  if (hit) throw fail('hubCollision', { step: hit.step + 1, phase: hit.phase });
}

/** Stores the job (after checkProgram) and tells the device's hub; answers the job id. */
export async function queueBend(ctx: AppContext, device: Device, job: { userId: number; orderId: number | null; wire: Wire; steps: BendStep[] }): Promise<string> {
  const { wire } = job;
  if (!device.enableAI && !(await designersWire(ctx, job.orderId, wire))) throw fail('hubAiWire', { device: device.devicename });
  const jobId = await insertJob(ctx, {
    deviceId: device.id,
    userId: job.userId,
    orderId: job.orderId,
    wire: { type: wire.type, diameter: Math.round(wire.diameter * 100) / 100, ...(wire.material ? { material: wire.material } : {}), ...(wire.id !== undefined ? { id: String(wire.id) } : {}) },
    steps: job.steps,
  });
  // Stored: the reply does not wait for the device; its hub sends it now or when it connects.
  ctx.delivery.jobsWaiting(device.id);
  return jobId;
}
