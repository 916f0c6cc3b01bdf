// The dictionary module: types and their entries.
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { addEps, type Eps } from '../../core/eps.ts';
import { createDictInfoResource } from './dict-info.ts';
import { createDictTypeResource } from './dict-type.ts';

export function dictModule(ctx: AppContext, eps: Eps) {
  const app = new Hono<AppEnv>();
  for (const r of [createDictTypeResource(ctx), createDictInfoResource(ctx)]) {
    addEps(eps, 'dict', r.eps);
    app.route(r.prefix, r.routes);
  }
  return app;
}
