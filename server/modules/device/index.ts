// Devices (wire-bending machines), their calibration (and their calibration apps' sign-in) and the
// outside API settings.
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { createApiConfigResource } from './api-config.ts';
import { calibrationRoutes } from './calibration.routes.ts';
import { createDeviceConfigResource } from './device-config.ts';
import { createDeviceResource } from './device-info.ts';

export function deviceModule(ctx: AppContext) {
  const info = createDeviceResource(ctx);
  const config = createDeviceConfigResource(ctx);
  const apiConfig = createApiConfigResource(ctx);
  return new Hono<AppEnv>()
    .route(info.prefix, info.routes)
    .route(config.prefix, config.routes)
    .route(apiConfig.prefix, apiConfig.routes)
    .route('/', calibrationRoutes(ctx));
}
