// "Deliver to device X": how a route that stored or cancelled a bend job reaches the process that
// holds the device's WebSocket (ARCHITECTURE.md, "Scaling out"). Routes call ctx.delivery, never
// the hub. The first implementation is in-process: the hub of this process receives everything.
// A second process would implement the same interface over PostgreSQL LISTEN/NOTIFY: the two
// calls NOTIFY, and each process's hub LISTENs and acts for the devices connected to it.

/** What a hub does with a delivery for a device it may hold (DeviceHub). */
export interface DeviceReceiver {
  /** Jobs for this device are waiting in the database: send them if it is connected here. */
  dispatch(deviceId: number): Promise<void>;
  /** Tell this device, if connected here, to drop a cancelled job. */
  sendCancel(deviceId: number, jobId: string): void;
}

export interface DeviceDelivery {
  /** Jobs for `deviceId` were stored: whoever holds its connection sends them now (else on its next connection). */
  jobsWaiting(deviceId: number): void;
  /** A job `deviceId` may hold was cancelled: whoever holds its connection tells it to drop the job. */
  cancel(deviceId: number, jobId: string): void;
  /** A hub starts receiving deliveries (all of them: it ignores devices it does not hold); returns the stop. */
  receive(receiver: DeviceReceiver): () => void;
}

/**
 * One process: deliveries go straight to the hubs of this process. Without one (app.request
 * tests, a process that serves no WebSockets) nothing is delivered: jobs stay queued and go out
 * when the device connects to a hub.
 */
export class InProcessDelivery implements DeviceDelivery {
  private readonly receivers = new Set<DeviceReceiver>();

  jobsWaiting(deviceId: number): void {
    // dispatch never rejects: a failed send leaves the job stored for the hub's next tick.
    for (const r of this.receivers) void r.dispatch(deviceId);
  }

  cancel(deviceId: number, jobId: string): void {
    for (const r of this.receivers) r.sendCancel(deviceId, jobId);
  }

  receive(receiver: DeviceReceiver): () => void {
    this.receivers.add(receiver);
    return () => this.receivers.delete(receiver);
  }
}
