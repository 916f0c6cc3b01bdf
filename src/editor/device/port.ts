// The editor's four device calls behind one small port, so that the same code runs in the page
// (the session's request()) and in tests (fetch against a real server). A port is built from one
// function that posts a body and returns the server's envelope; it throws only when the call
// itself failed (network, timeout), which the Bend flow reports as "Network exception".
import type { BendBody, QueueJob, UserDevice } from './types.ts';

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data?: T;
}

/** Posts `body` to `url` (e.g. /admin/design/bend); resolves to the envelope, rejects on a failed call. */
export type PostEnvelope = (url: string, body: unknown) => Promise<Envelope>;

/** A refusal by the server (envelope code other than 1000), with the server's message. */
export class DeviceRefusal extends Error {
  override readonly name = 'DeviceRefusal';
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/** The call did not reach the server or its answer was lost. */
export class DeviceNetworkError extends Error {
  override readonly name = 'DeviceNetworkError';
}

export interface QueueQuery {
  deviceId?: number;
  mine?: boolean;
  limit?: number;
}

export interface DevicePort {
  devices(): Promise<UserDevice[]>;
  queue(query: QueueQuery): Promise<QueueJob[]>;
  bend(body: BendBody): Promise<{ jobId: string }>;
  cancel(jobId: string): Promise<void>;
}

const PREFIX = '/admin/design';

export function devicePort(post: PostEnvelope): DevicePort {
  async function call<T>(path: string, body: unknown): Promise<T> {
    let envelope: Envelope;
    try {
      envelope = await post(`${PREFIX}/${path}`, body);
    } catch (e) {
      if (e instanceof DeviceRefusal) throw e;
      throw new DeviceNetworkError(e instanceof Error ? e.message : String(e));
    }
    if (envelope.code !== 1000) throw new DeviceRefusal(envelope.message, envelope.code);
    return envelope.data as T;
  }
  return {
    devices: () => call<UserDevice[]>('userDeviceList', {}),
    queue: (query) => call<QueueJob[]>('getQueueList', query),
    bend: (body) => call<{ jobId: string }>('bend', body),
    cancel: async (jobId) => void (await call('cancel', { jobId })),
  };
}
