/** Interface configuration: per department, the URL and key of an outside API (key write-only). */
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { request } from '../../../api/client.ts';
import { hasPerm } from '../../../app/store.ts';
import { CrudPage, toTree, type FormItem, type Option, type Row, type TableColumn, type TreeNode } from '../../../kit/index.ts';

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
  const enabled: Option[] = [
    { label: t`Enabled`, value: 1, color: '#16a34a' },
    { label: t`Disabled`, value: 0, color: '#64748b' },
  ];
  const columns: TableColumn[] = [
    { prop: 'name', label: t`Name`, sortable: true, minWidth: 140 },
    { prop: 'url', label: t`URL`, minWidth: 220, render: (r) => <span className="font-mono text-xs break-all">{String(r.url ?? '')}</span> },
    { prop: 'keyHint', label: t`Key`, width: 110, render: (r) => <span className="font-mono text-xs">{String(r.keyHint ?? '—')}</span> },
    { prop: 'departmentId', label: t`Department`, width: 140, render: (r) => String(departmentName(r.departmentId) ?? '—') },
    { prop: 'enabled', label: t`Status`, dict: enabled, sortable: true, width: 100 },
    { prop: 'updateTime', label: t`Updated`, width: 170 },
  ];
  const items: FormItem[] = [
    { prop: 'name', label: t`Name`, required: true, span: 12 },
    { prop: 'enabled', label: t`Status`, type: 'radio', options: enabled, value: 1, span: 12 },
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
    { prop: 'remark', label: t`Remark`, type: 'textarea' },
  ];
  const search: FormItem[] = [{ prop: 'enabled', label: t`Status`, type: 'select', options: enabled }];
  return <CrudPage service="/admin/device/apiConfig" columns={columns} items={items} search={search} />;
}
