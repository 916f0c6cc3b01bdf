/** Versions and their release notes (markdown, with a live preview while editing). */
import { useLingui } from '@lingui/react/macro';
import { CrudPage, type FormItem, type Option, type TableColumn } from '../../../kit/index.ts';
import { APP_VERSION } from '../../../app/version.ts';
import { MarkdownEditor } from '../../help/markdown.tsx';

export default function ReleaseList() {
  const { t } = useLingui();
  const yesNo: Option[] = [
    { label: t`Yes`, value: 1, color: '#dc2626' },
    { label: t`No`, value: 0, color: '#64748b' },
  ];
  const columns: TableColumn[] = [
    { prop: 'version', label: t`Version`, sortable: true, width: 120 },
    { prop: 'title', label: t`Title`, minWidth: 180 },
    { prop: 'forceUpdate', label: t`Force update`, dict: yesNo, width: 120 },
    { prop: 'releaseTime', label: t`Release time`, sortable: true, width: 170 },
    { prop: 'updateTime', label: t`Updated`, sortable: true, width: 170 },
  ];
  const items: FormItem[] = [
    { prop: 'version', label: t`Version`, required: true, span: 12, placeholder: '1.2.0' },
    { prop: 'releaseTime', label: t`Release time`, type: 'datetime', required: true, span: 12 },
    { prop: 'title', label: t`Title`, required: true },
    { prop: 'forceUpdate', label: t`Force update`, type: 'switch', hook: 'booleanNumber', value: false },
    {
      prop: 'content',
      label: t`Release notes`,
      type: 'custom',
      value: '',
      render: ({ id, value, onChange, disabled }) => (
        <MarkdownEditor id={id} value={String(value ?? '')} onChange={onChange} disabled={disabled} previewLabel={t`Preview`} />
      ),
    },
  ];
  const running = APP_VERSION;
  return (
    <CrudPage
      service="/admin/base/sys/release"
      columns={columns}
      items={items}
      dialog={{ width: '70%' }}
      toolbar={<span className="px-2 text-sm text-slate-500">{t`Running version: ${running}`}</span>}
    />
  );
}
