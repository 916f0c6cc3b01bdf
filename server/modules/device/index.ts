// Devices (wire-bending machines), their calibration and the outside API settings.
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { addEps, type Eps } from '../../core/eps.ts';
import { createApiConfigResource } from './api-config.ts';
import { createDeviceConfigResource } from './device-config.ts';
import { createDeviceResource } from './device-info.ts';

export function deviceModule(ctx: AppContext, eps: Eps) {
  const app = new Hono<AppEnv>();
  for (const r of [createDeviceResource(ctx), createDeviceConfigResource(ctx), createApiConfigResource(ctx)]) {
    addEps(eps, 'device', r.eps);
    app.route(r.prefix, r.routes);
  }
  return app;
}
