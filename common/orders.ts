// The codes of order and AI statuses (spec section 4): stored by the server's order module,
// labelled by GET /admin/base/open/statusConfig, and read by the back office. Pure: no DOM,
// worker or Node imports.

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
