// The Hono app: plain web-standard code, no Node imports. server/index.ts serves it on Node;
// tests call app.request() directly.
import { Hono } from 'hono';
import { sql } from 'kysely';
import { HTTPException } from 'hono/http-exception';
import type { AppContext } from './context.ts';
import type { AppEnv } from './core/env.ts';
import { describeRoutes, type Eps } from './core/eps.ts';
import { Code, envelope } from './core/envelope.ts';
import { ApiError } from './core/errors.ts';
import { pickLang, t } from './core/i18n.ts';
import { authGuard } from './core/auth.ts';
import { bodyReader } from './core/body.ts';
import { requestLog } from './core/request-log.ts';
import { baseModule } from './modules/base/index.ts';
import { recycleModule } from './modules/base/sys-recycle.ts';
import { dictModule } from './modules/dict/index.ts';
import { helpModule } from './modules/help/index.ts';
import { taskModule } from './modules/task/index.ts';
import pkg from '../package.json' with { type: 'json' };
import { spaceModule, UPLOAD_PATH } from './modules/space/index.ts';
import { orderModule } from './modules/order/index.ts';
import { designModule } from './modules/design/index.ts';
import { DENTURE_BASE_PATH } from './modules/design/denture-base.ts';
import { deviceModule } from './modules/device/index.ts';
import { dashboardModule } from './modules/dashboard/index.ts';
import { openModule, PARTNER_ORDER_PATH } from './modules/open/index.ts';
import { chatModule } from './modules/chat/index.ts';
import { helperModule } from './modules/helper/index.ts';
import { userModule } from './modules/user/index.ts';
import { demoModule } from './modules/demo/index.ts';
import { pluginModule } from './modules/plugin/index.ts';

/** The running build's version, from package.json: the one place it is set (the client's
 * version check compares it with its own, also from package.json). */
export const VERSION = { gn: pkg.version };

export const HEALTH_PATH = '/healthz';
const HEALTH_TIMEOUT_MS = 2000;

/** Whether one trivial query comes back within HEALTH_TIMEOUT_MS. */
async function databaseReachable(ctx: AppContext): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), HEALTH_TIMEOUT_MS)));
  try {
    return await Promise.race([sql`select 1`.execute(ctx.db).then(() => true), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export function createApp(ctx: AppContext) {
  const eps: Eps = {};
  const app = new Hono<AppEnv>();

  app.use('*', async (c, next) => {
    c.set('lang', pickLang(c.req.header('accept-language')));
    await next();
  });
  app.use('/admin/*', requestLog(ctx));
  // Every body is bounded (size, JSON depth) before anything else looks at the request. Uploads
  // (the denture base's STL, a partner's order with its models) have their own, larger limits
  // (UPLOAD_MAX_MB per file, parts, total), checked while streaming.
  app.use('/admin/*', bodyReader({ limit: ctx.config.bodyLimit, skip: (path) => path === UPLOAD_PATH || path === DENTURE_BASE_PATH || path === PARTNER_ORDER_PATH }));
  app.use('/admin/*', authGuard(ctx));

  // Every module is chained, so that AppType describes the whole API (the browser's typed client
  // is built from it). The order is the routing order.
  const routes = app
    .get('/version.json', (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(VERSION);
    })
    // The load balancer's health check: anyone may call it, it reads nothing and says nothing
    // but whether this process reaches its database.
    .get(HEALTH_PATH, async (c) => {
      c.header('Cache-Control', 'no-store');
      const ok = await databaseReachable(ctx);
      return c.json({ ok }, ok ? 200 : 503);
    })
    .route('/', baseModule(ctx, eps))
    .route('/', spaceModule(ctx))
    .route('/', orderModule(ctx))
    .route('/', deviceModule(ctx))
    .route('/', dictModule(ctx))
    .route('/', taskModule(ctx))
    .route('/', helpModule(ctx))
    .route('/', recycleModule(ctx))
    .route('/', dashboardModule(ctx))
    .route('/', designModule(ctx))
    .route('/', openModule(ctx))
    .route('/', chatModule(ctx))
    .route('/', helperModule(ctx))
    .route('/', userModule(ctx))
    .route('/', demoModule(ctx))
    .route('/', pluginModule(ctx));
  // The eps description is read off the registered routes (core/eps.ts), now that all are.
  Object.assign(eps, describeRoutes(app.routes));

  app.notFound((c) => c.json(envelope(Code.fail, t(c.get('lang') ?? 'zh', 'notFound')), 404));

  app.onError((err, c) => {
    const lang = c.get('lang') ?? pickLang(c.req.header('accept-language'));
    if (err instanceof ApiError) {
      return c.json(envelope(err.code, t(lang, err.key, err.params)), err.status);
    }
    if (err instanceof HTTPException && err.status === 400) {
      return c.json(envelope(Code.validation, t(lang, 'bodyInvalid')));
    }
    if (err instanceof HTTPException && err.status === 413) {
      return c.json(envelope(Code.fail, t(lang, 'bodyTooLarge')), 413);
    }
    // Details go to the server log only: never stacks or SQL to the client.
    ctx.logger.error(`Unhandled error on ${c.req.method} ${c.req.path}`, err);
    return c.json(envelope(Code.internal, t(lang, 'internal')));
  });

  return routes;
}

export type AppType = ReturnType<typeof createApp>;
