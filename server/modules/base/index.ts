// The base module: auth (open), the logged-in user's calls (comm) and the system resources.
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { entryDoc, epsGroup, type Eps } from '../../core/eps.ts';
import { commRoutes } from './comm.routes.ts';
import { APP_COMM_PREFIX, publicParamRoutes } from './param-public.ts';
import { openRoutes } from './open.routes.ts';
import { createLogResource } from './sys-log.ts';
import { statusOpenRoutes } from './open-status.ts';
import { createParamResource } from './sys-param.ts';
import { createReleaseResource, releaseOpenRoutes } from './sys-release.ts';
import { createUserResource } from './sys-user.ts';
import { createDepartmentResource } from './sys-department.ts';
import { createMenuResource } from './sys-menu.ts';
import { menuFileRoutes } from './menu-create.ts';
import { createRoleResource } from './sys-role.ts';

/** eps entry of the open calls that are not auth: release notes and status labels. */
const OPEN_INFO = epsGroup('base', '/admin/base/open', 'BaseOpenInfo');

/** `eps` is the app's description, filled once every module is mounted (open/eps serves it). */
export function baseModule(ctx: AppContext, eps: Eps) {
  const user = createUserResource(ctx);
  const log = createLogResource(ctx);
  const param = createParamResource(ctx);
  const release = createReleaseResource(ctx);
  const role = createRoleResource(ctx);
  const menu = createMenuResource(ctx);
  const department = createDepartmentResource(ctx);
  const openInfo = entryDoc(OPEN_INFO);
  return new Hono<AppEnv>()
    .route('/admin/base/open', openRoutes(ctx, eps))
    .route('/admin/base/comm', commRoutes(ctx))
    .route('/admin/base/comm', publicParamRoutes(ctx, 'BaseCommParam', '/admin/base/comm'))
    .route(APP_COMM_PREFIX, publicParamRoutes(ctx, 'BaseApp', APP_COMM_PREFIX))
    // The same allow-listed params for the app itself before sign-in (the client hardening switch).
    .route('/admin/base/open', publicParamRoutes(ctx, 'BaseOpenParam', '/admin/base/open'))
    .route('/admin/base/open', releaseOpenRoutes(ctx, openInfo))
    .route('/admin/base/open', statusOpenRoutes(openInfo))
    .route(user.prefix, user.routes)
    .route(log.prefix, log.routes)
    .route(param.prefix, param.routes)
    .route(release.prefix, release.routes)
    .route(role.prefix, role.routes)
    .route(menu.prefix, menu.routes)
    .route(menu.prefix, menuFileRoutes(ctx, eps))
    .route(department.prefix, department.routes);
}
