// The base module: auth (open), the logged-in user's calls (comm) and the system resources.
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { addEps, type Eps } from '../../core/eps.ts';
import { commApi, commRoutes } from './comm.routes.ts';
import { openApi, openRoutes } from './open.routes.ts';
import { createLogResource } from './sys-log.ts';
import { statusOpenApi, statusOpenRoutes } from './open-status.ts';
import { createParamResource } from './sys-param.ts';
import { createReleaseResource, releaseOpenApi, releaseOpenRoutes } from './sys-release.ts';
import { createUserResource } from './sys-user.ts';
import { createDepartmentResource } from './sys-department.ts';
import { createMenuResource } from './sys-menu.ts';
import { createRoleResource } from './sys-role.ts';

export function baseModule(ctx: AppContext, eps: Eps) {
  const resources = [createUserResource(ctx), createLogResource(ctx), createParamResource(ctx), createReleaseResource(ctx)];
  resources.push(createRoleResource(ctx), createMenuResource(ctx), createDepartmentResource(ctx));
  addEps(eps, 'base', { prefix: '/admin/base/open', name: 'BaseOpen', api: [...openApi], columns: [] });
  addEps(eps, 'base', { prefix: '/admin/base/comm', name: 'BaseComm', api: [...commApi], columns: [] });
  addEps(eps, 'base', { prefix: '/admin/base/open', name: 'BaseOpenInfo', api: [...releaseOpenApi, ...statusOpenApi], columns: [] });
  const app = new Hono<AppEnv>()
    .route('/admin/base/open', openRoutes(ctx, eps))
    .route('/admin/base/open', releaseOpenRoutes(ctx))
    .route('/admin/base/open', statusOpenRoutes())
    .route('/admin/base/comm', commRoutes(ctx));
  for (const r of resources) {
    addEps(eps, 'base', r.eps);
    app.route(r.prefix, r.routes);
  }
  return app;
}
