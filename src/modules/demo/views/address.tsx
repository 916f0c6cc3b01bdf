/** Delivery addresses: the user's own (address admins see everyone's), region picked from the division data. */
import { useLingui } from '@lingui/react/macro';
import { CrudPage, type FormItem, type Option, type TableColumn } from '../../../kit/index.ts';
import { ADDRESS_PREFIX, addressLabel } from '../../user/address.ts';

export default function AddressList() {
  const { t } = useLingui();
  const yesNo: Option[] = [
    { label: t`Yes`, value: 1, color: '#16a34a' },
    { label: t`No`, value: 0, color: '#94a3b8' },
  ];
  const columns: TableColumn[] = [
    { prop: 'name', label: t`Recipient`, sortable: true, minWidth: 110 },
    { prop: 'phone', label: t`Phone`, width: 140 },
    { prop: 'regionNames', label: t`Region`, minWidth: 200, render: (r) => String(r.regionNames ?? '').replaceAll(',', ' / ') },
    { prop: 'detail', label: t`Address`, minWidth: 200, render: (r) => addressLabel(r, false) },
    { prop: 'isDefault', label: t`Default`, dict: yesNo, sortable: true, width: 100 },
    { prop: 'updateTime', label: t`Updated`, sortable: true, width: 170 },
  ];
  const items: FormItem[] = [
    { prop: 'name', label: t`Recipient`, required: true, span: 12 },
    { prop: 'phone', label: t`Phone`, required: true, span: 12, validate: (v) => (/^\+?\d[\d -]{4,30}$/.test(String(v ?? '').trim()) ? null : t`Enter a phone number`) },
    { prop: 'region', label: t`Region`, type: 'region', required: true },
    { prop: 'detail', label: t`Address`, type: 'textarea', required: true, placeholder: t`Street, number, building` },
    { prop: 'isDefault', label: t`Default address`, type: 'switch', hook: 'booleanNumber', value: false },
  ];
  return (
    <CrudPage
      service={ADDRESS_PREFIX}
      columns={columns}
      items={items}
      search={[{ prop: 'isDefault', label: t`Default`, type: 'select', options: yesNo }]}
      dialog={{ width: '640px' }}
    />
  );
}
