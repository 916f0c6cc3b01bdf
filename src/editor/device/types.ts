// What the editor reads of the device hub (docs/device-bridge.md, "HTTP calls"): the devices the
// user may bend on and the bend queue. Field names are the server's.

import type { HeadBox } from '../../../common/bend-program.ts';
import { type DeviceState as ReportedState, type JobState, NOT_STARTED } from '../../../common/device-jobs.ts';

/** A device state as userDeviceList reports it ('offline' when not connected). */
export type DeviceState = 'offline' | ReportedState;

export interface UserDevice {
  id: number;
  devicename: string;
  online: boolean;
  state: DeviceState | string;
  detail: string | null;
  diameterList: number[];
  memory: number;
  /** Radius of the bend arcs' centreline (mm) the device's programs are computed for; older servers: absent. */
  dieRadius?: number;
  /** The device's bending head (its own or the default), for the collision check; older servers: absent (the default head). */
  head?: HeadBox[];
  /** Jobs not finished (queued, sent, acked, bending). */
  pending: number;
  /** Springback tables per wire diameter (device config), when the server sends them. */
  springback?: { diameter: number; table: [number, number][] }[];
}

export type JobStatus = JobState;
/** States in which a job may still be cancelled (not started); the server's `cancellable` says more. */
export const CANCELLABLE: readonly JobStatus[] = NOT_STARTED;

export interface QueueJob {
  jobId: string;
  deviceId: number;
  deviceName: string | null;
  orderId: number | null;
  /** The order's case number (what people call an order by); null without an order. */
  caseNo?: string | null;
  userId: number;
  userName: string | null;
  status: JobStatus;
  /** Steps done while bending. */
  step: number | null;
  steps: number;
  errorCode: string | null;
  errorMessage: string | null;
  bendMs: number | null;
  createTime: string;
  updateTime: string;
  /** POST cancel would accept it now (also a bending job on a device gone for a while); older servers: absent. */
  cancellable?: boolean;
}

export interface BendBody {
  deviceId: number | null;
  orderId?: number | null;
  /** `id`: the design's wire, so the server knows when every wire of the order's design was bent (the order is then processed). */
  wire: { type: string; diameter: number; id?: string | number } | null;
  steps: { feed: number; rotate: number; bend: number }[];
}
