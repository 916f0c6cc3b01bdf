/**
 * Menus: the tree as an indented table (groups, pages, permissions), add/edit with fields by type,
 * "Add child", delete with the whole subtree, and JSON export/import (merge).
 */
import { useMemo, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { CrudPage, createService, toTree, type CrudHandle, type CrudService, type FormItem, type Option, type Row, type TableColumn } from '../../../kit/index.ts';
import { request } from '../../../api/client.ts';
import { hasPerm } from '../../../app/store.ts';
import { Icon } from '../../../ui/icons.tsx';
import { toast } from '../../../ui/toast.tsx';
import { FilePick } from '../FilePick.tsx';
import { ImportResult, type ImportSummary } from '../ImportResult.tsx';
import { saveBlob } from '../download.ts';
import { entryLabel } from '../names.ts';
import { treeOrder, withDescendants, type TreeRow } from '../tree.ts';

const PREFIX = '/admin/base/sys/menu';
const base = createService<Row>(PREFIX);

export default function MenuList() {
  const { t, i18n } = useLingui();
  const [rows, setRows] = useState<TreeRow[]>([]);
  const [summary, setSummary] = useState<ImportSummary | null>(null);
  const [busy, setBusy] = useState(false);
  const crud = useRef<CrudHandle>(null);
  const all = useRef<TreeRow[]>([]);

  const service = useMemo<CrudService>(
    () => ({
      ...base,
      async page(query) {
        const list = (await base.list!({ keyWord: query.keyWord, type: query.type })) as TreeRow[];
        if (!query.keyWord && query.type === undefined) {
          all.current = list;
          setRows(list);
        }
        return query.keyWord || query.type !== undefined ? list.map((r) => ({ ...r, _depth: 0 })) : treeOrder(list);
      },
      // A menu goes with its whole subtree (the server refuses to leave children behind).
      delete: ({ ids, ...rest }) => base.delete!({ ...rest, ids: withDescendants(all.current, ids.map(Number)) }),
    }),
    [],
  );

  const types: Option[] = [
    { label: t`Group`, value: 0, color: '#4165d7' },
    { label: t`Page`, value: 1, color: '#16a34a' },
    { label: t`Permission`, value: 2, color: '#d97706' },
  ];
  const yesNo: Option[] = [
    { label: t`Yes`, value: true, color: '#16a34a' },
    { label: t`No`, value: false, color: '#64748b' },
  ];
  const columns: TableColumn[] = [
    {
      prop: 'name',
      label: t({ message: 'Name', context: 'object' }),
      minWidth: 220,
      render: (r) => (
        <span style={{ paddingLeft: `${Number(r._depth ?? 0) * 1.25}rem` }} className="inline-flex items-center gap-1">
          {Number(r._depth) > 0 && <span className="text-slate-300">└</span>}
          {entryLabel(i18n, String(r.name), Number(r.type))}
        </span>
      ),
    },
    { prop: 'type', label: t`Type`, dict: types, width: 100 },
    { prop: 'router', label: t`Route`, minWidth: 140 },
    { prop: 'viewPath', label: t`View path`, minWidth: 180 },
    { prop: 'perms', label: t`Permissions`, minWidth: 200, render: (r) => <span className="line-clamp-2 font-mono text-xs break-all">{String(r.perms ?? '')}</span> },
    { prop: 'orderNum', label: t`Sort order`, width: 90, align: 'right' },
    { prop: 'isShow', label: t`Shown`, dict: yesNo, width: 80 },
  ];
  const typeOf = (form: Record<string, unknown>) => Number(form.type ?? 0);
  const parents = rows.filter((r) => Number(r.type) !== 2).map((r) => ({ ...r, name: entryLabel(i18n, String(r.name), Number(r.type)) }));
  const items: FormItem[] = [
    { prop: 'type', label: t`Type`, type: 'radio', options: types, value: 0 },
    { prop: 'name', label: t({ message: 'Name', context: 'object' }), required: true, span: 12 },
    { prop: 'parentId', label: t`Parent`, type: 'treeSelect', tree: toTree(parents), span: 12 },
    { prop: 'router', label: t`Route`, span: 12, placeholder: '/sys/example', hidden: ({ form }) => typeOf(form) === 2, required: false },
    { prop: 'viewPath', label: t`View path`, span: 12, placeholder: 'modules/base/views/example', hidden: ({ form }) => typeOf(form) !== 1 },
    { prop: 'icon', label: t`Icon`, span: 12, hidden: ({ form }) => typeOf(form) === 2 },
    { prop: 'orderNum', label: t`Sort order`, type: 'number', value: 0, span: 12 },
    {
      prop: 'perms',
      label: t`Permissions`,
      type: 'textarea',
      placeholder: 'base:sys:user:add,base:sys:user:update',
      hidden: ({ form }) => typeOf(form) !== 2,
      // Writing permission strings is a right of its own (the server refuses it without).
      disabled: () => !hasPerm('base:sys:menu:perms'),
      required: true,
    },
    { prop: 'keepAlive', label: t`Keep alive`, type: 'switch', value: true, span: 12, hidden: ({ form }) => typeOf(form) !== 1 },
    { prop: 'isShow', label: t`Shown`, type: 'switch', value: true, span: 12, hidden: ({ form }) => typeOf(form) === 2 },
  ];

  async function exportTree() {
    const tree = await request<unknown[]>({ url: `${PREFIX}/export`, method: 'POST', data: {} });
    saveBlob(new Blob([JSON.stringify(tree, null, 2)], { type: 'application/json' }), 'menus.json');
  }
  async function importTree(file: File) {
    let menus: unknown;
    try {
      menus = JSON.parse(await file.text());
    } catch {
      toast.error(t`The file is not valid JSON`);
      return;
    }
    setBusy(true);
    try {
      const res = await request<{ created: number; matched: number; skipped: { path: string; reason: string }[] }>({
        url: `${PREFIX}/import`,
        method: 'POST',
        data: { menus: Array.isArray(menus) ? menus : [menus] },
      });
      setSummary({ created: res.created, matched: res.matched, skipped: res.skipped.map((s) => ({ where: s.path, reason: s.reason })) });
      crud.current?.refresh();
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <CrudPage
        ref={crud}
        service={service}
        perms={{ add: hasPerm('base:sys:menu:add'), update: hasPerm('base:sys:menu:update'), delete: hasPerm('base:sys:menu:delete'), info: hasPerm('base:sys:menu:info'), page: hasPerm('base:sys:menu:list') }}
        columns={columns}
        items={items}
        search={[{ prop: 'type', label: t`Type`, type: 'select', options: types }]}
        rowActions={
          hasPerm('base:sys:menu:add')
            ? [{ label: t`Add child`, hidden: (r) => Number(r.type) === 2, onClick: (r) => crud.current?.openAdd({ parentId: r.id, type: Number(r.type) === 0 ? 1 : 2 }) }]
            : []
        }
        toolbar={
          <>
            {hasPerm('base:sys:menu:export') && (
              <button type="button" className="aw-btn-default" onClick={() => void exportTree().catch(() => undefined)}>
                <Icon name="external" className="size-4" />
                {t`Export`}
              </button>
            )}
            {hasPerm('base:sys:menu:import') && (
              <FilePick label={t`Import`} accept="application/json,.json" busy={busy} onFile={(f) => void importTree(f).catch(() => undefined)} />
            )}
          </>
        }
      />
      <ImportResult summary={summary} onClose={() => setSummary(null)} />
    </>
  );
}
