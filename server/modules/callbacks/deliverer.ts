// Posts queued callbacks (partner_delivery, queued by queue.ts) to their partners.
// - Claim: a conditional update (owner and lease set WHERE the row is pending, due and not held),
//   so two deliverers, in one process or several, never post the same row at once. A deliverer
//   that dies mid-post leaves a lease that runs out; the row is then posted again (at least once:
//   the body's deliveryId lets the partner drop a repeat).
// - In order: a row is taken only when no earlier row of the same order and entry is pending, so
//   an order's events reach a partner in the order they happened (one that failed for good no
//   longer holds the later ones back).
// - Each post (server/core/outbound.ts) is signed with the entry's current secret, key id the
//   entry's id, at most CALLBACK_TIMEOUT_MS, no redirect followed, public addresses only unless
//   CALLBACK_ALLOW_PRIVATE. A 2xx answer delivers it; anything else is tried again after an
//   exponential wait with jitter (common/callbacks.ts), until CALLBACK_MAX_ATTEMPTS or
//   CALLBACK_MAX_AGE_MS, then it fails. A refused target, or an entry since disabled, deleted or
//   left without a callback URL, fails at once. The reason kept is short and never holds the secret.
// - Finished rows are purged after KEEP_MS.
import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import os from 'node:os';
import {
  CALLBACK_MAX_AGE_MS,
  CALLBACK_MAX_ATTEMPTS,
  CALLBACK_TIMEOUT_MS,
  callbackBackoffMs,
  DELIVERY_HEADER,
  type CallbackBody,
} from '../../../common/callbacks.ts';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { OutboundRefused, postSigned } from '../../core/outbound.ts';
import type { Database, PartnerDeliveryTable } from '../../db/schema.ts';

/** How long finished deliveries are kept (ms). */
export const KEEP_MS = 30 * 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;
const MAX_ERROR = 500;

export const DELIVERY_REASONS = {
  entryGone: 'the API configuration entry was deleted',
  entryDisabled: 'the API configuration entry is disabled',
  noCallbackUrl: 'the API configuration entry has no callback URL',
  noSecret: 'the API configuration entry has no secret (rotate it)',
  refused: (why: string) => `refused: ${why}`,
  status: (status: number, text: string) => `HTTP ${status}${text ? `: ${text}` : ''}`,
  unreachable: (why: string) => `no answer: ${why}`,
};

export interface DelivererOptions {
  /** This deliverer's id in the owner column. */
  owner?: string;
  /** Rows posted at once (each of a different order and entry). */
  batch?: number;
  /** Polling interval (ms, real time). */
  pollMs?: number;
  /** [0, 1): the jitter of the retry waits. */
  random?: () => number;
}

type Outcome = { state: 'delivered'; status: number } | { state: 'retry' | 'failed'; status: number | null; error: string };

export class CallbackDeliverer {
  readonly owner: string;
  private readonly batch: number;
  private readonly pollMs: number;
  private readonly random: () => number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = true;
  private lastPurge = -Infinity;

  constructor(
    private readonly ctx: AppContext,
    o: DelivererOptions = {},
  ) {
    this.owner = o.owner ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.batch = o.batch ?? 8;
    this.pollMs = o.pollMs ?? 2000;
    this.random = o.random ?? Math.random;
  }

  /** Posts the due deliveries it can claim; answers how many it posted (or failed at once). */
  async tick(): Promise<number> {
    const now = this.ctx.clock.now();
    await this.purge(now);
    const due = await this.ctx.db
      .selectFrom('partner_delivery as d')
      .select('d.id')
      .where('d.state', '=', 'pending')
      .where('d.nextAttemptAt', '<=', now)
      .where((eb) => eb.or([eb('d.leaseUntil', 'is', null), eb('d.leaseUntil', '<', now)]))
      .where((eb) => eb.not(eb.exists(earlierPending(eb))))
      .orderBy('d.id')
      .limit(this.batch)
      .execute();
    const done = await Promise.all(due.map((d) => this.deliver(d.id)));
    return done.filter(Boolean).length;
  }

  /** Claims and posts one delivery; false when another deliverer has it (or it is no longer due). */
  private async deliver(id: number): Promise<boolean> {
    const now = this.ctx.clock.now();
    const claimed = await this.ctx.db
      .updateTable('partner_delivery as d')
      .set({ owner: this.owner, leaseUntil: now + CALLBACK_TIMEOUT_MS * 3 })
      .where('d.id', '=', id)
      .where('d.state', '=', 'pending')
      .where('d.nextAttemptAt', '<=', now)
      .where((eb) => eb.or([eb('d.leaseUntil', 'is', null), eb('d.leaseUntil', '<', now)]))
      .where((eb) => eb.not(eb.exists(earlierPending(eb))))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    const row = await this.ctx.db.selectFrom('partner_delivery').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const outcome = await this.post(row);
    await this.finish(row, outcome);
    return true;
  }

  private async post(row: { id: number; configId: number; payload: string; attempts: number; queuedAt: number }): Promise<Outcome> {
    const entry = await this.ctx.db
      .selectFrom('device_api_config')
      .select(['id', 'kind', 'enabled', 'callbackUrl', 'secret'])
      .where('id', '=', row.configId)
      .executeTakeFirst();
    if (!entry || entry.kind !== 'partner') return { state: 'failed', status: null, error: DELIVERY_REASONS.entryGone };
    if (!entry.enabled) return { state: 'failed', status: null, error: DELIVERY_REASONS.entryDisabled };
    if (!entry.callbackUrl) return { state: 'failed', status: null, error: DELIVERY_REASONS.noCallbackUrl };
    if (!entry.secret) return { state: 'failed', status: null, error: DELIVERY_REASONS.noSecret };
    const body: CallbackBody = { deliveryId: row.id, ...(JSON.parse(row.payload) as Omit<CallbackBody, 'deliveryId'>) };
    const redact = (text: string) => text.split(entry.secret!).join('…').slice(0, MAX_ERROR);
    try {
      const answer = await postSigned({
        url: entry.callbackUrl,
        keyId: String(entry.id),
        secret: entry.secret,
        body: JSON.stringify(body),
        now: this.ctx.clock.now(),
        headers: { [DELIVERY_HEADER]: String(row.id) },
        timeoutMs: CALLBACK_TIMEOUT_MS,
        allowPrivate: this.ctx.config.callbackAllowPrivate,
      });
      if (answer.status >= 200 && answer.status <= 299) return { state: 'delivered', status: answer.status };
      return { state: 'retry', status: answer.status, error: redact(DELIVERY_REASONS.status(answer.status, answer.text)) };
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      if (err instanceof OutboundRefused) return { state: 'failed', status: null, error: redact(DELIVERY_REASONS.refused(why)) };
      return { state: 'retry', status: null, error: redact(DELIVERY_REASONS.unreachable(why)) };
    }
  }

  /** Writes the attempt's end, while the row is still this deliverer's. */
  private async finish(row: { id: number; attempts: number; queuedAt: number }, outcome: Outcome): Promise<void> {
    const now = this.ctx.clock.now();
    const attempts = row.attempts + 1;
    const time = formatTime(now);
    const common = { owner: null, leaseUntil: null, attempts, lastStatus: outcome.status, updateTime: time };
    const set =
      outcome.state === 'delivered'
        ? { ...common, state: 'delivered', lastError: null, deliveredTime: time }
        : outcome.state === 'failed' || attempts >= CALLBACK_MAX_ATTEMPTS || now - Number(row.queuedAt) >= CALLBACK_MAX_AGE_MS
          ? { ...common, state: 'failed', lastError: outcome.error }
          : { ...common, lastError: outcome.error, nextAttemptAt: now + callbackBackoffMs(attempts, this.random()) };
    await this.ctx.db.updateTable('partner_delivery').set(set).where('id', '=', row.id).where('owner', '=', this.owner).execute();
    if (outcome.state !== 'delivered') this.ctx.logger.warn(`callback ${row.id} attempt ${attempts}: ${outcome.error}`);
  }

  private async purge(now: number): Promise<void> {
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    await this.ctx.db.deleteFrom('partner_delivery').where('state', '!=', 'pending').where('queuedAt', '<', now - KEEP_MS).execute();
  }

  /** Polls every pollMs (the server does; tests call tick()). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops polling and waits for the posts in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tick()
        .catch((err) => this.ctx.logger.error('callback delivery failed', err))
        .finally(() => {
          this.running = null;
          this.schedule(this.pollMs);
        });
    }, ms);
  }
}

/** The pending rows of the same order and entry queued before `d`. */
function earlierPending(eb: ExpressionBuilder<Database & { d: PartnerDeliveryTable }, 'd'>) {
  return eb
    .selectFrom('partner_delivery as e')
    .select('e.id')
    .whereRef('e.orderId', '=', 'd.orderId')
    .whereRef('e.configId', '=', 'd.configId')
    .whereRef('e.id', '<', 'd.id')
    .where('e.state', '=', 'pending');
}
