// WorkerConnection: the worker both page clients (geometry, slot) share the handling of. Only the
// platform's Worker is stood in for (a MessageChannel with an exposed Comlink API behind it).
import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { WorkerConnection } from '../../src/editor/geometry/worker-connection.ts';

class FakeWorker extends EventTarget {
  readonly channel = new MessageChannel();
  terminated = false;
  constructor(api: object) {
    super();
    Comlink.expose(api, this.channel.port2);
    this.channel.port1.addEventListener('message', (e) => this.dispatchEvent(new MessageEvent('message', { data: (e as MessageEvent).data })));
    this.channel.port1.start();
  }
  postMessage(data: unknown, transfer: Transferable[] = []): void {
    this.channel.port1.postMessage(data, transfer);
  }
  terminate(): void {
    this.terminated = true;
    this.channel.port1.close();
  }
  crash(message: string): void {
    const event = new Event('error', { cancelable: true }) as Event & { message: string };
    event.message = message;
    this.dispatchEvent(event);
  }
}

class Failed extends Error {}

function connection(api: { echo(v: number): number | Promise<number> }) {
  const started: FakeWorker[] = [];
  const c = new WorkerConnection<typeof api>(
    () => {
      const w = new FakeWorker(api);
      started.push(w);
      return w as unknown as Worker;
    },
    (detail) => new Failed(detail),
    'test',
  );
  return { c, started };
}

describe('WorkerConnection', () => {
  it('starts the worker on the first call only and answers through it', async () => {
    const { c, started } = connection({ echo: (v) => v * 2 });
    expect(started).toHaveLength(0);
    await expect(c.run((api) => api.echo(4))).resolves.toBe(8);
    await expect(c.run((api) => api.echo(5))).resolves.toBe(10);
    expect(started).toHaveLength(1);
    c.dispose();
    expect(started[0]!.terminated).toBe(true);
  });

  it('rejects waiting calls with the client error when the worker dies, then starts a fresh one', async () => {
    const { c, started } = connection({ echo: (v) => (v < 0 ? new Promise<number>(() => {}) : v) });
    const waiting = c.run((api) => api.echo(-1));
    await new Promise((r) => setTimeout(r, 20));
    started[0]!.crash('out of memory');
    await expect(waiting).rejects.toEqual(new Failed('out of memory'));
    expect(started[0]!.terminated).toBe(true);
    await expect(c.run((api) => api.echo(3))).resolves.toBe(3);
    expect(started).toHaveLength(2);
    c.dispose();
  });

  it('turns a call that throws in transit into the client error', async () => {
    const { c } = connection({
      echo: () => {
        throw new Error('boom');
      },
    });
    await expect(c.run((api) => api.echo(1))).rejects.toBeInstanceOf(Failed);
    c.dispose();
  });
});
