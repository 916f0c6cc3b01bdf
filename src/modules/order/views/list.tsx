/** Orders: patient, jaw models (STL, uploaded with progress), delivery, AI; open one in the editor. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { api, unwrap } from '../../../api/api.ts';
import { request } from '../../../api/client.ts';
import { hasPerm } from '../../../app/store.ts';
import { CrudPage, createService, type CrudHandle, type FormItem, type Option, type Row, type TableColumn } from '../../../kit/index.ts';
import { toast } from '../../../ui/toast.tsx';
import { ModelUpload, isPending, settleModels } from '../ModelUpload.tsx';
import { useStatusOptions } from '../status.ts';
import { userLabel, type NamedUser } from '../../../app/users.ts';
import { AI_STATUS } from '../../../../common/orders.ts';
import { AiStatusCell, BiteJobCell, OrderStatusHistory } from '../OrderStatus.tsx';
import { PrescriptionField, prescriptionFits } from '../PrescriptionField.tsx';
import { canAssignDesigner, canRemake, DesignerDialog, RemakeDialog } from '../OrderActions.tsx';
import { factories as loadFactories, type CopiedOrder, type Factory } from '../../../api/lifecycle.ts';
import { ChatDrawer } from '../../chat/ChatDrawer.tsx';
import { useChatUnread } from '../../chat/live.ts';
import { UnreadBadge } from '../../chat/UnreadBadge.tsx';
import { AddressSelect } from '../../user/AddressSelect.tsx';

const PREFIX = '/admin/order/info';
const MODELS = ['upperFileId', 'lowerFileId', 'occlusionFileId'] as const;
/** aiStatus "fail" (common/orders.ts). */
const AI_FAIL = AI_STATUS.fail;
const FILE_OF: Record<(typeof MODELS)[number], string> = { upperFileId: 'upperFile', lowerFileId: 'lowerFile', occlusionFileId: 'occlusionFile' };

export default function OrderList() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const crud = useRef<CrudHandle>(null);
  // Orders admins (order:info:all) see every order and may hand one to another designer.
  const canAssign = hasPerm('order:info:all');
  const [designers, setDesigners] = useState<Option[]>([]);
  // The "Assign designer" row action (POST /admin/design/designer) picks from the same list, for
  // orders admins and for the creators of orders.
  const assigns = canAssign || hasPerm('design:designer');
  useEffect(() => {
    // Without the user list (its call would be refused with an error toast) there is no one to pick.
    if (!assigns || !hasPerm('base:sys:user:list')) return;
    request<({ id: number } & NamedUser)[]>({ url: '/admin/base/sys/user/list', method: 'POST', data: {}, silent: true }).then(
      (list) => setDesigners(list.map((u) => ({ label: userLabel(u), value: u.id }))),
      () => setDesigners([]),
    );
  }, [assigns]);
  // Where the caller may send an order (POST /admin/design/factories), shown read-only in the form:
  // an order has no manufacturer of its own yet (docs/api.md, "The editor's order calls").
  const [factoryList, setFactoryList] = useState<Factory[]>([]);
  useEffect(() => {
    if (!hasPerm('design:factories')) return;
    loadFactories().then(setFactoryList, () => setFactoryList([]));
  }, []);
  const [remakeOf, setRemakeOf] = useState<Row | null>(null);
  const [designerOf, setDesignerOf] = useState<Row | null>(null);
  // The order's conversation between its creator and designer, with its unread count (live).
  const [chatOf, setChatOf] = useState<number | null>(null);
  const unread = useChatUnread();
  const noDesigners = () => !canAssign || designers.length === 0;
  const { order: statuses, ai: aiStatuses } = useStatusOptions();
  const service = createService(PREFIX);

  const refresh = useCallback(() => crud.current?.refresh(), []);
  const nowrap = (v: unknown) => <span className="whitespace-nowrap">{v == null || v === '' ? '—' : String(v)}</span>;
  const columns: TableColumn[] = [
    { prop: 'caseNo', label: t`Case number`, sortable: true, width: 170, render: (r) => <span className="font-mono text-xs whitespace-nowrap">{String(r.caseNo)}</span> },
    { prop: 'patientName', label: t`Patient`, sortable: true, minWidth: 120 },
    { prop: 'status', label: t`Status`, dict: statuses, sortable: true, width: 130 },
    { prop: 'biteJob', label: t`Bite registration`, width: 160, render: (r) => <BiteJobCell row={r} ended={refresh} /> },
    { prop: 'aiStatus', label: t`AI status`, sortable: true, width: 150, render: (r) => <AiStatusCell row={r} options={aiStatuses} ended={refresh} /> },
    { prop: 'designerName', label: t`Designer`, width: 100 },
    { prop: 'deliveryTime', label: t`Delivery time`, sortable: true, width: 150, render: (r) => nowrap(typeof r.deliveryTime === 'string' ? r.deliveryTime.slice(0, 16) : r.deliveryTime) },
  ];

  const model = (prop: (typeof MODELS)[number], label: string): FormItem => ({
    prop,
    label,
    type: 'custom',
    span: 24,
    validate:
      prop === 'occlusionFileId'
        ? (value, form) => (value && !(form.upperFileId && form.lowerFileId) ? t`Bite registration needs both the upper and the lower model` : null)
        : prop === 'upperFileId'
          ? (value, form) => (!value && !form.lowerFileId ? t`Please upload the upper or lower model` : null)
          : undefined,
    render: ({ id, value, onChange, disabled, invalid, form }) => (
      <ModelUpload id={id} value={value} onChange={onChange} disabled={disabled} invalid={invalid} file={form[FILE_OF[prop]] as never} pair={prop === 'occlusionFileId'} />
    ),
  });

  const items: FormItem[] = [
    {
      prop: 'statusHistory',
      label: t`Status`,
      type: 'custom',
      span: 24,
      hidden: ({ mode }) => mode === 'add',
      render: ({ form }) => <OrderStatusHistory form={form} />,
    },
    { prop: 'patientName', label: t`Patient`, required: true, span: 12 },
    { prop: 'deliveryTime', label: t`Delivery time`, type: 'datetime', span: 12 },
    { prop: 'designerId', label: t`Designer`, type: 'select', options: designers, span: 12, hidden: noDesigners },
    model('upperFileId', t`Upper model`),
    model('lowerFileId', t`Lower model`),
    model('occlusionFileId', t`Occlusion model`),
    {
      prop: 'factories',
      label: t`Can be produced at`,
      type: 'custom',
      span: 24,
      hidden: () => factoryList.length === 0,
      render: () => (
        <p className="py-1.5 text-sm text-slate-700" data-testid="order-factories">
          {factoryList.map((f) => f.name).join(' · ')}
        </p>
      ),
    },
    {
      // One of the creator's delivery addresses (the server checks it is theirs).
      prop: 'addressId',
      label: t`Delivery address`,
      type: 'custom',
      span: 24,
      value: null,
      render: ({ id, value, onChange, disabled, invalid, form }) => (
        <AddressSelect id={id} userId={typeof form.creatorId === 'number' ? form.creatorId : undefined} value={value} onChange={onChange} disabled={disabled} invalid={invalid} />
      ),
    },
    { prop: 'enableAI', label: t`AI design`, type: 'switch', hook: 'booleanNumber', value: false, span: 12 },
    {
      prop: 'prescription',
      label: t`Prescription`,
      type: 'custom',
      span: 24,
      value: null,
      // The form starts an empty custom value as '': not sent (the server keeps the lab's default).
      hook: 'empty',
      hidden: ({ form }) => !form.enableAI,
      validate: (value) => (prescriptionFits(value as never) ? null : t`The teeth of a wire do not fit its type (count, jaw, neighbours); the server names which.`),
      render: ({ id, value, onChange, disabled }) => <PrescriptionField id={id} value={value} onChange={onChange} disabled={disabled} />,
    },
    { prop: 'remark', label: t`Remark`, type: 'textarea' },
  ];
  const search: FormItem[] = [
    { prop: 'status', label: t`Status`, type: 'select', options: statuses },
    { prop: 'aiStatus', label: t`AI status`, type: 'select', options: aiStatuses },
    { prop: 'designerId', label: t`Designer`, type: 'select', options: designers, hidden: noDesigners },
  ];

  // Saving waits for model uploads still running, then sends the file ids.
  const onSubmit = async (data: Row, mode: string) => {
    const settled = await settleModels(data, MODELS);
    if (MODELS.some((m) => isPending(settled[m]))) throw new Error('upload still running');
    await request({ url: `${PREFIX}/${mode === 'add' ? 'add' : 'update'}`, method: 'POST', data: settled });
  };

  const retryAI = async (row: Row) => {
    try {
      // The spec's call (design:retryAI, the designer's), else the order list's (order:info:retryAI).
      if (hasPerm('design:retryAI')) await unwrap(api().admin.design.retryAI.$post({ json: { orderId: Number(row.id) } }));
      else await unwrap(api().admin.order.info.retryAI.$post({ json: { id: row.id } }));
      toast.success(t`The order was sent to AI design again`);
      crud.current?.refresh();
    } catch {
      // The client showed the error.
    }
  };

  const remade = (created: CopiedOrder) => {
    setRemakeOf(null);
    const caseNo = created.caseNo;
    toast.success(t`Remake ${caseNo} created`);
    crud.current?.refresh();
    // The new order opens, so the remake can be checked or changed at once.
    crud.current?.openUpdate({ id: created.id });
  };
  const designerSet = () => {
    setDesignerOf(null);
    toast.success(t`The designer was changed`);
    crud.current?.refresh();
  };

  return (
    <>
      <CrudPage
        ref={crud}
        service={service}
        columns={columns}
        items={items}
        search={search}
        dialog={{ width: '60%', onSubmit }}
        rowActions={[
          { label: t`Open in editor`, onClick: (row) => void navigate({ href: `/bend?orderId=${String(row.id)}` }) },
          {
            label: t`Conversation`,
            onClick: (row) => setChatOf(Number(row.id)),
            badge: (row) => <UnreadBadge count={unread.byOrder.get(Number(row.id)) ?? 0} testId={`chat-unread-${String(row.id)}`} />,
          },
          { label: t`Retry AI`, onClick: (row) => void retryAI(row), hidden: (row) => Number(row.aiStatus) !== AI_FAIL || !(hasPerm('order:info:retryAI') || hasPerm('design:retryAI')) },
          { label: t`Remake`, onClick: (row) => setRemakeOf(row), hidden: () => !canRemake() },
          { label: t`Assign designer`, onClick: (row) => setDesignerOf(row), hidden: (row) => !canAssignDesigner(row) },
        ]}
      />
      <RemakeDialog order={remakeOf} onClose={() => setRemakeOf(null)} onDone={remade} />
      <DesignerDialog order={designerOf} designers={designers} onClose={() => setDesignerOf(null)} onDone={designerSet} />
      <ChatDrawer orderId={chatOf} onClose={() => setChatOf(null)} />
    </>
  );
}
