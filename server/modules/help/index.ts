// The help centre: article categories and articles (under /admin/base/sys like the contract
// says), with the reader's calls for every logged-in user.
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { addEps, type Eps } from '../../core/eps.ts';
import { createArticleResource } from './article.ts';
import { createCategoryResource } from './category.ts';

export function helpModule(ctx: AppContext, eps: Eps) {
  const app = new Hono<AppEnv>();
  for (const r of [createCategoryResource(ctx), createArticleResource(ctx)]) {
    addEps(eps, 'base', r.eps);
    app.route(r.prefix, r.routes);
  }
  return app;
}
