// The task module: scheduled built-in jobs and their run log. The server starts the scheduler
// (schedulerFor(ctx).start()) and stops it on close.
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { createTaskResource } from './task-info.ts';

export { schedulerFor } from './scheduler.ts';
export { registerJob } from './jobs.ts';

export function taskModule(ctx: AppContext) {
  const r = createTaskResource(ctx);
  return new Hono<AppEnv>().route(r.prefix, r.routes);
}
