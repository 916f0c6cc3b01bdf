/**
 * The demo list: the specification's in-memory demo service (server/modules/demo/sample.ts, it
 * answers after 500 ms) behind the generic list kit. The example to copy when adding a module:
 * docs/adding-a-module.md.
 */
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { CrudPage, useFileUrl, type FormItem, type Option, type TableColumn } from '../../../kit/index.ts';
import { formatNumber } from '../../../i18n/format.ts';

const PREFIX = '/admin/demo/sample';

function Avatar({ url, name }: { url: string; name: string }) {
  const src = useFileUrl(url);
  return src ? (
    <img src={src} alt="" className="size-8 rounded-full object-cover" />
  ) : (
    <span className="inline-flex size-8 items-center justify-center rounded-full bg-primary-light-9 text-xs font-medium text-primary">{name.slice(0, 1)}</span>
  );
}

export default function DemoList() {
  const { t } = useLingui();
  const [wages, setWages] = useState<number | null>(null);
  const statuses: Option[] = [
    { label: t`Enabled`, value: 1, color: '#16a34a' },
    { label: t`Disabled`, value: 0, color: '#dc2626' },
  ];
  const occupations: Option[] = [
    { label: t`Developer`, value: 0 },
    { label: t`Designer`, value: 1 },
    { label: t`Tester`, value: 2 },
    { label: t`Product manager`, value: 3 },
    { label: t`Operations`, value: 4 },
    { label: t`Sales`, value: 5 },
  ];
  const columns: TableColumn[] = [
    { prop: 'avatar', label: t`Avatar`, width: 70, render: (r) => <Avatar url={String(r.avatar ?? '')} name={String(r.name ?? '')} /> },
    { prop: 'name', label: t`Name`, sortable: true, minWidth: 130 },
    { prop: 'account', label: t`Account`, sortable: true, width: 110 },
    { prop: 'phone', label: t`Phone`, width: 140 },
    { prop: 'wages', label: t`Wages`, sortable: true, width: 110, align: 'right', render: (r) => formatNumber(Number(r.wages), { fixed: 2 }) },
    { prop: 'occupation', label: t`Occupation`, dict: occupations, sortable: true, width: 140 },
    { prop: 'status', label: t`Status`, dict: statuses, sortable: true, width: 100 },
    { prop: 'createTime', label: t`Created`, sortable: true, width: 170 },
  ];
  const items: FormItem[] = [
    { prop: 'avatar', label: t`Avatar`, type: 'upload', kind: 'image', accept: 'image/*', value: '' },
    { prop: 'name', label: t`Name`, required: true, span: 12 },
    { prop: 'account', label: t`Account`, required: true, span: 12 },
    { prop: 'phone', label: t`Phone`, required: true, span: 12 },
    { prop: 'wages', label: t`Wages`, type: 'number', min: 0, step: 0.01, required: true, span: 12 },
    { prop: 'occupation', label: t`Occupation`, type: 'select', options: occupations, required: true, span: 12 },
    { prop: 'status', label: t`Status`, type: 'radio', options: statuses, value: 1, span: 12 },
  ];
  const search: FormItem[] = [
    { prop: 'name', label: t`Name` },
    { prop: 'phone', label: t`Phone` },
    { prop: 'occupation', label: t`Occupation`, type: 'select', options: occupations },
    { prop: 'status', label: t`Status`, type: 'select', options: statuses },
    { prop: 'createTime', label: t`Created`, type: 'datetime' },
  ];
  const total = wages === null ? '' : formatNumber(wages, { fixed: 2 });
  return (
    <CrudPage
      service={PREFIX}
      columns={columns}
      items={items}
      search={search}
      keyword={{ placeholder: t`Name or phone` }}
      onSubData={(data) => setWages(typeof (data as { wages?: unknown })?.wages === 'number' ? (data as { wages: number }).wages : null)}
    >
      {wages !== null && (
        <p className="px-1 pb-2 text-sm text-slate-600" data-testid="demo-wages-sum">
          {t`Wages of all matching records: ${total}`}
        </p>
      )}
    </CrudPage>
  );
}
