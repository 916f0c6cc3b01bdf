/**
 * Interface configuration: per department, the URL, key (write-only) and kind of an outside API
 * (a partner, or an AI service that designs in place of the built-in engine); for a partner also
 * the open calls it may make and the URL its orders' status changes are posted to ("Callbacks"
 * lists their deliveries). The signing secret the server makes is shown once, after add and after
 * "Rotate secret". The toolbar links the partner API's OpenAPI document.
 */
import { useEffect, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { request } from '../../../api/client.ts';
import { hasPerm } from '../../../app/store.ts';
import { CrudPage, toTree, useConfirm, type CrudHandle, type FormItem, type Option, type Row, type TableColumn, type TreeNode } from '../../../kit/index.ts';
import { toast } from '../../../ui/toast.tsx';
import { DEFAULT_API_CONFIG_KIND } from '../../../../common/api-config.ts';
import { DeliveriesDrawer } from '../DeliveriesDrawer.tsx';
import { PARTNER_CALLS, PARTNER_OPENAPI_PATH } from '../../../../common/partner-api.ts';
import { KeyDialog } from '../KeyDialog.tsx';

const PREFIX = '/admin/device/apiConfig';

export default function ApiConfigList() {
  const { t } = useLingui();
  const [departments, setDepartments] = useState<Row[]>([]);
  useEffect(() => {
    // A permission of its own; asking without it would only be refused (an error toast).
    if (!hasPerm('device:apiConfig:departmentList')) return;
    request<Row[]>({ url: '/admin/device/apiConfig/departmentList', silent: true }).then(setDepartments, () => setDepartments([]));
  }, []);
  const tree: TreeNode[] = toTree(departments);
  const departmentName = (id: unknown) => departments.find((d) => d.id === id)?.name;
  const crud = useRef<CrudHandle>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [deliveriesOf, setDeliveriesOf] = useState<{ id: number; name: string } | null>(null);
  const [confirm, confirmDialog] = useConfirm();
  const kinds: Option[] = [
    { label: t`Partner`, value: 'partner', color: '#2563eb' },
    { label: t`AI service`, value: 'aiService', color: '#9333ea' },
    { label: t`Language model`, value: 'llm', color: '#0d9488' },
  ];
  const enabled: Option[] = [
    { label: t`Enabled`, value: 1, color: '#16a34a' },
    { label: t`Disabled`, value: 0, color: '#64748b' },
  ];
  // The calls keep their API names (what a partner's developer reads in the OpenAPI document).
  const callOptions: Option[] = PARTNER_CALLS.map((c) => ({ label: c, value: c }));
  const notPartner = ({ form }: { form: Row }) => form.kind !== 'partner';
  const columns: TableColumn[] = [
    { prop: 'name', label: t`Name`, sortable: true, minWidth: 140 },
    { prop: 'url', label: t`URL`, minWidth: 220, render: (r) => <span className="font-mono text-xs break-all">{String(r.url ?? '')}</span> },
    { prop: 'kind', label: t`Kind`, dict: kinds, width: 110 },
    { prop: 'keyHint', label: t`Key`, width: 110, render: (r) => <span className="font-mono text-xs">{String(r.keyHint ?? '—')}</span> },
    { prop: 'departmentId', label: t`Department`, width: 140, render: (r) => String(departmentName(r.departmentId) ?? '—') },
    { prop: 'enabled', label: t`Status`, dict: enabled, sortable: true, width: 100 },
    { prop: 'updateTime', label: t`Updated`, width: 170 },
  ];
  const items: FormItem[] = [
    { prop: 'name', label: t`Name`, required: true, span: 12 },
    { prop: 'enabled', label: t`Status`, type: 'radio', options: enabled, value: 1, span: 12 },
    { prop: 'kind', label: t`Kind`, type: 'radio', options: kinds, value: DEFAULT_API_CONFIG_KIND },
    {
      prop: 'url',
      label: t`URL`,
      required: true,
      placeholder: 'https://',
      validate: (v) => (/^https?:\/\/\S+$/i.test(String(v ?? '')) ? null : t`Enter an http or https address`),
    },
    {
      prop: 'key',
      label: t`Key`,
      type: 'password',
      placeholder: t`Leave empty to keep the stored key`,
      hook: 'empty',
    },
    { prop: 'departmentId', label: t`Department`, type: 'treeSelect', tree },
    {
      prop: 'calls',
      label: t`Allowed calls`,
      type: 'select',
      multiple: true,
      options: callOptions,
      value: [...PARTNER_CALLS],
      hook: 'join',
      hidden: notPartner,
    },
    {
      prop: 'callbackUrl',
      label: t`Callback URL`,
      placeholder: 'https://',
      hidden: notPartner,
      validate: (v) => (v === undefined || v === null || v === '' || /^https?:\/\/\S+$/i.test(String(v)) ? null : t`Enter an http or https address`),
    },
    { prop: 'remark', label: t`Remark`, type: 'textarea' },
  ];
  const search: FormItem[] = [
    { prop: 'enabled', label: t`Status`, type: 'select', options: enabled },
    { prop: 'kind', label: t`Kind`, type: 'select', options: kinds },
  ];
  const onSubmit = async (data: Row, mode: string) => {
    if (mode !== 'add') return request({ url: `${PREFIX}/update`, method: 'POST', data });
    const reply = await request<{ id: number; secret: string }>({ url: `${PREFIX}/add`, method: 'POST', data });
    setSecret(reply.secret);
  };
  const rotate = async (row: Row) => {
    const ok = await confirm({ message: t`The other side's signed calls are refused until it has the new secret. Rotate the secret?`, confirmLabel: t`Rotate secret` });
    if (!ok) return;
    const reply = await request<{ secret: string }>({ url: `${PREFIX}/rotateSecret`, method: 'POST', data: { id: row.id } });
    setSecret(reply.secret);
    toast.success(t`The secret was rotated`);
    crud.current?.refresh();
  };
  return (
    <>
      <CrudPage
        ref={crud}
        service={PREFIX}
        columns={columns}
        items={items}
        search={search}
        dialog={{ onSubmit }}
        rowActions={[
          { label: t`Rotate secret`, onClick: (row) => void rotate(row).catch(() => undefined), hidden: () => !hasPerm('device:apiConfig:rotateSecret') },
          {
            label: t`Callbacks`,
            onClick: (row) => setDeliveriesOf({ id: Number(row.id), name: String(row.name ?? '') }),
            hidden: (row) => row.kind !== 'partner' || !hasPerm('device:apiConfig:deliveries'),
          },
        ]}
        toolbar={
          <a className="aw-btn-default h-8" href={PARTNER_OPENAPI_PATH} target="_blank" rel="noreferrer" data-testid="partner-openapi">
            {t`Partner API (OpenAPI)`}
          </a>
        }
      />
      <DeliveriesDrawer entry={deliveriesOf} onClose={() => setDeliveriesOf(null)} />
      <KeyDialog
        deviceKey={secret}
        onClose={() => setSecret(null)}
        title={t`Signing secret`}
        description={t`Copy the secret now and give it to the other side: it signs the calls between us. It is shown only this once; if it is lost, rotate it.`}
      />
      {confirmDialog}
    </>
  );
}
