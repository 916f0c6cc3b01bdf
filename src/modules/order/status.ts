/**
 * Order and AI status labels from `GET /admin/base/open/statusConfig` (in the UI language), with
 * translated fallbacks when the call is unavailable. Codes: common/orders.ts.
 */
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { request } from '../../api/client.ts';
import type { Option } from '../../kit/index.ts';

interface StatusItem {
  type: 'order' | 'ai';
  status: number;
  text: string;
}

const ORDER_COLORS: Record<number, string> = { 0: '#4165d7', 1: '#d97706', 2: '#16a34a', 3: '#7c3aed' };
const AI_COLORS: Record<number, string> = { 0: '#64748b', 1: '#d97706', 2: '#16a34a', 3: '#dc2626', 4: '#4165d7' };

export function useStatusOptions(): { order: Option[]; ai: Option[] } {
  const { t, i18n } = useLingui();
  const fallback = {
    order: [
      { label: t`In design`, value: 0 },
      { label: t`To be processed`, value: 1 },
      { label: t`Processed`, value: 2 },
      { label: t`Bite registration in progress`, value: 3 },
    ],
    ai: [
      { label: t`Not enabled`, value: 0 },
      { label: t`Processing`, value: 1 },
      { label: t`Ready`, value: 2 },
      { label: t`Failed`, value: 3 },
      { label: t`Submitted`, value: 4 },
    ],
  };
  const [items, setItems] = useState<StatusItem[] | null>(null);
  useEffect(() => {
    let live = true;
    request<StatusItem[]>({ url: '/admin/base/open/statusConfig', silent: true }).then(
      (list) => live && Array.isArray(list) && setItems(list),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [i18n.locale]);
  const pick = (type: 'order' | 'ai', colors: Record<number, string>): Option[] => {
    const fromServer = items?.filter((i) => i.type === type).map((i) => ({ label: i.text, value: i.status }));
    return (fromServer?.length ? fromServer : fallback[type]).map((o) => ({ ...o, color: colors[Number(o.value)] ?? '#64748b' }));
  };
  return { order: pick('order', ORDER_COLORS), ai: pick('ai', AI_COLORS) };
}
