// The open API for partners (/admin/sy/open, docs/partner-api.md).
import type { AppContext } from '../../context.ts';
import { openRoutes } from './routes.ts';

export { PARTNER_ORDER_PATH } from './routes.ts';
export { orderPartner } from './partner.ts';

export function openModule(ctx: AppContext) {
  return openRoutes(ctx);
}
