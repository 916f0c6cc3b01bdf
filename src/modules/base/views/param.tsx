/** Params: named settings (text, rich text or a file URL); "Preview" shows the html page. */
import { useState } from 'react';
import { Dialog } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { CrudPage, Field, type FormItem, type Option, type TableColumn } from '../../../kit/index.ts';
import { PRESCRIPTION_PARAM_KEY } from '../../../../common/ai.ts';
import { DEFAULT_PRESCRIPTION, isPrescription, type Prescription } from '../../../../common/prescription.ts';
import { PrescriptionField } from '../../order/PrescriptionField.tsx';

/** The param's JSON as a prescription (the lab's control), or undefined when it is not one (the plain text field then). */
function readable(value: unknown): Prescription | undefined {
  try {
    const parsed: unknown = JSON.parse(String(value ?? ''));
    return isPrescription(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
import { session } from '../../../api/client.ts';
import { hasPerm } from '../../../app/store.ts';
import { toast } from '../../../ui/toast.tsx';
import { Icon } from '../../../ui/icons.tsx';

const PREFIX = '/admin/base/sys/param';

export default function ParamList() {
  const { t } = useLingui();
  const [preview, setPreview] = useState<{ title: string; html: string } | null>(null);
  const types: Option[] = [
    { label: t`Text`, value: 0, color: '#64748b' },
    { label: t`Rich text`, value: 1, color: '#4165d7' },
    { label: t`File`, value: 2, color: '#16a34a' },
  ];
  const columns: TableColumn[] = [
    { prop: 'name', label: t({ message: 'Name', context: 'object' }), sortable: true, minWidth: 140 },
    { prop: 'keyName', label: t`Key`, sortable: true, minWidth: 140 },
    { prop: 'dataType', label: t`Type`, dict: types, width: 120 },
    { prop: 'data', label: t`Value`, minWidth: 200, render: (row) => <span className="line-clamp-1 break-all">{String(row.data ?? '')}</span> },
    { prop: 'remark', label: t`Remark`, minWidth: 140 },
    { prop: 'updateTime', label: t`Updated`, sortable: true, width: 170 },
  ];
  const items: FormItem[] = [
    { prop: 'name', label: t({ message: 'Name', context: 'object' }), required: true, span: 12 },
    {
      prop: 'keyName',
      label: t`Key`,
      required: true,
      span: 12,
      validate: (v) => (typeof v === 'string' && !/^[\w.:-]+$/.test(v) ? t`Letters, digits and . : _ - only` : null),
    },
    { prop: 'dataType', label: t`Type`, type: 'radio', options: types, value: 0 },
    {
      prop: 'data',
      label: t`Value`,
      type: 'custom',
      span: 24,
      // The lab's default prescription (common/ai.ts PRESCRIPTION_PARAM_KEY) is edited with the order
      // form's control and stored as JSON; the server checks it like an order's.
      render: (p) =>
        p.form.keyName === PRESCRIPTION_PARAM_KEY && readable(p.value) !== undefined ? (
          <PrescriptionField id={p.id} value={readable(p.value)} onChange={(v) => p.onChange(JSON.stringify(v ?? DEFAULT_PRESCRIPTION))} disabled={p.disabled} lab />
        ) : (
          <Field item={{ prop: 'data', label: t`Value`, type: 'textarea' }} id={p.id} value={p.value} onChange={p.onChange} disabled={p.disabled} invalid={p.invalid} form={p.form} mode={p.mode} />
        ),
    },
    { prop: 'remark', label: t`Remark`, type: 'textarea' },
  ];

  async function open(row: Record<string, unknown>) {
    try {
      const token = await session.validToken();
      const res = await fetch(`${PREFIX}/html?key=${encodeURIComponent(String(row.keyName))}`, { headers: { Authorization: token } });
      if (!res.ok && res.status !== 404) throw new Error(`HTTP ${res.status}`);
      setPreview({ title: String(row.name), html: await res.text() });
    } catch (err) {
      toast.error(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <>
      <CrudPage
        service={PREFIX}
        columns={columns}
        items={items}
        search={[{ prop: 'dataType', label: t`Type`, type: 'select', options: types }]}
        rowActions={hasPerm('base:sys:param:html') ? [{ label: t`Preview`, onClick: (row) => void open(row) }] : []}
      />
      <Dialog.Root open={preview !== null} onOpenChange={(o) => !o && setPreview(null)}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
          <Dialog.Content className="fixed top-1/2 left-1/2 z-50 flex h-[min(80vh,720px)] w-[min(94vw,820px)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-lg bg-white shadow-2xl">
            <div className="flex items-center justify-between border-b border-slate-200 px-5 py-3">
              <Dialog.Title className="font-semibold text-slate-800">{preview?.title}</Dialog.Title>
              <Dialog.Close className="aw-btn-icon" aria-label={t`Close`}>
                <Icon name="x" className="size-4" />
              </Dialog.Close>
            </div>
            <Dialog.Description className="sr-only">{t`Preview`}</Dialog.Description>
            {/* An empty sandbox: no scripts, an opaque origin. */}
            <iframe title={preview?.title ?? ''} sandbox="" srcDoc={preview?.html ?? ''} className="w-full flex-1 rounded-b-lg" />
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </>
  );
}
