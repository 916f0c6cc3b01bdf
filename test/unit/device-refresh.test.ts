// The editor's device dock reloads the designer's devices after every change; a reload asked
// while an older one is still on its way must not be answered by the older one.
import { describe, expect, it } from 'vitest';
import { DeviceController } from '../../src/editor/device/DeviceController.ts';
import type { DevicePort } from '../../src/editor/device/port.ts';
import type { UserDevice } from '../../src/editor/device/types.ts';

const device: UserDevice = { id: 7, devicename: 'Bender', online: true, state: 'idle', detail: null, diameterList: [0.8], memory: 1000, pending: 0 };

/** A port whose device list answers when the test says, with what the server held when asked. */
function slowPort(server: { bound: UserDevice[] }) {
  const waiting: (() => void)[] = [];
  const port: DevicePort = {
    devices: () => {
      const answer = [...server.bound]; // read when asked, like the database
      return new Promise((resolve) => waiting.push(() => resolve(answer)));
    },
    queue: async () => [],
    bend: async () => ({ jobId: 'x' }),
    cancel: async () => undefined,
  };
  return { port, answerNext: () => waiting.shift()?.(), pending: () => waiting.length };
}

describe('device dock refresh', () => {
  it('a refresh asked during a load gets a load of its own: a device bound meanwhile shows at once', async () => {
    const server = { bound: [] as UserDevice[] };
    const { port, answerNext, pending } = slowPort(server);
    const c = new DeviceController({ geometry: {} as never, selectedWire: () => null });
    c.connect({ port, userId: 1, admin: false, orderId: null, pollMs: 60_000 });
    c.setOpen(true); // first load asked: nothing bound yet
    expect(pending()).toBe(1);

    server.bound = [device]; // the admin binds the device now
    const shown = c.refresh(); // the page asks again (after binding, a job sent, ...)
    answerNext(); // the older answer arrives: empty
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(pending()).toBe(1); // ... and a second load went out after it
    answerNext();
    await shown;
    expect(c.getState().devices.map((d) => d.id)).toEqual([7]);
    c.disconnect();
  });
});
