// Order and AI statuses (spec section 4), numbered in common/orders.ts. The order module stores
// these codes; GET /admin/base/open/statusConfig labels them in the caller's language.
import type { MessageKey } from '../../core/i18n.ts';
import { AI_STATUS, type AiStatus, ORDER_STATUS, type OrderStatus } from '../../../common/orders.ts';

// The codes are the back office's too (common/orders.ts); the labels are the server's catalog.
export { AI_STATUS, type AiStatus, ORDER_STATUS, type OrderStatus };

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
