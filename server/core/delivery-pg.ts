// "Deliver to device X" between processes on one PostgreSQL database (docs/scaling.md): a notice
// is a NOTIFY on one channel, sent through the database pool after the job row committed; each
// process LISTENs on a dedicated connection and hands every notice to its hub, which acts only for
// the devices connected to it. A notice lost while the listener reconnects costs latency, never a
// job: every hub's tick sends what is due from the database.
import pg from 'pg';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import type { DeviceDelivery, DeviceReceiver } from './delivery.ts';
import type { Logger } from './logger.ts';

export const DEVICE_CHANNEL = 'archwright_device';
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

// Anyone who may write to the database may NOTIFY: a payload is checked before it is used.
const noticeSchema = z.discriminatedUnion('k', [
  z.object({ k: z.literal('jobs'), d: z.number().int().positive() }),
  z.object({ k: z.literal('cancel'), d: z.number().int().positive(), j: z.string().min(1).max(64) }),
  z.object({ k: z.literal('hello'), d: z.number().int().positive(), h: z.string().min(1).max(128) }),
]);
type Notice = z.infer<typeof noticeSchema>;

export class PgNotifyDelivery implements DeviceDelivery {
  private readonly receivers = new Set<DeviceReceiver>();
  private client: pg.Client | null = null;
  private listening: Promise<void> | null = null;
  private retryMs = RETRY_MIN_MS;
  private retry?: ReturnType<typeof setTimeout>;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly connectionString: string,
    private readonly logger: Logger,
  ) {}

  jobsWaiting(deviceId: number): void {
    this.notify({ k: 'jobs', d: deviceId });
  }

  cancel(deviceId: number, jobId: string): void {
    this.notify({ k: 'cancel', d: deviceId, j: jobId });
  }

  connected(deviceId: number, hub: string): void {
    this.notify({ k: 'hello', d: deviceId, h: hub });
  }

  receive(receiver: DeviceReceiver): () => void {
    this.receivers.add(receiver);
    void this.ready();
    return () => this.receivers.delete(receiver);
  }

  /** Resolves once this process LISTENs (or its first try failed: it goes on trying). */
  ready(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.listening ??= this.listen();
    return this.listening;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private notify(notice: Notice): void {
    // The route already answered for the stored row; a failed NOTIFY leaves it to the hubs' ticks.
    sql`select pg_notify(${DEVICE_CHANNEL}, ${JSON.stringify(notice)})`
      .execute(this.db)
      .catch((err) => this.logger.warn(`device delivery: NOTIFY failed (${err instanceof Error ? err.message : String(err)}); the hub's tick sends it`));
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    const lost = (why: string) => {
      if (this.client !== client) return;
      this.client = null;
      this.listening = null;
      void client.end().catch(() => undefined);
      if (this.closed) return;
      this.logger.warn(`device delivery: listening connection lost (${why}); again in ${this.retryMs} ms`);
      this.retry = setTimeout(() => void this.ready(), this.retryMs);
      this.retry.unref();
      this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
    };
    client.on('error', (err) => lost(err.message));
    client.on('end', () => lost('closed'));
    client.on('notification', (msg) => {
      if (msg.channel === DEVICE_CHANNEL) this.deliver(msg.payload);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${DEVICE_CHANNEL}`);
      this.retryMs = RETRY_MIN_MS;
      if (this.closed) await this.close();
    } catch (err) {
      lost(err instanceof Error ? err.message : String(err));
    }
  }

  private deliver(payload: string | undefined): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload ?? '');
    } catch {
      return;
    }
    const notice = noticeSchema.safeParse(parsed);
    if (!notice.success) return;
    const n = notice.data;
    for (const r of this.receivers) {
      if (n.k === 'jobs') void r.dispatch(n.d);
      else if (n.k === 'cancel') r.sendCancel(n.d, n.j);
      else r.connectedTo(n.d, n.h);
    }
  }
}
