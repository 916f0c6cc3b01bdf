/**
 * A partner entry's callbacks in a drawer from the right (GET /admin/device/apiConfig/deliveries):
 * newest first, each with its event, order, state, attempts, next try and the last answer or
 * reason; a failed one can be sent again (device:apiConfig:redeliver). Read-only otherwise.
 */
import { useLingui } from '@lingui/react/macro';
import type { DeliveryState, DeliveryView } from '../../../common/callbacks.ts';
import { request } from '../../api/client.ts';
import { hasPerm } from '../../app/store.ts';
import { PagedDrawer, usePagedEntries } from '../../kit/index.ts';
import { toast } from '../../ui/toast.tsx';

const STATE_CLASS: Record<DeliveryState, string> = {
  pending: 'bg-amber-50 text-amber-700',
  delivered: 'bg-emerald-50 text-emerald-700',
  failed: 'bg-red-50 text-red-700',
};

export function DeliveriesDrawer({ entry, onClose }: { entry: { id: number; name: string } | null; onClose: () => void }) {
  const { t } = useLingui();
  const list = usePagedEntries<DeliveryView>('/admin/device/apiConfig/deliveries', entry?.id ?? null);

  async function sendAgain(id: number) {
    await request({ url: '/admin/device/apiConfig/redeliver', method: 'POST', data: { id } });
    toast.success(t`The callback will be sent again`);
    list.reload();
  }

  const entryName = entry?.name ?? '';
  const mayResend = hasPerm('device:apiConfig:redeliver');
  return (
    <PagedDrawer
      open={entry !== null}
      onClose={onClose}
      title={t`Callbacks: ${entryName}`}
      testId="deliveries-drawer"
      widthClass="md:w-[44%]"
      list={list}
      emptyText={t`No callbacks yet`}
    >
      {list.rows.map((d) => (
        <DeliveryItem key={d.id} delivery={d} onSendAgain={mayResend ? () => void sendAgain(d.id).catch(() => undefined) : undefined} />
      ))}
    </PagedDrawer>
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
