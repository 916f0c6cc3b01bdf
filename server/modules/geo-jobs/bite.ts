// The `bite` job kind: its thread runs bite.thread.ts (or an injected module, in tests); when it
// ends the registered bite is stored (order_bite, source auto) and the order goes back to design
// (3 -> 0), also when registration failed: the history row's detail is the reason, and
// getOcclusalModelData shows it so that the designer can align by hand.
import type { BiteResult } from '../../../common/bite.ts';
import { ORDER_STATUS } from '../../../common/orders.ts';
import { formatTime } from '../../core/clock.ts';
import { moveOrder } from '../order/lifecycle.ts';
import { teethKind } from './teeth.ts';
import { autodesignKind } from '../ai/kind.ts';
import type { GeoKind, GeoKinds, HookArgs } from './types.ts';

export const BITE_THREAD = new URL('./bite.thread.ts', import.meta.url).href;

async function ended({ ctx, trx, job }: HookArgs, result: BiteResult | null, error: string | null) {
  if (job.orderId === null) return;
  const now = ctx.clock.now();
  const time = formatTime(now);
  if (result && !result.error) {
    await trx
      .insertInto('order_bite')
      .values({ orderId: job.orderId, jobId: job.id, source: 'auto', result: JSON.stringify(result), createTime: time, updateTime: time })
      .onConflict((oc) => oc.column('orderId').doUpdateSet({ jobId: job.id, source: 'auto', result: JSON.stringify(result), updateTime: time }))
      .execute();
  }
  await moveOrder(trx, { orderId: job.orderId, to: ORDER_STATUS.design, reason: 'bite', userId: null, detail: error ?? result?.error ?? null, now });
}

/** The bite kind; `module`/`fn` name other thread code (tests). */
export function biteKind(thread: { module?: string; fn?: string } = {}): GeoKind {
  return {
    module: thread.module ?? BITE_THREAD,
    fn: thread.fn ?? 'run',
    onDone: (result, args) => ended(args, result as BiteResult, null),
    onFailed: (error, args) => ended(args, null, error),
  };
}

/** Every kind the server runs. */
export const GEO_KINDS: GeoKinds = { bite: biteKind(), teeth: teethKind(), autodesign: autodesignKind() };
