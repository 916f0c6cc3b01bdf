// The one place that numbers order and AI statuses (spec section 4). The order module stores
// these codes; GET /admin/base/open/statusConfig labels them in the caller's language.
import type { MessageKey } from '../../core/i18n.ts';

export const ORDER_STATUS = {
  /** Being designed in the editor. */
  design: 0,
  /** Designed, waiting for a machine. */
  pending: 1,
  processed: 2,
  /** The occlusion model was uploaded; bite registration runs. */
  biteRegistration: 3,
} as const;
export type OrderStatus = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];

export const AI_STATUS = {
  notEnabled: 0,
  processing: 1,
  ready: 2,
  fail: 3,
  submitted: 4,
} as const;
export type AiStatus = (typeof AI_STATUS)[keyof typeof AI_STATUS];

export const ORDER_STATUS_LABELS: Record<OrderStatus, MessageKey> = {
  [ORDER_STATUS.design]: 'orderStatusDesign',
  [ORDER_STATUS.pending]: 'orderStatusPending',
  [ORDER_STATUS.processed]: 'orderStatusProcessed',
  [ORDER_STATUS.biteRegistration]: 'orderStatusBite',
};

export const AI_STATUS_LABELS: Record<AiStatus, MessageKey> = {
  [AI_STATUS.notEnabled]: 'aiStatusOff',
  [AI_STATUS.processing]: 'aiStatusProcessing',
  [AI_STATUS.ready]: 'aiStatusReady',
  [AI_STATUS.fail]: 'aiStatusFail',
  [AI_STATUS.submitted]: 'aiStatusSubmitted',
};
