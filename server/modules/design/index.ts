// /admin/design/*: every call of the editor to the back end, from this one module.
// - The design document of an order (here): who may read or save it is exactly who sees the
//   order (its designer, or an orders admin); the permissions are design:save and
//   design:getDesignData. Saves are optimistic: each names the version it was based on, and a
//   save based on an older version is refused, so two tabs never silently overwrite each other.
//   The design's answer carries the automatic design's report kept with it (aiReport, or null):
//   it belongs to the design, so whoever reads the design reads it, with no permission of its own.
// - Bend jobs for the machines (bend.routes.ts): stored by the device hub's job service and
//   announced to the hub through ctx.delivery.
import { Hono } from 'hono';
import { DESIGN_MAX_BYTES, DESIGN_SCHEMA_VERSION } from '../../../common/design.ts';
import { designGetSchema, designSaveSchema } from '../../../common/design-request.ts';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import type { AppEnv } from '../../core/env.ts';
import { entryDoc, epsGroup } from '../../core/eps.ts';
import { ok } from '../../core/envelope.ts';
import { fail } from '../../core/errors.ts';
import { validate } from '../../core/validate.ts';
import { authOf } from '../../core/access.ts';
import { bendRoutes } from './bend.routes.ts';
import { orderCallRoutes } from './order-calls.routes.ts';
import { aiRoutes } from '../ai/routes.ts';
import { aiVendorRoutes } from '../ai/vendor-routes.ts';
import { readReport } from '../ai/report.ts';
import { assertEditable, currentVersion, readDesign, scopedOrder, visibleOrder, writeDesign } from './service.ts';

export type { DesignRecord } from './service.ts';

/** The newest document format this server accepts: the editor's (common/design.ts). */
export const MAX_SCHEMA_VERSION = DESIGN_SCHEMA_VERSION;
/** Largest document, as JSON text: measurements, outlines and transforms, never meshes. */
export { DESIGN_MAX_BYTES };

const DESIGN = epsGroup('design', '/admin/design', 'Design');

export function designModule(ctx: AppContext) {
  const doc = entryDoc(DESIGN);
  const routes = new Hono<AppEnv>()
    .post('/admin/design/save', doc('Save the design document of an order (optimistic: baseVersion)'), validate('json', designSaveSchema), async (c) => {
      const { userId } = authOf(c);
      const { orderId, data, baseVersion } = c.req.valid('json');
      const order = await scopedOrder(ctx.db, userId, orderId);
      if (!order) throw fail('designOrderNotFound');
      // A submitted (or processed) design is frozen: reopen it first.
      assertEditable(c.get('lang'), order.status);
      if (data.schemaVersion > MAX_SCHEMA_VERSION) throw fail('designSchemaUnsupported', { schemaVersion: data.schemaVersion });
      const text = JSON.stringify(data);
      const bytes = new TextEncoder().encode(text).length;
      if (bytes > DESIGN_MAX_BYTES) {
        throw fail('designTooLarge', { size: Math.ceil(bytes / 1024), max: DESIGN_MAX_BYTES / 1024 });
      }
      const now = formatTime(ctx.clock.now());
      const version = baseVersion + 1;
      const written = await writeDesign(ctx, { orderId, userId, baseVersion, schemaVersion: data.schemaVersion, text, time: now });
      if (!written) throw fail('designStale', { version: await currentVersion(ctx.db, orderId) });
      return ok(c, { orderId, version, updateTime: now });
    })
    .get('/admin/design/getDesignData', doc("The latest design document of an order with the automatic design's report (aiReport), or null"), validate('query', designGetSchema), async (c) => {
      const { userId } = authOf(c);
      const { orderId } = c.req.valid('query');
      if (!(await visibleOrder(ctx.db, userId, orderId))) throw fail('designOrderNotFound');
      const record = await readDesign(ctx.db, orderId);
      // A report is only stored with a design, so an order without a design has neither.
      return ok(c, record && { ...record, aiReport: await readReport(ctx.db, orderId) });
    });
  // After the document's routes (and eps entry), as when the bend calls were a module of their own.
  return routes.route('/', bendRoutes(ctx)).route('/', orderCallRoutes(ctx)).route('/', aiRoutes(ctx)).route('/', aiVendorRoutes(ctx));
}
