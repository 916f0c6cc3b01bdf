// Users' own data outside the system area: their delivery addresses.
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { createAddressResource } from './address.ts';

export function userModule(ctx: AppContext) {
  const address = createAddressResource(ctx);
  return new Hono<AppEnv>().route(address.prefix, address.routes);
}
