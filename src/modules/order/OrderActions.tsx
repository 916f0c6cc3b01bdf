/**
 * The order list's side dialogs for the editor's order calls (docs/api.md, "The editor's order
 * calls"): "Remake" (POST /admin/design/copyOrder: a new order with the same models and a copy of
 * the design, optionally for another patient name or with another remark) and "Assign designer"
 * (POST /admin/design/designer). Both keep the dialog open on a refusal and show the server's
 * sentence in it; on success they hand the result to the list, which refreshes.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import { ApiError } from '../../api/http.ts';
import { assignDesigner, copyOrder, type CopiedOrder } from '../../api/lifecycle.ts';
import { Code } from '../../../common/codes.ts';
import { getApp, hasPerm } from '../../app/store.ts';
import type { Option, Row } from '../../kit/index.ts';
import { Modal } from '../../ui/Modal.tsx';

/** Who may remake an order: the remake call's permission and adding orders (the server checks both). */
export function canRemake(): boolean {
  return hasPerm('design:copyOrder') && hasPerm('order:info:add');
}

/** Who may assign a row's designer: holders of design:designer who are orders admins or the order's creator. */
export function canAssignDesigner(row: Row): boolean {
  if (!hasPerm('design:designer')) return false;
  if (hasPerm('order:info:all')) return true;
  const me = getApp().user?.id;
  return me !== undefined && Number(row.creatorId) === me;
}

const errorText = (e: unknown) => (e instanceof Error && e.message ? e.message : String(e));

function Footer({ busy, submit, onClose }: { busy: boolean; submit: string; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <div className="mt-5 flex justify-end gap-2">
      <button type="button" className="aw-btn-default h-8 px-3" onClick={onClose}>
        {t`Cancel`}
      </button>
      <button type="submit" className="aw-btn h-8 bg-primary px-3 text-white hover:bg-primary-dark disabled:opacity-50" disabled={busy}>
        {submit}
      </button>
    </div>
  );
}

export interface RemakeDialogProps {
  /** The order to remake; null: closed. */
  order: Row | null;
  onClose: () => void;
  onDone: (created: CopiedOrder) => void;
}

export function RemakeDialog({ order, onClose, onDone }: RemakeDialogProps) {
  const { t } = useLingui();
  const [patientName, setPatientName] = useState('');
  const [remark, setRemark] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = order?.id;
  useEffect(() => {
    setPatientName(String(order?.patientName ?? ''));
    setRemark(String(order?.remark ?? ''));
    setError(null);
    setBusy(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset per order
  }, [id]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!order || busy) return;
    setBusy(true);
    setError(null);
    const name = patientName.trim();
    try {
      const created = await copyOrder({
        orderId: Number(order.id),
        // Only what was changed is sent: the server keeps the original otherwise.
        ...(name && name !== order.patientName ? { patientName: name } : {}),
        ...(remark !== String(order.remark ?? '') ? { remark: remark === '' ? null : remark } : {}),
      });
      onDone(created);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const caseNo = String(order?.caseNo ?? '');
  return (
    <Modal open={order !== null} title={t`Remake ${caseNo}`} onClose={onClose} width="480px">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <p className="mb-4 text-sm text-slate-600">{t`A new order is created with the same models and a copy of the design and the bite. Change the patient or the remark for the remake if needed.`}</p>
        <label className="mb-1 block text-sm text-slate-700" htmlFor="remake-patient">
          {t`Patient`}
        </label>
        <input id="remake-patient" className="aw-input mb-3 w-full" value={patientName} maxLength={255} onChange={(e) => setPatientName(e.target.value)} />
        <label className="mb-1 block text-sm text-slate-700" htmlFor="remake-remark">
          {t`Remark`}
        </label>
        <textarea id="remake-remark" className="aw-input w-full" rows={3} value={remark} maxLength={1024} onChange={(e) => setRemark(e.target.value)} />
        {error && (
          <p role="alert" className="mt-3 text-sm text-red-600">
            {error}
          </p>
        )}
        <Footer busy={busy} submit={t`Create remake`} onClose={onClose} />
      </form>
    </Modal>
  );
}

export interface DesignerDialogProps {
  /** The order whose designer changes; null: closed. */
  order: Row | null;
  /** Who can be picked (the order form's designer options). */
  designers: Option[];
  onClose: () => void;
  onDone: (designerId: number) => void;
}

export function DesignerDialog({ order, designers, onClose, onDone }: DesignerDialogProps) {
  const { t } = useLingui();
  const [choice, setChoice] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = order?.id;
  useEffect(() => {
    setChoice(order?.designerId == null ? '' : String(order.designerId));
    setError(null);
    setBusy(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset per order
  }, [id]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!order || busy) return;
    if (!choice) {
      setError(t`Please choose a designer`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await assignDesigner({ orderId: Number(order.id), designerId: Number(choice) });
      onDone(Number(choice));
    } catch (err) {
      // The server names the field ("designerId is invalid"): say what it means here.
      setError(err instanceof ApiError && err.code === Code.validation ? t`This user cannot be given orders to design (disabled, or without the design permission). Choose another designer.` : errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const caseNo = String(order?.caseNo ?? '');
  return (
    <Modal open={order !== null} title={t`Designer of ${caseNo}`} onClose={onClose} width="440px">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <label className="mb-1 block text-sm text-slate-700" htmlFor="assign-designer">
          {t`Designer`}
        </label>
        <select id="assign-designer" className="aw-input w-full" value={choice} onChange={(e) => setChoice(e.target.value)}>
          <option value="">{t`Choose a designer…`}</option>
          {designers.map((d) => (
            <option key={String(d.value)} value={String(d.value)}>
              {d.label}
            </option>
          ))}
        </select>
        {designers.length === 0 && <p className="mt-2 text-sm text-slate-500">{t`No users to choose from: picking a designer needs the user list permission.`}</p>}
        {error && (
          <p role="alert" className="mt-3 text-sm text-red-600">
            {error}
          </p>
        )}
        <Footer busy={busy || designers.length === 0} submit={t`Assign`} onClose={onClose} />
      </form>
    </Modal>
  );
}
