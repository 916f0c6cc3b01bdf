// WorkerConnection: the worker both page clients (geometry, slot) share the handling of. Only the
// platform's Worker is stood in for (a MessageChannel with an exposed Comlink API behind it).
import * as Comlink from 'comlink';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { WorkerConnection, type CallOptions } from '../../src/geometry/workerConnection.ts';

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

// The generic bridge: a worker's long call `(...args, jobId, onProgress)` is made from the page as
// `(...args, { signal, onProgress })`, typed from the worker's API; a short call keeps its arguments.
type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; detail: string } };

class CodeError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

function jobWorker() {
  const cancelled: number[] = [];
  const gates = new Map<number, () => void>();
  const api = {
    /** Counts to `n`, reporting each step; waits for release(jobId) first when `hold`. */
    async count(n: number, hold: boolean, jobId: number, onProgress?: (fraction: number, stage?: string) => void): Promise<Result<number>> {
      if (hold) await new Promise<void>((r) => gates.set(jobId, r));
      if (cancelled.includes(jobId)) return { ok: false, error: { code: 'ABORTED', detail: '' } };
      for (let i = 1; i <= n; i++) await onProgress?.(i / n, 'count');
      return n < 0 ? { ok: false, error: { code: 'BAD_INPUT', detail: 'negative' } } : { ok: true, value: n };
    },
    async double(v: number): Promise<Result<number>> {
      return { ok: true, value: v * 2 };
    },
    cancel(jobId: number): void {
      cancelled.push(jobId);
      gates.get(jobId)?.();
    },
    release(jobId: number): void {
      gates.get(jobId)?.();
    },
    plain(): number {
      return 1;
    },
  };
  const c = new WorkerConnection<typeof api>(
    () => new FakeWorker(api) as unknown as Worker,
    (detail) => new Failed(detail),
    'test',
    (failure) => new CodeError(failure.code),
  );
  return { c, cancelled, gates };
}

describe('WorkerConnection jobs and calls', () => {
  it('makes a long call with { signal, onProgress } and a short call with its arguments, unwrapping results', async () => {
    const { c } = jobWorker();
    const seen: [number, string | undefined][] = [];
    await expect(c.jobs.count(2, false, { onProgress: (f, stage) => void seen.push([f, stage]) })).resolves.toBe(2);
    expect(seen).toEqual([
      [0.5, 'count'],
      [1, 'count'],
    ]);
    await expect(c.jobs.count(1, false, {})).resolves.toBe(1);
    await expect(c.calls.double(21)).resolves.toBe(42);
    await expect(c.jobs.count(-1, false, {})).rejects.toEqual(new CodeError('BAD_INPUT'));
    // Only the worker's calls that fit each shape are offered.
    expectTypeOf(c.jobs).toHaveProperty('count');
    expectTypeOf(c.jobs).not.toHaveProperty('double');
    expectTypeOf(c.calls).toHaveProperty('double');
    expectTypeOf(c.calls).not.toHaveProperty('plain');
    expectTypeOf(c.jobs.count).parameters.toEqualTypeOf<[number, boolean, CallOptions<(fraction: number, stage?: string) => void>]>();
    c.dispose();
  });

  it('rejects at once with the signal\'s reason on abort, cancels the job in the worker and hands a late value to onLate', async () => {
    const { c, cancelled } = jobWorker();
    const before = new AbortController();
    before.abort();
    await expect(c.jobs.count(1, false, { signal: before.signal })).rejects.toMatchObject({ name: 'AbortError' });

    const abort = new AbortController();
    const running = c.jobs.count(3, true, { signal: abort.signal });
    await new Promise((r) => setTimeout(r, 20));
    abort.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    await new Promise((r) => setTimeout(r, 20));
    expect(cancelled).toHaveLength(1);

    const late: number[] = [];
    const abort2 = new AbortController();
    const p = c.job('count', [2, false], { signal: abort2.signal }, (v) => void late.push(v));
    abort2.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    await new Promise((r) => setTimeout(r, 50));
    expect(late).toEqual([2]);
    c.dispose();
  });
});
