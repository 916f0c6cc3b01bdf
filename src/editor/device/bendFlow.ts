// "Bend": the selected wire to the selected device (spec sections 5, 8, 9). The order of
// the decisions follows the server's (device, then wire): no device -> "Add failed, no device
// selected"; no wire -> "Bending failed, no bow wire was selected"; then the program and every
// check before sending (errors stop, warnings go along); then POST /admin/design/bend, whose
// refusals are shown as the server words them, and whose failure as a call is "Network
// exception, failed to send data.".
import type { BendCheckInput, BendCheckResult, BendIssue } from '../../geometry/client.ts';
import type { WireDesign } from '../engine/document.ts';
import { springbackTableProblem } from '../../../common/springback.ts';
import { DeviceRefusal, type DevicePort } from './port.ts';
import type { UserDevice } from './types.ts';

/**
 * Radius of the bend arcs' centreline (mm) when the device names none (the job does not carry it,
 * device-protocol.md: the program is computed for the device's die, set in the back office).
 */
const DIE_RADIUS_MM = 1;

/** The die radius a device's programs are computed for. */
function dieRadiusOf(device: UserDevice | null): number {
  return device?.dieRadius && device.dieRadius > 0 ? device.dieRadius : DIE_RADIUS_MM;
}

export type BendOutcome =
  | { kind: 'sent'; jobId: string; warnings: BendIssue[]; steps: number }
  | { kind: 'noDevice' }
  | { kind: 'noWire' }
  /** The device's springback table for the wire's diameter does not rise (the back office accepts it). */
  | { kind: 'badTable'; diameter: number }
  | { kind: 'invalid'; issues: BendIssue[]; steps: number | null }
  | { kind: 'refused'; message: string }
  | { kind: 'network' };

export interface BendRequest {
  wire: WireDesign | null;
  device: UserDevice | null;
  orderId: number | null;
}

export interface BendDeps {
  bendCheck(input: BendCheckInput): Promise<BendCheckResult>;
  port: DevicePort;
}

/** The device's springback table for a wire diameter, if it has one. */
export function springbackFor(device: UserDevice | null, diameter: number): [number, number][] | undefined {
  return device?.springback?.find((s) => Math.abs(s.diameter - diameter) < 1e-6)?.table;
}

/** What bendCheck gets for a wire on a device (the corners in mm, the die, the table, the device). */
export function checkInput(wire: WireDesign, device: UserDevice | null): BendCheckInput {
  const springback = springbackFor(device, wire.diameter);
  return {
    points: wire.points.map((p) => [p.point[0], p.point[1], p.point[2]] as [number, number, number]),
    wire: { type: wire.type, diameter: wire.diameter },
    program: { radius: dieRadiusOf(device), ...(springback ? { springback } : {}) },
    // The chosen device's head; without one the checks use the default head.
    ...(device?.head?.length ? { head: device.head } : {}),
    ...(device ? { device: { diameters: device.diameterList, memory: device.memory } } : {}),
  };
}

export async function bendWire(req: BendRequest, deps: BendDeps): Promise<BendOutcome> {
  const { wire, device } = req;
  if (!device) return { kind: 'noDevice' };
  if (!wire) return { kind: 'noWire' };
  const table = springbackFor(device, wire.diameter);
  if (table && springbackTableProblem(table)) return { kind: 'badTable', diameter: wire.diameter };
  const check = await deps.bendCheck(checkInput(wire, device));
  if (!check.ok || !check.program) return { kind: 'invalid', issues: check.issues.filter((i) => i.severity === 'error'), steps: check.program?.steps.length ?? null };
  const steps = check.program.steps;
  try {
    const { jobId } = await deps.port.bend({
      deviceId: device.id,
      orderId: req.orderId,
      wire: { type: wire.type, diameter: wire.diameter, id: wire.id },
      steps,
    });
    return { kind: 'sent', jobId, warnings: check.issues.filter((i) => i.severity === 'warning'), steps: steps.length };
  } catch (e) {
    if (e instanceof DeviceRefusal) return { kind: 'refused', message: e.message };
    return { kind: 'network' };
  }
}
