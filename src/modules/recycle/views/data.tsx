/** Recycle bin: what was deleted, by whom and when; restore puts rows back, delete purges them. */
import { useRef } from 'react';
import { useLingui } from '@lingui/react/macro';
import { CrudPage, useConfirm, type CrudHandle, type FormItem, type Option, type Row, type TableColumn } from '../../../kit/index.ts';
import { request } from '../../../api/client.ts';
import { hasPerm } from '../../../app/store.ts';
import { Icon } from '../../../ui/icons.tsx';
import { toast } from '../../../ui/toast.tsx';

const PREFIX = '/admin/recycle/data';

/** A short description of a deleted row: its name-like fields. */
function summary(data: unknown): string {
  if (!data || typeof data !== 'object') return '';
  const d = data as Record<string, unknown>;
  const parts = ['username', 'name', 'label', 'caseNo', 'patientName', 'title', 'keyName', 'router', 'perms']
    .map((k) => d[k])
    .filter((v) => typeof v === 'string' && v !== '');
  return [...new Set(parts)].slice(0, 3).join(' · ');
}

export default function RecycleList() {
  const { t } = useLingui();
  const crud = useRef<CrudHandle>(null);
  const [confirm, confirmDialog] = useConfirm();
  const entities: Option[] = [
    { label: t`User`, value: 'BaseSysUser', color: '#4165d7' },
    { label: t`Role`, value: 'BaseSysRole', color: '#7c3aed' },
    { label: t`Menu`, value: 'BaseSysMenu', color: '#0891b2' },
    { label: t`Department`, value: 'BaseSysDepartment', color: '#16a34a' },
    // Every other resource declared with `recycle: true` on the server, so no raw entity name shows.
    { label: t`Order`, value: 'OrderInfo', color: '#ea580c' },
    { label: t`Parameter`, value: 'BaseSysParam', color: '#64748b' },
    { label: t`Dictionary type`, value: 'DictType', color: '#a16207' },
    { label: t`Article`, value: 'BaseSysArticle', color: '#db2777' },
    { label: t`Version`, value: 'BaseSysRelease', color: '#0f766e' },
  ];
  const columns: TableColumn[] = [
    { prop: 'entity', label: t`Type`, dict: entities, width: 130 },
    { prop: 'rowId', label: t`ID`, width: 80, align: 'right' },
    { prop: 'data', label: t`Content`, minWidth: 220, render: (r) => <span className="line-clamp-1">{summary(r.data)}</span> },
    { prop: 'prefix', label: t`Resource`, minWidth: 180, render: (r) => <span className="font-mono text-xs">{String(r.prefix)}</span> },
    { prop: 'userName', label: t`Deleted by`, sortable: true, width: 120 },
    { prop: 'createTime', label: t`Deleted at`, sortable: true, width: 170 },
  ];
  const items: FormItem[] = [
    { prop: 'entity', label: t`Type`, type: 'select', options: entities, span: 12 },
    { prop: 'rowId', label: t`ID`, span: 12 },
    { prop: 'userName', label: t`Deleted by`, span: 12 },
    { prop: 'createTime', label: t`Deleted at`, span: 12 },
    {
      prop: 'data',
      label: t`Content`,
      type: 'custom',
      render: ({ value }) => (
        <pre className="max-h-80 overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs text-slate-700">{JSON.stringify(value, null, 2)}</pre>
      ),
    },
  ];

  async function restore(ids: (number | string)[]) {
    if (ids.length === 0) {
      toast.error(t`Select the entries to restore first`);
      return;
    }
    const n = ids.length;
    const ok = await confirm({ message: t`Restore ${n} selected entries?` });
    if (!ok) return;
    await request({ url: `${PREFIX}/restore`, method: 'POST', data: { ids } });
    toast.success(t`Restored`);
    crud.current?.refresh();
  }

  const canRestore = hasPerm('recycle:data:restore');
  return (
    <>
      <CrudPage
        ref={crud}
        service={PREFIX}
        columns={columns}
        items={items}
        op={['info', 'delete']}
        perms={{ add: false, update: false }}
        search={[{ prop: 'entity', label: t`Type`, type: 'select', options: entities }]}
        rowActions={canRestore ? [{ label: t`Restore`, onClick: (row: Row) => void restore([row.id as number]).catch(() => undefined) }] : []}
        toolbar={
          canRestore && (
            <button type="button" className="aw-btn-default" onClick={() => void restore(crud.current?.selected() ?? []).catch(() => undefined)}>
              <Icon name="refresh" className="size-4" />
              {t`Restore selected`}
            </button>
          )
        }
      />
      {confirmDialog}
    </>
  );
}
