// The file space: uploads and downloads (under comm: any logged-in user), the files and folders.
import path from 'node:path';
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { serial, type Serial } from './serial.ts';
import { createSpaceInfoResource } from './space-info.ts';
import { createSpaceTypeResource } from './space-type.ts';
import { localStorage, type BlobStorage } from './storage.ts';
import { uploadRoutes } from './upload.routes.ts';

export { UPLOAD_PATH } from './upload.routes.ts';

const stores = new WeakMap<AppContext, { storage: BlobStorage; blobs: Serial }>();

/** The app's blob storage and its one-at-a-time section (every writer of uploads shares them). */
export function spaceStore(ctx: AppContext): { storage: BlobStorage; blobs: Serial } {
  let store = stores.get(ctx);
  if (!store) stores.set(ctx, (store = { storage: localStorage(path.resolve(ctx.config.storageDir)), blobs: serial(ctx.db) }));
  return store;
}

export function spaceModule(ctx: AppContext) {
  const { storage, blobs } = spaceStore(ctx);
  const info = createSpaceInfoResource(ctx);
  const type = createSpaceTypeResource(ctx);

  const upload = uploadRoutes(ctx, storage, blobs);
  const app = new Hono<AppEnv>().route('/admin/base/comm', upload.comm).route('/admin/base/open', upload.open);
  // After files are deleted, bytes no other row names are removed.
  app.post(`${info.prefix}/delete`, async (c, next) => {
    const body = (await c.req.json().catch(() => null)) as { ids?: unknown } | null;
    const ids = Array.isArray(body?.ids) ? body.ids.map(Number).filter(Number.isInteger) : [];
    const keys = ids.length
      ? (await ctx.db.selectFrom('space_info').select('key').where('id', 'in', ids).execute()).map((r) => r.key)
      : [];
    await next();
    if (!keys.length || c.res.status !== 200) return;
    await blobs.run(async () => {
      for (const key of new Set(keys)) {
        const left = await ctx.db.selectFrom('space_info').select('id').where('key', '=', key).executeTakeFirst();
        if (!left) await storage.remove(key);
      }
    });
  });
  return app.route(info.prefix, info.routes).route(type.prefix, type.routes);
}
