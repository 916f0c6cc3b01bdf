// The states of bend jobs and devices (device-protocol.md, docs/device-bridge.md "Jobs"): one
// list for the server's state machine and the editor's queue view. Pure: no DOM, worker or Node imports.

export const JOB_STATES = ['queued', 'sent', 'acked', 'bending', 'done', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** Jobs not started on the machine: these may always be cancelled (the device drops them). */
export const NOT_STARTED: readonly JobState[] = ['queued', 'sent', 'acked'];

/** Jobs not finished: a device's `pending` count (userDeviceList) and the editor's queue. */
export const UNFINISHED: readonly JobState[] = ['queued', 'sent', 'acked', 'bending'];

/** What a device may report in `status`. */
export const DEVICE_STATES = ['idle', 'bending', 'error', 'maintenance'] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];

/** The state userDeviceList reports for a device that is not connected. */
export const OFFLINE = 'offline';
/** A device's state as the device lists report it: what it said, or offline. */
export type ListedDeviceState = typeof OFFLINE | DeviceState;

/** The error code of a job the hub found interrupted on reconnect (docs/device-bridge.md, "Reconciling"). */
export const INTERRUPTED = 'interrupted';
