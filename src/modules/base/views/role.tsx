/** Roles: name, label, the menus and permissions they grant, and their department data scope. */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { CrudPage, type FormItem, type FormTab, type Option, type TableColumn } from '../../../kit/index.ts';
import { CheckTree } from '../CheckTree.tsx';
import { RolePermissions } from '../RolePermissions.tsx';
import { useTreeRows } from '../useTreeRows.ts';

const PREFIX = '/admin/base/sys/role';
/** The seeded remark of the superadmin role (server/db/seed.ts). */
const SUPERADMIN_REMARK = 'Passes every permission check';
/** The seeded names and remarks of the user kinds' roles (server/db/seed.ts), shown in the UI language until edited. */
const SEEDED_TEXT: Record<string, MessageDescriptor> = {
  'Designer (user kind)': msg`Designer (user kind)`,
  'Manufacturer (user kind)': msg`Manufacturer (user kind)`,
  'Administrator (user kind)': msg`Administrator (user kind)`,
  'Designs the orders given to them and bends their wires': msg`Designs the orders given to them and bends their wires`,
  'Runs a lab: its orders, machines, partner interface, files and data board': msg`Runs a lab: its orders, machines, partner interface, files and data board`,
  'Every page and right of the menu, without being superadmin': msg`Every page and right of the menu, without being superadmin`,
};

export default function RoleList() {
  const { t, i18n } = useLingui();
  const seeded = (text: string) => (SEEDED_TEXT[text] ? i18n._(SEEDED_TEXT[text]) : text);
  const [menus] = useTreeRows('/admin/base/sys/menu');
  const [departments] = useTreeRows('/admin/base/sys/department');
  const yesNo: Option[] = [
    { label: t`Yes`, value: 1, color: '#16a34a' },
    { label: t`No`, value: 0, color: '#64748b' },
  ];
  const columns: TableColumn[] = [
    { prop: 'name', label: t`Role key`, sortable: true, minWidth: 140 },
    {
      prop: 'label',
      label: t({ message: 'Name', context: 'object' }),
      sortable: true,
      minWidth: 140,
      // Cut like the remark: the seeded kinds' names ("Administrator (Benutzerart)") widened the table.
      render: (r) => {
        const text = seeded(String(r.label ?? ''));
        return (
          <span className="block max-w-40 truncate" title={text}>
            {text}
          </span>
        );
      },
    },
    // A short header: cells stay on one line, and "Inklusive Unterabteilungen" pushed the Created
    // column under the operation column at 1440 px. The form keeps the full wording.
    { prop: 'relevance', label: t`Sub-departments`, dict: yesNo, width: 140 },
    {
      prop: 'remark',
      label: t`Remark`,
      minWidth: 160,
      // The superadmin role's remark is seeded in English; shown in the UI language until edited.
      // A long remark is cut (whole in its tooltip) rather than widening the table.
      render: (r) => {
        const text = r.remark === SUPERADMIN_REMARK ? t`Passes every permission check` : seeded(String(r.remark ?? ''));
        return (
          <span className="block max-w-40 truncate" title={text}>
            {text}
          </span>
        );
      },
    },
    { prop: 'createTime', label: t`Created`, sortable: true, width: 170 },
  ];
  const tabs: FormTab[] = [
    { name: 'base', label: t`Basic` },
    { name: 'menus', label: t`Permissions` },
    { name: 'scope', label: t`Data scope` },
  ];
  const ids = (v: unknown) => (Array.isArray(v) ? v.map(Number) : []);
  const items: FormItem[] = [
    { prop: 'name', label: t`Role key`, required: true, span: 12, tab: 'base', disabled: ({ form }) => form.name === 'superadmin' },
    { prop: 'label', label: t({ message: 'Name', context: 'object' }), required: true, span: 12, tab: 'base' },
    { prop: 'remark', label: t`Remark`, type: 'textarea', tab: 'base' },
    {
      prop: 'menuIdList',
      label: t`Menus and permissions`,
      type: 'custom',
      tab: 'menus',
      value: [],
      render: ({ value, onChange, disabled }) => <RolePermissions menus={menus} value={ids(value)} onChange={onChange} disabled={disabled} />,
    },
    {
      prop: 'relevance',
      label: t`Includes sub-departments`,
      type: 'switch',
      hook: 'booleanNumber',
      value: true,
      tab: 'scope',
    },
    {
      prop: 'departmentIdList',
      label: t`Departments`,
      type: 'custom',
      tab: 'scope',
      value: [],
      render: ({ value, onChange, disabled }) => (
        <div className="space-y-1.5">
          <p className="text-xs text-slate-500">{t`Users of this role see the data of their own department and of the departments checked here.`}</p>
          <CheckTree name={t`Departments`} rows={departments} value={ids(value)} onChange={onChange} disabled={disabled} label={(r) => String(r.name)} />
        </div>
      ),
    },
  ];
  return (
    <CrudPage
      service={PREFIX}
      columns={columns}
      items={items}
      tabs={tabs}
      search={[{ prop: 'relevance', label: t`Includes sub-departments`, type: 'select', options: yesNo }]}
    />
  );
}
