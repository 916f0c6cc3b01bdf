// The help centre: article categories and articles (under /admin/base/sys like the contract
// says), with the reader's calls for every logged-in user.
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { createArticleResource } from './article.ts';
import { createCategoryResource } from './category.ts';

export function helpModule(ctx: AppContext) {
  const category = createCategoryResource(ctx);
  const article = createArticleResource(ctx);
  return new Hono<AppEnv>().route(category.prefix, category.routes).route(article.prefix, article.routes);
}
