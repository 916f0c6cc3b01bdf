// Orders. The take-time list (/order/time) reads the same resource: its time columns.
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { createOrderResource } from './order-info.ts';

export function orderModule(ctx: AppContext) {
  const info = createOrderResource(ctx);
  return new Hono<AppEnv>().route(info.prefix, info.routes);
}
