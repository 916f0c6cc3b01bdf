// The editor header's order part: the order's status, "Submit design" (or "Reopen" once
// submitted) with what the submission found, the order switcher (design/changeOrderList) and the
// patient's other designs (design/otherDesign) with "Start from this design".
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { Popover } from 'radix-ui';
import type { EditorEngine } from '../engine/EditorEngine.ts';
import { useEngineStore } from '../ui/useEngineStore.ts';
import { useStatusOptions } from '../../modules/order/status.ts';
import { changeOrderList, otherDesigns, type OrderBrief } from '../../api/lifecycle.ts';
import { errorMessage } from '../../api/client.ts';
import type { LifecycleView } from './lifecycle.ts';
import { EditorIcon } from '../ui/icons.tsx';
import { useConfirm } from '../../kit/index.ts';

const IDLE: LifecycleView = { orderId: null, status: null, busy: null, outcome: null };
const BUTTON = 'inline-flex h-8 items-center gap-1.5 rounded-md border px-2.5 text-xs font-medium disabled:cursor-not-allowed disabled:opacity-40';

export function OrderHeader({ engine, orderId }: { engine: EditorEngine | null; orderId: number }) {
  const { t } = useLingui();
  const view = useEngineStore(engine?.order, (v) => v, IDLE);
  const { order: statuses } = useStatusOptions();
  const status = statuses.find((s) => s.value === view.status);
  const run = (id: 'design.submit' | 'design.reopen') => engine?.actions.run(id);
  const canSubmit = !!engine && engine.order.canSubmit();
  const canReopen = !!engine && engine.order.canReopen();
  return (
    <div className="flex items-center gap-2" data-testid="order-header">
      {status && (
        <span
          className="rounded-full px-2 py-0.5 text-xs font-medium text-white whitespace-nowrap"
          style={{ backgroundColor: status.color ?? '#64748b' }}
          data-testid="order-status"
          data-status={String(view.status)}
        >
          {status.label}
        </span>
      )}
      {view.status === 1 || view.status === 2 ? (
        <button type="button" className={`${BUTTON} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`} disabled={!canReopen} onClick={() => run('design.reopen')} data-testid="design-reopen">
          {t`Reopen`}
        </button>
      ) : (
        <button
          type="button"
          className={`${BUTTON} border-primary bg-primary text-white hover:bg-primary-dark`}
          disabled={!canSubmit}
          onClick={() => run('design.submit')}
          data-testid="design-submit"
          aria-keyshortcuts="Control+Enter"
        >
          <EditorIcon name="submit" className="size-4" />
          {view.busy === 'submit' ? t`Submitting…` : t`Submit design`}
        </button>
      )}
      <OtherDesigns engine={engine} orderId={orderId} busy={view.busy !== null} />
      <OrderSwitcher orderId={orderId} />
    </div>
  );
}

/** What the last submit, reopen or copy came to: under the header until the next. */
export function OrderOutcome({ engine }: { engine: EditorEngine | null }) {
  const { t } = useLingui();
  const view = useEngineStore(engine?.order, (v) => v, IDLE);
  const o = view.outcome;
  if (!o) return null;
  const tone = o.kind === 'submitted' || o.kind === 'reopened' || o.kind === 'copied' ? 'border-green-200 bg-green-50 text-green-800' : 'border-red-200 bg-red-50 text-red-800';
  const text = (() => {
    switch (o.kind) {
      case 'submitted':
        return t`The design was submitted: the order is to be processed.`;
      case 'reopened':
        return t`The design was reopened for changes.`;
      case 'copied': {
        const caseNo = o.caseNo;
        return t`The design of order ${caseNo} was loaded; it is saved with this order (Undo takes it back).`;
      }
      case 'no-wires':
        return t`The design has no wires: there is nothing to submit.`;
      case 'failed-checks':
        return t`The design was not submitted: its checks found errors.`;
      case 'save-failed': {
        const message = o.message;
        return t`The design was not submitted: it could not be saved. ${message}`;
      }
      case 'error': {
        const message = o.message;
        return t`The design was not submitted: ${message}`;
      }
    }
  })();
  const wireName = (id?: string): string => (id ? (engine?.document.wires?.findIndex((w) => w.id === id) ?? -1) + 1 + '' : '');
  return (
    <div role={o.kind === 'submitted' || o.kind === 'reopened' || o.kind === 'copied' ? 'status' : 'alert'} className={`border-b px-4 py-2 text-sm ${tone}`} data-testid="submit-outcome" data-kind={o.kind}>
      <p>{text}</p>
      {o.kind === 'failed-checks' && (
        <ul className="mt-1 list-disc pl-5 text-xs" data-testid="submit-issues">
          {o.issues.map((issue, i) => {
            const wire = wireName(issue.wireId);
            const message = issue.message ?? issue.code;
            return (
              <li key={i} data-severity={issue.severity}>
                {issue.severity === 'error' ? t`Error` : t`Warning`}
                {wire ? ` · ${t`Wire ${wire}`}` : ''}: {message}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

function OrderSwitcher({ orderId }: { orderId: number }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [orders, setOrders] = useState<OrderBrief[] | null>(null);
  const load = () => {
    if (orders) return;
    changeOrderList().then(setOrders, () => setOrders([]));
  };
  useEffect(() => setOrders(null), [orderId]);
  return (
    <select
      aria-label={t`Switch order`}
      data-testid="order-switcher"
      className="h-8 max-w-48 rounded-md border border-slate-300 bg-white px-1.5 text-xs text-slate-700"
      value={String(orderId)}
      onFocus={load}
      onPointerDown={load}
      onChange={(e) => void navigate({ href: `/bend?orderId=${e.target.value}` })}
    >
      <option value={String(orderId)}>{t`Switch order…`}</option>
      {orders
        ?.filter((o) => o.id !== orderId)
        .map((o) => (
          <option key={o.id} value={String(o.id)}>
            {o.caseNo} · {o.patientName}
          </option>
        ))}
    </select>
  );
}

function OtherDesigns({ engine, orderId, busy }: { engine: EditorEngine | null; orderId: number; busy: boolean }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const [list, setList] = useState<OrderBrief[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, confirmDialog] = useConfirm();
  useEffect(() => {
    if (!open) return;
    setError(null);
    otherDesigns({ orderId }).then(setList, (e: unknown) => {
      setList([]);
      setError(errorMessage(e));
    });
  }, [open, orderId]);
  const start = async (o: OrderBrief) => {
    const caseNo = o.caseNo;
    const ok = await confirm({ message: t`Replace this order's design with the design of order ${caseNo}? Undo takes it back.`, confirmLabel: t`Start from this design` });
    if (!ok) return;
    setOpen(false);
    await engine?.order.startFrom(o);
  };
  return (
    <>
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Trigger asChild>
          <button type="button" className={`${BUTTON} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`} disabled={!engine || busy} data-testid="other-designs">
            {t`Other designs`}
          </button>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content align="end" sideOffset={6} className="z-50 w-80 rounded-md border border-slate-200 bg-white p-2 text-sm shadow-lg" aria-label={t`Other designs of this patient`}>
            <h3 className="mb-1 text-xs font-semibold text-slate-500">{t`Other designs of this patient`}</h3>
            {list === null && <p className="text-xs text-slate-500">{t`Loading…`}</p>}
            {error && <p className="text-xs text-red-700">{error}</p>}
            {list?.length === 0 && !error && <p className="text-xs text-slate-500">{t`No other designs of this patient.`}</p>}
            <ul className="flex flex-col gap-1" data-testid="other-design-list">
              {list?.map((o) => (
                <li key={o.id} className="flex items-center gap-2 rounded border border-slate-100 px-2 py-1">
                  <span className="min-w-0 flex-1 truncate text-xs">
                    <span className="font-mono">{o.caseNo}</span> · {o.patientName}
                    {o.updateTime ? <span className="block text-slate-500">{o.updateTime.slice(0, 16)}</span> : null}
                  </span>
                  <button type="button" className="shrink-0 rounded border border-primary px-1.5 py-0.5 text-xs text-primary hover:bg-primary-light-9" onClick={() => void start(o)}>
                    {t`Start from this design`}
                  </button>
                </li>
              ))}
            </ul>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      {confirmDialog}
    </>
  );
}
