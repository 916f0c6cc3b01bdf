/**
 * The teeth of an order's jaw models (the server's `teeth` job, docs/jobs.md): its state and,
 * when done, the stored segmentation (common/teeth.ts; decodeLabels against the model's welded
 * vertex count). Through the typed client, like lifecycle.ts.
 */
import { api } from './api.ts';
import { unwrap } from './typed.ts';
import type { OrderTeeth, TeethState } from '../../common/order-lifecycle.ts';
import type { Jaw } from '../../common/teeth.ts';

export type { OrderTeeth, TeethState } from '../../common/order-lifecycle.ts';

/** GET /admin/design/getTeeth?orderId=&jaw=: state 'none' | 'queued' | 'running' | 'done' | 'failed', progress, error, teeth. */
export function orderTeeth(orderId: number, jaw: Jaw, signal?: AbortSignal): Promise<OrderTeeth> {
  const query = { orderId: String(orderId), jaw };
  return unwrap(api({ silent: true }).admin.design.getTeeth.$get({ query }, signal ? { init: { signal } } : undefined)) as Promise<OrderTeeth>;
}

/** Whether the state may still change without a new model (poll while true). */
export function teethPending(state: TeethState): boolean {
  return state === 'queued' || state === 'running';
}
