/**
 * A partner entry's callbacks in a drawer from the right (GET /admin/device/apiConfig/deliveries):
 * newest first, each with its event, order, state, attempts, next try and the last answer or
 * reason; a failed one can be sent again (device:apiConfig:redeliver). Read-only otherwise.
 */
import { useCallback, useEffect, useState } from 'react';
import { Dialog } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import type { DeliveryState, DeliveryView } from '../../../common/callbacks.ts';
import { request } from '../../api/client.ts';
import { hasPerm } from '../../app/store.ts';
import { Icon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { toast } from '../../ui/toast.tsx';

const SIZE = 20;
const STATE_CLASS: Record<DeliveryState, string> = {
  pending: 'bg-amber-50 text-amber-700',
  delivered: 'bg-emerald-50 text-emerald-700',
  failed: 'bg-red-50 text-red-700',
};

export function DeliveriesDrawer({ entry, onClose }: { entry: { id: number; name: string } | null; onClose: () => void }) {
  const { t } = useLingui();
  const [rows, setRows] = useState<DeliveryView[]>([]);
  const [page, setPage] = useState(1);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async (id: number, p: number) => {
    setLoading(true);
    try {
      const reply = await request<{ list: DeliveryView[]; pagination: { total: number } }>({ url: '/admin/device/apiConfig/deliveries', params: { id, page: p, size: SIZE } });
      setRows(reply.list);
      setTotal(reply.pagination.total);
    } catch {
      // The toast told the user.
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    if (entry) void load(entry.id, page);
  }, [entry, page, load]);
  useEffect(() => setPage(1), [entry?.id]);

  async function sendAgain(id: number) {
    await request({ url: '/admin/device/apiConfig/redeliver', method: 'POST', data: { id } });
    toast.success(t`The callback will be sent again`);
    if (entry) void load(entry.id, page);
  }

  const pages = Math.max(1, Math.ceil(total / SIZE));
  const entryName = entry?.name ?? '';
  const mayResend = hasPerm('device:apiConfig:redeliver');
  return (
    <Dialog.Root open={entry !== null} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/30" style={{ animation: 'aw-fade-in .15s' }} />
        <Dialog.Content
          aria-describedby={undefined}
          data-testid="deliveries-drawer"
          style={{ animation: 'aw-drawer-in .2s ease-out' }}
          className="fixed inset-y-0 right-0 z-50 flex w-full flex-col bg-white shadow-2xl outline-none md:w-[44%] md:min-w-96"
        >
          <div className="flex h-12 shrink-0 items-center gap-2 border-b border-slate-100 pr-2 pl-5">
            <Dialog.Title className="flex-1 truncate text-base font-semibold text-slate-900">{t`Callbacks: ${entryName}`}</Dialog.Title>
            <button type="button" className="aw-btn-icon" aria-label={t`Refresh`} title={t`Refresh`} onClick={() => entry && void load(entry.id, page)}>
              <Icon name="refresh" className="size-4" />
            </button>
            <Dialog.Close className="aw-btn-icon" aria-label={t`Close`}>
              <Icon name="x" className="size-4" />
            </Dialog.Close>
          </div>
          <div className="flex-1 overflow-auto px-5 py-3">
            {loading && rows.length === 0 ? (
              <div className="flex justify-center py-10">
                <Spinner />
              </div>
            ) : rows.length === 0 ? (
              <p className="py-10 text-center text-sm text-slate-400">{t`No callbacks yet`}</p>
            ) : (
              <ol className="flex flex-col gap-2">
                {rows.map((d) => (
                  <DeliveryItem key={d.id} delivery={d} onSendAgain={mayResend ? () => void sendAgain(d.id).catch(() => undefined) : undefined} />
                ))}
              </ol>
            )}
          </div>
          <div className="flex shrink-0 items-center gap-2 border-t border-slate-100 px-5 py-2.5 text-sm text-slate-600">
            <span className="ml-auto tabular-nums">{t`Total ${total}`}</span>
            <button type="button" className="aw-btn-default h-8" disabled={page <= 1} onClick={() => setPage(page - 1)} aria-label={t`Previous page`}>
              ‹
            </button>
            <span className="tabular-nums">
              {page} / {pages}
            </span>
            <button type="button" className="aw-btn-default h-8" disabled={page >= pages} onClick={() => setPage(page + 1)} aria-label={t`Next page`}>
              ›
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function DeliveryItem({ delivery, onSendAgain }: { delivery: DeliveryView; onSendAgain?: () => void }) {
  const { t } = useLingui();
  const { state, event, caseNo, orderId, createTime, attempts, lastStatus, nextAttemptTime, deliveredTime, lastError } = delivery;
  const stateLabel: Record<DeliveryState, string> = { pending: t`Pending`, delivered: t`Delivered`, failed: t`Failed` };
  return (
    <li className="rounded-md border border-slate-200 px-3 py-2 text-sm" data-testid="delivery">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATE_CLASS[state]}`}>{stateLabel[state]}</span>
        <span className="text-slate-700">{event === 'aiStatus' ? t`AI status` : t`Order status`}</span>
        <span className="font-mono text-xs text-slate-500">{caseNo ?? `#${orderId}`}</span>
        <span className="ml-auto text-xs text-slate-500 tabular-nums">{createTime}</span>
      </div>
      <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-500">
        <span className="tabular-nums">{t`Attempts: ${attempts}`}</span>
        {lastStatus !== null && <span className="tabular-nums">{`HTTP ${lastStatus}`}</span>}
        {nextAttemptTime && <span className="tabular-nums">{t`Next try: ${nextAttemptTime}`}</span>}
        {deliveredTime && <span className="tabular-nums">{t`Delivered: ${deliveredTime}`}</span>}
        {state === 'failed' && onSendAgain && (
          <button type="button" className="aw-btn-default ml-auto h-7 px-2" onClick={onSendAgain}>
            {t`Send again`}
          </button>
        )}
      </div>
      {lastError && <pre className="mt-1.5 font-mono text-xs break-all whitespace-pre-wrap text-slate-600">{lastError}</pre>}
    </li>
  );
}
