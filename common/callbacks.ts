// Callbacks to partners (docs/partner-api.md, "Callbacks"): what the server posts to a partner
// entry's callback URL when an order's status or AI status changes, the retry schedule, and the
// delivery rows the API configuration page lists. Pure: no DOM, worker or Node imports.
import type { AiStatus, OrderStatus } from './orders.ts';

export const CALLBACK_EVENTS = ['orderStatus', 'aiStatus'] as const;
export type CallbackEvent = (typeof CALLBACK_EVENTS)[number];

export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** Sent with every callback: the delivery's id (the same on every attempt, so a partner can drop repeats). */
export const DELIVERY_HEADER = 'X-Archwright-Delivery';

/** The body posted (JSON), the same for both events; `event` says which changed. */
export interface CallbackBody {
  /** The delivery's id: repeated attempts of one delivery carry the same. */
  deliveryId: number;
  event: CallbackEvent;
  orderId: number;
  caseNo: string;
  /** The order's status after the change (common/orders.ts ORDER_STATUS). */
  status: OrderStatus;
  /** For orderStatus: the status it came from, and why (common/order-lifecycle.ts); else null. */
  fromStatus: OrderStatus | null;
  reason: string | null;
  /** The order's AI status after the change (common/orders.ts AI_STATUS), and why it failed (aiStatus fail). */
  aiStatus: AiStatus;
  aiError: string | null;
  /** When the change happened (ISO 8601, UTC). */
  time: string;
}

/** Attempts before a delivery fails for good. */
export const CALLBACK_MAX_ATTEMPTS = 10;
/** Age (from queueing) after which a delivery is not tried again (ms). */
export const CALLBACK_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** The wait after the first failed attempt (ms); it doubles after each, up to CALLBACK_MAX_DELAY_MS. */
export const CALLBACK_BASE_DELAY_MS = 30_000;
export const CALLBACK_MAX_DELAY_MS = 60 * 60 * 1000;
/** Jitter: the wait is scaled by a factor in [1 - J, 1 + J). */
export const CALLBACK_JITTER = 0.2;
/** How long the partner has to answer one attempt (ms). */
export const CALLBACK_TIMEOUT_MS = 10_000;

/** The wait before the next attempt after `attempts` failed ones (>= 1); `random` in [0, 1). */
export function callbackBackoffMs(attempts: number, random: number): number {
  const base = Math.min(CALLBACK_BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1), CALLBACK_MAX_DELAY_MS);
  return Math.round(base * (1 - CALLBACK_JITTER + 2 * CALLBACK_JITTER * random));
}

/** A delivery as GET /admin/device/apiConfig/deliveries lists it. */
export interface DeliveryView {
  id: number;
  configId: number;
  orderId: number;
  caseNo: string | null;
  event: CallbackEvent;
  state: DeliveryState;
  attempts: number;
  /** When a pending one is tried next ('YYYY-MM-DD HH:mm:ss' UTC), else null. */
  nextAttemptTime: string | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredTime: string | null;
  createTime: string;
  updateTime: string;
}
