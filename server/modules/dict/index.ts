// The dictionary module: types and their entries.
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { createDictInfoResource } from './dict-info.ts';
import { createDictTypeResource } from './dict-type.ts';

export function dictModule(ctx: AppContext) {
  const type = createDictTypeResource(ctx);
  const info = createDictInfoResource(ctx);
  return new Hono<AppEnv>().route(type.prefix, type.routes).route(info.prefix, info.routes);
}
