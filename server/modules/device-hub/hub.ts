// The device hub of /work/shared/device-protocol.md, free of Node specifics: it sees each
// connection as a DeviceSocket and its frames as text (server/modules/device-hub/node.ts feeds
// it from the `ws` server). Time comes from ctx.clock and the periodic work is tick(), so tests
// move the clock and call tick() themselves.
//
// Several processes may each run a hub over one database (docs/scaling.md). Each has an id
// (`node`): a device's link row names the hub holding its connection, and only that hub marks it
// offline; each hub beats in device_hub_node, and the links of a hub that stopped beating (its
// process died) are marked offline by the others' ticks.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { DEVICE_STATES } from '../../../common/device-jobs.ts';
import type { AppContext } from '../../context.ts';
import { checkBent } from '../order/lifecycle.ts';
import { formatTime } from '../../core/clock.ts';
import { sha256Hex } from '../../core/crypto.ts';
import type { DeviceReceiver } from '../../core/delivery.ts';
import { findDeviceByKey } from '../device/keys.ts';
import { awaitedJobs, bendingJobs, cancelledSince, INTERRUPTED, jobMessage, markResent, ON_CONNECT, transition, unackedJobs, updateProgress } from './jobs.ts';

/** A frame that may carry a job's outcome: checked without parsing (the frame was not admitted). */
const OUTCOME_FRAME = /"type"\s*:\s*"(?:done|failed)"/;

export interface DeviceSocket {
  send(text: string): void;
  close(code: number, reason: string): void;
}

export interface HubOptions {
  /** Resend a sent job after this long without ack. */
  resendMs?: number;
  /** Mark a device offline (and drop it) after this long without a message. */
  silentMs?: number;
  /** Ping a device this often. */
  pingMs?: number;
  /** Close a connection that has not said hello with a valid key after this long. */
  helloMs?: number;
  /**
   * Frames a connection may send: a token bucket of `burst` frames refilled at `perSecond`.
   * Default 20/s, burst 100 (a real machine sends about 3 a second while bending).
   */
  rate?: { perSecond: number; burst: number };
  /** A device's `status` is written to the database at most once per this period (the latest wins). */
  statusWriteMs?: number;
  /** This hub's id among the processes (default: host, pid and a random part). */
  node?: string;
  /** This hub writes its heartbeat this often; one silent for DEAD_BEATS beats is taken for dead. */
  beatMs?: number;
}

export const CLOSE = {
  replaced: 4001,
  badKey: 4003,
  silent: 4008,
  invalidJson: 1007,
  policy: 1008,
  tooLarge: 1009,
  goingAway: 1001,
} as const;


export type HubEvent =
  | { type: 'online' | 'offline'; deviceId: number }
  | { type: 'job'; deviceId: number; jobId: string; status: string };

interface Conn {
  socket: DeviceSocket;
  headerKey?: string;
  deviceId?: number;
  /** The hash of the key it signed in with: a reset key or a deleted device ends the connection. */
  keyHash?: string;
  openedAt: number;
  /** Its first frame came: the hello deadline is met (a bad hello closes it when checked). */
  heard?: boolean;
  /** The order connections opened in (the clock may give several the same time). */
  seq: number;
  lastSeen: number;
  lastPing: number;
  closed: boolean;
  /** The last status the device reported on this connection. */
  state?: string;
  /** The first status of the connection was compared with the jobs recorded bending. */
  reconciled?: boolean;
  detail?: string | null;
  /** Frames of one connection are handled in order. */
  chain: Promise<void>;
  /** The rate limit's bucket: frames it may still send now, as of `refilledAt`. */
  tokens: number;
  refilledAt: number;
  /** Frames dropped since the last one let through (the `rate` error goes with the first). */
  dropped: number;
  /** A status not yet written (a newer one came within statusWriteMs of the last write). */
  pendingStatus?: { state: string; detail: string | null };
  statusWrittenAt: number;
}

/** A hub whose heartbeat is older than this many beats is taken for dead. */
const DEAD_BEATS = 6;
/**
 * Frames a `job` the hub sends earns the connection: the machine answers it with an `ack`, and
 * with its outcome again if it finished the job. Replies to the hub's own resends are not a flood.
 */
const JOB_REPLY_TOKENS = 2;
/** Earned tokens a connection may hold above its burst. */
const MAX_EARNED_TOKENS = 2000;
/** Jobs listed in `welcome.awaiting` at most. */
const MAX_AWAITING = 1000;

const str = (v: unknown, max = 1024) => (typeof v === 'string' ? v.slice(0, max) : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Receives ctx.delivery's notices (server/core/delivery.ts) for the devices connected to it. */
export class DeviceHub implements DeviceReceiver {
  private readonly conns = new Set<Conn>();
  private readonly byDevice = new Map<number, Conn>();
  /** Per-device work (sends, state changes) runs one at a time. */
  private readonly deviceChains = new Map<number, Promise<void>>();
  private readonly listeners = new Set<(e: HubEvent) => void>();
  private closing = false;
  /** Connections opened so far (their `seq`). */
  private opened = 0;
  /** Stops receiving ctx.delivery's notices (set by start()). */
  private stopReceiving: (() => void) | undefined;
  readonly resendMs: number;
  readonly silentMs: number;
  readonly pingMs: number;
  readonly helloMs: number;
  readonly rate: { perSecond: number; burst: number };
  readonly statusWriteMs: number;
  readonly node: string;
  readonly beatMs: number;
  private beatAt = -Infinity;

  constructor(
    private readonly ctx: AppContext,
    opts: HubOptions = {},
  ) {
    this.resendMs = opts.resendMs ?? 10_000;
    this.silentMs = opts.silentMs ?? 60_000;
    this.pingMs = opts.pingMs ?? 20_000;
    this.helloMs = opts.helloMs ?? 10_000;
    this.rate = opts.rate ?? { perSecond: 20, burst: 100 };
    this.statusWriteMs = opts.statusWriteMs ?? 1000;
    this.node = opts.node ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.beatMs = opts.beatMs ?? 5000;
  }

  /**
   * No device is connected to a hub that just started: the links it held in a previous life (same
   * id), and those of hubs no longer beating, are stale. Links of other live hubs stay.
   */
  async start(): Promise<void> {
    await this.beat();
    await this.markDeadOffline(true);
    this.stopReceiving = this.ctx.delivery.receive(this);
  }

  /**
   * Writes this hub's heartbeat, and takes back the links of its devices that another hub marked
   * offline while this one was too busy to beat (those still naming it: a device that moved names
   * the other hub).
   */
  private async beat(): Promise<void> {
    const now = this.ctx.clock.now();
    this.beatAt = now;
    await this.ctx.db
      .insertInto('device_hub_node')
      .values({ id: this.node, seenAt: now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ seenAt: now }))
      .execute();
    const held = [...this.byDevice.keys()];
    if (!held.length) return;
    const back = await this.ctx.db
      .updateTable('device_link')
      .set({ online: 1, lastSeenAt: now, statusTime: formatTime(now) })
      .where('hub', '=', this.node)
      .where('online', '=', 0)
      .where('deviceId', 'in', held)
      .returning('deviceId')
      .execute();
    if (back.length) await this.ctx.db.updateTable('device_info').set({ status: 1 }).where('id', 'in', back.map((r) => r.deviceId)).execute();
  }

  /** Marks offline the links of hubs that stopped beating (and, at start, this hub's own). */
  private async markDeadOffline(own: boolean): Promise<void> {
    const now = this.ctx.clock.now();
    const alive = this.ctx.db.selectFrom('device_hub_node').select('id').where('seenAt', '>', now - DEAD_BEATS * this.beatMs);
    let q = this.ctx.db
      .selectFrom('device_link')
      .select('deviceId')
      .where('online', '!=', 0)
      .where((eb) => eb.or([eb('hub', 'is', null), eb('hub', 'not in', alive), ...(own ? [eb('hub', '=', this.node)] : [])]));
    if (!own) q = q.where((eb) => eb.or([eb('hub', 'is', null), eb('hub', '!=', this.node)]));
    const stale = await q.execute();
    if (!stale.length) return;
    const ids = stale.map((r) => r.deviceId);
    // Offline since now at the latest: what counts for the cancel of a stuck job (deviceGoneMs).
    const res = await this.ctx.db
      .updateTable('device_link')
      .set({ online: 0, statusTime: formatTime(now), lastSeenAt: now })
      .where('deviceId', 'in', ids)
      .where('online', '!=', 0)
      .where((eb) => eb.or([eb('hub', 'is', null), eb('hub', 'not in', alive), ...(own ? [eb('hub', '=', this.node)] : [])]))
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return;
    await this.ctx.db
      .updateTable('device_info')
      .set({ status: 0 })
      .where('id', 'in', this.ctx.db.selectFrom('device_link').select('deviceId').where('deviceId', 'in', ids).where('online', '=', 0))
      .execute();
    // Stale heartbeats of dead hubs are of no further use.
    await this.ctx.db.deleteFrom('device_hub_node').where('seenAt', '<=', now - DEAD_BEATS * this.beatMs).where('id', '!=', this.node).execute();
  }

  on(listener: (e: HubEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  isOnline(deviceId: number): boolean {
    return this.byDevice.has(deviceId);
  }

  get connectedCount(): number {
    return this.byDevice.size;
  }

  /** A new connection; `headerKey` from `Authorization: Device <key>` if the upgrade carried one. */
  open(socket: DeviceSocket, headerKey?: string) {
    const now = this.ctx.clock.now();
    const conn: Conn = {
      socket, headerKey, openedAt: now, seq: ++this.opened, lastSeen: now, lastPing: now, closed: false, chain: Promise.resolve(),
      tokens: this.rate.burst, refilledAt: now, dropped: 0, statusWrittenAt: -Infinity,
    };
    if (this.closing) {
      socket.close(CLOSE.goingAway, 'server shutting down');
      conn.closed = true;
    } else this.conns.add(conn);
    return {
      message: (text: string) => {
        // Decided before anything else is done with the frame: a flood costs no parsing, no
        // queued work and no database write beyond what the limit lets through.
        if (conn.closed || !this.admit(conn, text)) return;
        conn.heard = true;
        conn.chain = conn.chain.then(() => this.onMessage(conn, text)).catch((err) => this.ctx.logger.error('Device hub: message failed', err));
      },
      closed: () => {
        conn.chain = conn.chain.then(() => this.onClose(conn)).catch((err) => this.ctx.logger.error('Device hub: close failed', err));
      },
    };
  }

  /**
   * The rate limit: a frame takes a token or is dropped. The first frame dropped is answered
   * `error { code: 'rate' }`; a connection that goes on with `burst` more frames dropped in a row
   * is closed with 1008. An outcome (`done`, `failed`) is never dropped silently: the machine would
   * not know to report it again, and its job would stay `bending`. The connection is closed with
   * 1008 instead, and the machine reports the outcome again after its next `welcome`.
   */
  private admit(conn: Conn, text: string): boolean {
    const now = this.ctx.clock.now();
    const { perSecond, burst } = this.rate;
    // Time refills up to the burst; tokens earned by the hub's own jobs may stand above it.
    conn.tokens = Math.max(conn.tokens, Math.min(burst, conn.tokens + ((now - conn.refilledAt) / 1000) * perSecond));
    conn.refilledAt = now;
    if (conn.tokens >= 1) {
      conn.tokens -= 1;
      conn.dropped = 0;
      return true;
    }
    if (OUTCOME_FRAME.test(text)) {
      this.drop(conn, CLOSE.policy, 'message rate limit: report the outcome again after welcome');
      return false;
    }
    if (conn.dropped++ === 0) {
      this.send(conn, { type: 'error', code: 'rate', message: `more than ${perSecond} messages a second (burst ${burst}): messages are dropped` });
    } else if (conn.dropped > burst) {
      this.drop(conn, CLOSE.policy, 'message rate limit');
    }
    return false;
  }

  /** Frames the connection may send above its bucket: answers to what the hub sent it. */
  private earn(conn: Conn, frames: number) {
    conn.tokens = Math.min(conn.tokens + frames, this.rate.burst + MAX_EARNED_TOKENS);
  }

  private emit(e: HubEvent) {
    for (const l of this.listeners) l(e);
  }

  private send(conn: Conn, msg: object) {
    if (!conn.closed) conn.socket.send(JSON.stringify(msg));
  }

  private drop(conn: Conn, code: number, reason: string) {
    if (conn.closed) return;
    conn.closed = true;
    conn.socket.close(code, reason);
  }

  private onDevice<T>(deviceId: number, work: () => Promise<T>): Promise<T> {
    const prev = this.deviceChains.get(deviceId) ?? Promise.resolve();
    const next = prev.then(work);
    const settled = next.then(
      () => undefined,
      (err) => this.ctx.logger.error(`Device hub: work for device ${deviceId} failed`, err),
    );
    this.deviceChains.set(deviceId, settled);
    void settled.then(() => {
      if (this.deviceChains.get(deviceId) === settled) this.deviceChains.delete(deviceId);
    });
    return next;
  }

  private async onMessage(conn: Conn, text: string) {
    if (conn.closed || this.closing) return;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      this.drop(conn, CLOSE.invalidJson, 'invalid JSON');
      return;
    }
    conn.lastSeen = this.ctx.clock.now();
    if (!msg || typeof msg !== 'object' || Array.isArray(msg)) {
      this.send(conn, { type: 'error', code: 'badMessage', message: 'a message is one JSON object with a type' });
      return;
    }
    const m = msg as Record<string, unknown>;
    if (conn.deviceId === undefined) {
      if (m.type !== 'hello') {
        this.drop(conn, CLOSE.badKey, 'hello with a valid key expected first');
        return;
      }
      await this.hello(conn, m);
      return;
    }
    const deviceId = conn.deviceId;
    await this.onDevice(deviceId, () => this.deviceMessage(conn, deviceId, m));
  }

  private async hello(conn: Conn, m: Record<string, unknown>) {
    const key = str(m.key, 300) ?? conn.headerKey;
    const device = key ? await findDeviceByKey(this.ctx.db, key) : undefined;
    if (!device || conn.closed) {
      this.drop(conn, CLOSE.badKey, 'bad key');
      return;
    }
    const keyHash = await sha256Hex(key!);
    const old = this.byDevice.get(device.id);
    // A connection that closed, or is older than the device's current one, while its key was being
    // checked is one the device has left (a reconnect overtook it): it must not take over.
    if (conn.closed || (old && old !== conn && old.seq > conn.seq)) {
      this.drop(conn, CLOSE.replaced, 'replaced by a new connection');
      return;
    }
    conn.deviceId = device.id;
    conn.keyHash = keyHash;
    if (old && old !== conn) this.drop(old, CLOSE.replaced, 'replaced by a new connection');
    this.byDevice.set(device.id, conn);
    // A connection to it another process still holds is stale (the device came here instead).
    this.ctx.delivery.connected(device.id, this.node);
    const diameters = Array.isArray(m.diameters) ? m.diameters.filter((d) => typeof d === 'number').join(',').slice(0, 255) : null;
    await this.onDevice(device.id, async () => {
      const away = await this.ctx.db.selectFrom('device_link').select(['online', 'lastSeenAt']).where('deviceId', '=', device.id).executeTakeFirst();
      await this.setLink(device.id, true, {
        serial: str(m.serial, 128) ?? null,
        firmware: str(m.firmware, 128) ?? null,
        diameters,
        memory: num(m.memory) ?? null,
      });
      // `awaiting`: the jobs whose outcome the machine may have reported on a lost connection
      // (bending or interrupted here; the others it finished are settled, or come back as `job`
      // and are answered). A machine that reads it reports again only these, not its history.
      const awaiting = await awaitedJobs(this.ctx.db, device.id, MAX_AWAITING);
      this.send(conn, { type: 'welcome', deviceId: device.id, name: device.devicename, serverTime: new Date(this.ctx.clock.now()).toISOString(), awaiting });
      // each listed job earns the frame of its outcome, as a `job` sent earns its answers
      this.earn(conn, awaiting.length);
      // Jobs cancelled while it was away that it may still hold: drop them if not started.
      if (away && !away.online && away.lastSeenAt !== null) {
        for (const jobId of await cancelledSince(this.ctx.db, device.id, away.lastSeenAt)) this.send(conn, { type: 'cancel', jobId });
      }
      await this.sendUnacked(device.id, conn, true);
    });
  }

  private async setLink(deviceId: number, online: boolean, fields: Record<string, string | number | null> = {}) {
    const now = this.ctx.clock.now();
    const time = formatTime(now);
    if (!online) {
      // Only the hub that holds the link ends it: the device may be online at another one now.
      const res = await this.ctx.db
        .updateTable('device_link')
        .set({ online: 0, lastSeenAt: now, statusTime: time, ...fields })
        .where('deviceId', '=', deviceId)
        .where('hub', '=', this.node)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) await this.ctx.db.updateTable('device_info').set({ status: 0 }).where('id', '=', deviceId).execute();
    } else {
      await this.ctx.db.updateTable('device_info').set({ status: 1 }).where('id', '=', deviceId).execute();
      const values = { online: 1, lastSeenAt: now, statusTime: time, hub: this.node, ...fields };
      await this.ctx.db
        .insertInto('device_link')
        .values({ deviceId, ...values })
        .onConflict((oc) => oc.column('deviceId').doUpdateSet(values))
        .execute();
    }
    this.emit({ type: online ? 'online' : 'offline', deviceId });
  }

  /**
   * Sends the device's queued jobs, and its sent-but-unacked ones when overdue; on connect
   * (`all`), every job it has not finished nor started (sent and acked ones again: it dedups).
   */
  private async sendUnacked(deviceId: number, conn: Conn, all: boolean) {
    const now = this.ctx.clock.now();
    for (const row of await unackedJobs(this.ctx.db, deviceId, all ? ON_CONNECT : undefined)) {
      if (conn.closed || this.byDevice.get(deviceId) !== conn) return;
      if (row.status === 'queued') {
        if (!(await transition(this.ctx, row.jobId, 'sent', { deviceId }))) continue;
        this.emit({ type: 'job', deviceId, jobId: row.jobId, status: 'sent' });
      } else if (all || (row.lastSentAt ?? 0) <= now - this.resendMs) {
        // Cancelled or started meanwhile: not sent.
        if (!(await markResent(this.ctx, row.jobId))) continue;
      } else continue;
      this.send(conn, jobMessage(row));
      this.earn(conn, JOB_REPLY_TOKENS);
    }
  }

  private async changed(conn: Conn, deviceId: number, jobId: string, to: Parameters<typeof transition>[2], extra: Parameters<typeof transition>[3] = {}) {
    const ok = await transition(this.ctx, jobId, to, { ...extra, deviceId });
    if (ok) {
      if (to === 'bending' || to === 'done') await this.orderMilestone(jobId, to);
      this.emit({ type: 'job', deviceId, jobId, status: to });
    }
    else {
      const row = await this.ctx.db.selectFrom('device_job').select(['status', 'deviceId']).where('jobId', '=', jobId).executeTakeFirst();
      if (!row || row.deviceId !== deviceId) this.send(conn, { type: 'error', code: 'unknownJob', message: `no job ${jobId} for this device` });
      // A cancelled job the device reports on: tell it again (the cancel may have crossed its ack).
      else if (row.status === 'cancelled' && (to === 'acked' || to === 'bending')) this.send(conn, { type: 'cancel', jobId });
    }
    return ok;
  }

  /** The order's take-time milestones: processing starts with its first bend, ends with its last done. */
  private async orderMilestone(jobId: string, to: 'bending' | 'done') {
    const time = formatTime(this.ctx.clock.now());
    const orderId = this.ctx.db.selectFrom('device_job').select('orderId').where('jobId', '=', jobId);
    const q = this.ctx.db.updateTable('order_info').where('id', '=', orderId);
    if (to === 'bending') await q.set({ processStartTime: time }).where('processStartTime', 'is', null).execute();
    else {
      await q.set((eb) => ({ processEndTime: time, processStartTime: eb.fn.coalesce('processStartTime', eb.val(time)) })).execute();
      // Every wire of the order's design bent: to be processed -> processed (lifecycle.ts).
      const row = await this.ctx.db.selectFrom('device_job').select('orderId').where('jobId', '=', jobId).executeTakeFirst();
      if (row?.orderId) await checkBent(this.ctx, row.orderId);
    }
  }

  private async deviceMessage(conn: Conn, deviceId: number, m: Record<string, unknown>) {
    if (conn.closed) return;
    const jobId = str(m.jobId, 64);
    const needJob = () => {
      if (jobId) return false;
      this.send(conn, { type: 'error', code: 'badMessage', message: `${String(m.type)} needs a jobId` });
      return true;
    };
    switch (m.type) {
      case 'hello':
        this.send(conn, { type: 'error', code: 'alreadyHello', message: 'hello was already accepted on this connection' });
        return;
      case 'pong':
        return;
      case 'status': {
        const state = DEVICE_STATES.find((s) => s === m.state);
        if (!state) {
          this.send(conn, { type: 'error', code: 'badMessage', message: `state must be one of ${DEVICE_STATES.join(', ')}` });
          return;
        }
        const detail = str(m.detail) ?? null;
        if (!conn.reconciled) {
          conn.reconciled = true;
          await this.reconcile(deviceId, state, str(m.jobId, 64));
        }
        // The periodic status repeats itself: store only changes.
        if (conn.state === state && conn.detail === detail) return;
        conn.state = state;
        conn.detail = detail;
        // And at most one write per statusWriteMs: a newer change waits for tick(), the latest wins.
        conn.pendingStatus = { state, detail };
        if (this.ctx.clock.now() - conn.statusWrittenAt >= this.statusWriteMs) await this.writeStatus(conn, deviceId);
        return;
      }
      case 'ack':
        if (needJob()) return;
        await this.changed(conn, deviceId, jobId!, 'acked');
        return;
      case 'progress': {
        if (needJob()) return;
        const step = Math.max(0, Math.floor(num(m.step) ?? 0));
        // Most progress reports move the step of a job already bending: one update.
        if (!(await updateProgress(this.ctx.db, jobId!, deviceId, step, formatTime(this.ctx.clock.now())))) {
          await this.changed(conn, deviceId, jobId!, 'bending', { step });
        }
        return;
      }
      case 'done':
        if (needJob()) return;
        await this.changed(conn, deviceId, jobId!, 'done', { bendMs: Math.max(0, Math.round(num(m.ms) ?? 0)) });
        return;
      case 'failed':
        if (needJob()) return;
        await this.changed(conn, deviceId, jobId!, 'failed', {
          errorCode: str(m.code, 64) ?? 'unknown',
          errorMessage: str(m.message) ?? '',
          detail: str(m.code, 64),
        });
        return;
      default:
        this.send(conn, { type: 'error', code: 'unknownType', message: `unknown message type ${JSON.stringify(String(m.type)).slice(0, 80)}` });
    }
  }

  /**
   * The first status of a connection against the jobs recorded `bending` on the device: a device
   * that says it is not bending (idle, error, maintenance), or bending another job (`jobId`), is
   * not bending them. They become `failed` with code `interrupted` and are never sent again by
   * the hub (the wire may be partly bent); the device's own later report on one still counts.
   */
  private async reconcile(deviceId: number, state: string, current: string | undefined) {
    for (const { jobId } of await bendingJobs(this.ctx.db, deviceId)) {
      if (state === 'bending' && (current === undefined || current === jobId)) continue;
      const message = `the device reported ${state}${current ? ` (bending ${current})` : ''} when it connected again: the job may be partly bent and is not sent again`;
      if (await transition(this.ctx, jobId, 'failed', { deviceId, errorCode: INTERRUPTED, errorMessage: message, detail: INTERRUPTED })) {
        this.emit({ type: 'job', deviceId, jobId, status: 'failed' });
      }
    }
  }

  /** Writes the connection's pending status, if any (on the device's chain). */
  private async writeStatus(conn: Conn, deviceId: number) {
    const status = conn.pendingStatus;
    if (!status || this.byDevice.get(deviceId) !== conn) return;
    conn.pendingStatus = undefined;
    conn.statusWrittenAt = this.ctx.clock.now();
    await this.setLink(deviceId, true, status);
  }

  private async onClose(conn: Conn) {
    conn.closed = true;
    this.conns.delete(conn);
    const deviceId = conn.deviceId;
    if (deviceId === undefined || this.byDevice.get(deviceId) !== conn) return;
    this.byDevice.delete(deviceId);
    if (this.closing) return;
    await this.onDevice(deviceId, async () => {
      // A newer connection may have come in meanwhile.
      if (!this.byDevice.has(deviceId)) await this.setLink(deviceId, false);
    });
  }

  /** A job was stored for this device: send it now if the device is connected. */
  dispatch(deviceId: number): Promise<void> {
    const conn = this.byDevice.get(deviceId);
    if (!conn || this.closing) return Promise.resolve();
    // Failures are logged by onDevice; the job stays stored and goes out on the next tick.
    return this.onDevice(deviceId, () => this.sendUnacked(deviceId, conn, false)).catch(() => undefined);
  }

  /** Another hub holds the device's connection now: one here is stale, and goes without marking it offline. */
  connectedTo(deviceId: number, hub: string) {
    if (hub === this.node) return;
    const conn = this.byDevice.get(deviceId);
    if (!conn) return;
    this.drop(conn, CLOSE.replaced, 'replaced by a new connection');
    this.byDevice.delete(deviceId);
    this.emit({ type: 'offline', deviceId });
  }

  /** Tells a connected device to drop a cancelled job. */
  sendCancel(deviceId: number, jobId: string) {
    const conn = this.byDevice.get(deviceId);
    if (conn) this.send(conn, { type: 'cancel', jobId });
  }

  private ticking?: Promise<void>;

  /** The periodic work: hello deadlines, pings, silent devices, resends (one run at a time). */
  tick(): Promise<void> {
    if (this.closing) return Promise.resolve();
    this.ticking ??= this.runTick().finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  private async runTick(): Promise<void> {
    const now = this.ctx.clock.now();
    const work: Promise<unknown>[] = [];
    if (now - this.beatAt >= this.beatMs) {
      await this.beat();
      await this.markDeadOffline(false);
    }
    for (const conn of this.conns) {
      if (conn.closed) continue;
      if (conn.deviceId === undefined) {
        // A hello still being checked (a busy database) is not a missing one.
        if (!conn.heard && now - conn.openedAt >= this.helloMs) this.drop(conn, CLOSE.badKey, 'no hello');
        continue;
      }
      const deviceId = conn.deviceId;
      if (now - conn.lastSeen >= this.silentMs) {
        this.drop(conn, CLOSE.silent, 'silent for too long');
        work.push(Promise.resolve(this.onClose(conn)));
        continue;
      }
      if (now - conn.lastPing >= this.pingMs) {
        conn.lastPing = now;
        this.send(conn, { type: 'ping', t: now });
      }
      if (conn.pendingStatus && now - conn.statusWrittenAt >= this.statusWriteMs) {
        work.push(this.onDevice(deviceId, () => this.writeStatus(conn, deviceId)));
      }
    }
    // A key reset or a deleted device stops its connection at once (well, at the next tick).
    if (this.byDevice.size) {
      // The connections asked about: one that signs in while the query runs is not in its answer.
      const asked = [...this.byDevice];
      const keys = new Map(
        (await this.ctx.db.selectFrom('device_info').select(['id', 'keyHash']).where('id', 'in', asked.map(([id]) => id)).execute()).map((r) => [r.id, r.keyHash]),
      );
      for (const [deviceId, conn] of asked) {
        if (conn.closed || this.byDevice.get(deviceId) !== conn || keys.get(deviceId) === conn.keyHash) continue;
        this.drop(conn, CLOSE.badKey, 'the device key was reset or the device removed');
        work.push(this.onClose(conn));
      }
    }
    // One query finds the devices with jobs to (re)send, not one per connected device.
    const due = await this.ctx.db
      .selectFrom('device_job')
      .select('deviceId')
      .distinct()
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'sent'), eb('lastSentAt', '<=', now - this.resendMs)])]))
      .execute();
    for (const { deviceId } of due) {
      const conn = this.byDevice.get(deviceId);
      if (conn && !conn.closed) work.push(this.onDevice(deviceId, () => this.sendUnacked(deviceId, conn, false)));
    }
    await Promise.allSettled(work);
  }

  /** Stops taking work, waits for what is under way, and closes every connection. */
  async close(): Promise<void> {
    this.closing = true;
    for (const conn of this.conns) this.drop(conn, CLOSE.goingAway, 'server shutting down');
    await this.ticking?.catch(() => undefined);
    await Promise.allSettled([...this.conns].map((c) => c.chain));
    await Promise.allSettled([...this.deviceChains.values()]);
    this.conns.clear();
    this.byDevice.clear();
    this.stopReceiving?.();
    this.stopReceiving = undefined;
    // Its links are stale from now on: the next hub to start or tick marks them offline.
    await this.ctx.db.deleteFrom('device_hub_node').where('id', '=', this.node).execute();
  }
}
