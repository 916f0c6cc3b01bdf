// "Deliver to device X": how a route that stored or cancelled a bend job reaches the process that
// holds the device's WebSocket (ARCHITECTURE.md, "Scaling out"). Routes call ctx.delivery, never
// the hub. The first implementation is in-process: the hub of this process receives everything.
// Several processes on one PostgreSQL database use server/core/delivery-pg.ts instead: the calls
// NOTIFY, and each process's hub LISTENs and acts for the devices connected to it. A notice that
// is lost (a listener reconnecting) costs latency, never a job: every hub's tick sends what is due
// from the database.

/** What a hub does with a delivery for a device it may hold (DeviceHub). */
export interface DeviceReceiver {
  /** Jobs for this device are waiting in the database: send them if it is connected here. */
  dispatch(deviceId: number): Promise<void>;
  /** Tell this device, if connected here, to drop a cancelled job. */
  sendCancel(deviceId: number, jobId: string): void;
  /** The device said hello to hub `hub`: a connection to it held by another hub is stale. */
  connectedTo(deviceId: number, hub: string): void;
}

export interface DeviceDelivery {
  /** Jobs for `deviceId` were stored: whoever holds its connection sends them now (else on its next connection). */
  jobsWaiting(deviceId: number): void;
  /** A job `deviceId` may hold was cancelled: whoever holds its connection tells it to drop the job. */
  cancel(deviceId: number, jobId: string): void;
  /** Device `deviceId` connected to hub `hub`: the others drop their connections to it. */
  connected(deviceId: number, hub: string): void;
  /** A hub starts receiving deliveries (all of them: it ignores devices it does not hold); returns the stop. */
  receive(receiver: DeviceReceiver): () => void;
  /** Resolves once notices from other processes arrive (a listening connection is up). */
  ready?(): Promise<void>;
  /** Ends what the delivery holds open (a listening connection). */
  close?(): Promise<void>;
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

  connected(deviceId: number, hub: string): void {
    for (const r of this.receivers) r.connectedTo(deviceId, hub);
  }

  receive(receiver: DeviceReceiver): () => void {
    this.receivers.add(receiver);
    return () => this.receivers.delete(receiver);
  }
}
