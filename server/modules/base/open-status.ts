// GET /admin/base/open/statusConfig: the labels of order and AI statuses in the caller's
// language, as [{ type, status, text }] (type "order" or "ai"; ?type= narrows to one).
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../core/env.ts';
import type { EpsDoc } from '../../core/eps.ts';
import { ok } from '../../core/envelope.ts';
import { t, type Lang, type MessageKey } from '../../core/i18n.ts';
import { validate } from '../../core/validate.ts';
import { AI_STATUS_LABELS, ORDER_STATUS_LABELS } from '../order/status.ts';

export interface StatusConfigItem {
  type: 'order' | 'ai';
  status: number;
  text: string;
}

function items(type: StatusConfigItem['type'], labels: Record<number, MessageKey>, lang: Lang): StatusConfigItem[] {
  return Object.entries(labels)
    .map(([status, key]) => ({ type, status: Number(status), text: t(lang, key) }))
    .sort((a, b) => a.status - b.status);
}

export function statusConfig(lang: Lang, type?: StatusConfigItem['type']): StatusConfigItem[] {
  const all = [...items('order', ORDER_STATUS_LABELS, lang), ...items('ai', AI_STATUS_LABELS, lang)];
  return type ? all.filter((i) => i.type === type) : all;
}

/** Mounted under /admin/base/open; `doc` describes it in eps. */
export function statusOpenRoutes(doc: EpsDoc) {
  return new Hono<AppEnv>().get('/statusConfig', doc('Order and AI status labels (?type=order|ai)'), validate('query', z.object({ type: z.enum(['order', 'ai']).optional() })), (c) =>
    ok(c, statusConfig(c.get('lang'), c.req.valid('query').type)),
  );
}
