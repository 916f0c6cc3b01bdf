// The editor's four device calls behind one small port, so that the same code runs in the page
// and in tests: a port is built from a typed client of the back end (api/typed.ts), the page's
// sent through the session (browserPort.ts), a test's over fetch against a real server. A refusal
// by the server becomes DeviceRefusal; a call that failed itself (network, timeout, a session that
// ended) DeviceNetworkError, which the Bend flow reports as "Network exception".
import { ApiError } from '../../api/http.ts';
import { unwrap, type Api } from '../../api/typed.ts';
import type { BendBody, QueueJob, UserDevice } from './types.ts';
import type { OrderDeviceInfo } from '../../../common/order-lifecycle.ts';

/** A refusal by the server (envelope code other than CODE_OK, common/codes.ts), with the server's message. */
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
  /** GET /admin/design/getDeviceInfo: the machine the order's wires went to and their jobs (absent in ports that do not know it). */
  orderDevice?(orderId: number): Promise<OrderDeviceInfo>;
}

export function devicePort(api: Api): DevicePort {
  const design = api.admin.design;
  async function call<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (e) {
      if (e instanceof ApiError && e.kind === 'api') throw new DeviceRefusal(e.message, e.code ?? 0);
      throw new DeviceNetworkError(e instanceof Error ? e.message : String(e));
    }
  }
  return {
    devices: () => call(() => unwrap(design.userDeviceList.$post())),
    queue: (query) => call(() => unwrap(design.getQueueList.$post({ json: query }))),
    bend: (body) => call(() => unwrap(design.bend.$post({ json: body }))),
    cancel: async (jobId) => void (await call(() => unwrap(design.cancel.$post({ json: { jobId } })))),
    orderDevice: (orderId) => call(async () => (await unwrap(design.getDeviceInfo.$get({ query: { orderId: String(orderId) } }))) as OrderDeviceInfo),
  };
}
