// Server messages in zh (default), en and de. The client shows `message` as is.
// One catalog file per area under messages/, merged here.

import { aiMessages } from './messages/ai.ts';
import { baseMessages } from './messages/base.ts';
import { callbackMessages } from './messages/callbacks.ts';
import { callsMessages } from './messages/calls.ts';
import { chatMessages } from './messages/chat.ts';
import { demoMessages } from './messages/demo.ts';
import { designMessages } from './messages/design.ts';
import { helperMessages } from './messages/helper.ts';
import { hubMessages } from './messages/hub.ts';
import { lifecycleMessages } from './messages/lifecycle.ts';
import { opsMessages } from './messages/ops.ts';
import { partnerMessages } from './messages/partner.ts';
import { pluginMessages } from './messages/plugins.ts';
import { ordersMessages } from './messages/orders.ts';
import { sysMessages } from './messages/sys.ts';
import type { Lang } from './messages/types.ts';

export type { Lang };
export const LANGS: readonly Lang[] = ['zh', 'en', 'de'];

const catalog = {
  ...baseMessages,
  ...sysMessages,
  ...opsMessages,
  ...ordersMessages,
  ...designMessages,
  ...hubMessages,
  ...lifecycleMessages,
  ...aiMessages,
  ...callbackMessages,
  ...partnerMessages,
  ...callsMessages,
  ...chatMessages,
  ...helperMessages,
  ...demoMessages,
  ...pluginMessages,
};

export type MessageKey = keyof typeof catalog;
export type MessageParams = Record<string, string | number>;

export function t(lang: Lang, key: MessageKey, params?: MessageParams): string {
  const template = catalog[key][lang];
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** The first of zh/en/de named in Accept-Language (by q, then order); zh when none is. */
export function pickLang(header: string | undefined | null): Lang {
  if (!header) return 'zh';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...rest] = part.trim().split(';');
      const q = rest.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { primary: tag.trim().toLowerCase().split('-')[0] ?? '', weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((e) => e.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const entry of ranked) {
    if ((LANGS as readonly string[]).includes(entry.primary)) return entry.primary as Lang;
  }
  return 'zh';
}
