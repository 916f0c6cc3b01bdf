// The plugin demo pages' calls: the in-memory demo list, and the editors' saved texts.
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { createDemoArticleResource } from './article.ts';
import { DEMO_PREFIX, demoSampleRoutes } from './sample.ts';

export function demoModule(ctx: AppContext) {
  const article = createDemoArticleResource(ctx);
  return new Hono<AppEnv>().route(DEMO_PREFIX, demoSampleRoutes(ctx)).route(article.prefix, article.routes);
}
