/** Dictionaries: types on the left, the chosen type's entries as an indented tree on the right. */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import {
  CrudPage,
  createService,
  toTree,
  UpsertDialog,
  useConfirm,
  type CrudHandle,
  type CrudService,
  type FormItem,
  type Row,
  type TableColumn,
  type UpsertTarget,
} from '../../../kit/index.ts';
import { request } from '../../../api/client.ts';
import { hasPerm } from '../../../app/store.ts';
import { Icon } from '../../../ui/icons.tsx';
import { toast } from '../../../ui/toast.tsx';

interface DictType {
  id: number;
  name: string;
  key: string;
}

const typeService = createService<Row>('/admin/dict/type');
const infoService = createService<Row>('/admin/dict/info');

/** Rows in tree order (parents before their children, siblings by orderNum) with their depth. */
export function treeOrder(rows: Row[]): Row[] {
  const byParent = new Map<unknown, Row[]>();
  const ids = new Set(rows.map((r) => r.id));
  for (const r of rows) {
    const parent = r.parentId !== null && r.parentId !== undefined && ids.has(r.parentId as number) ? r.parentId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), r]);
  }
  const out: Row[] = [];
  const walk = (parent: unknown, depth: number) => {
    const children = (byParent.get(parent) ?? []).sort((a, b) => Number(a.orderNum) - Number(b.orderNum) || Number(a.id) - Number(b.id));
    for (const c of children) {
      out.push({ ...c, _depth: depth });
      walk(c.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

function TypePanel({ types, current, onPick, onChanged }: { types: DictType[]; current: number | null; onPick: (id: number) => void; onChanged: (select?: number) => void }) {
  const { t } = useLingui();
  const [target, setTarget] = useState<UpsertTarget | null>(null);
  // A type just added becomes the current one: its entries are what the user adds next.
  const added = useRef<number | undefined>(undefined);
  const submit = async (data: Record<string, unknown>, mode: string) => {
    if (mode !== 'add') return typeService.update!(data);
    const reply = (await typeService.add!(data)) as { id?: number } | null;
    added.current = typeof reply?.id === 'number' ? reply.id : undefined;
    return reply;
  };
  const [confirm, confirmDialog] = useConfirm();
  const items: FormItem[] = [
    { prop: 'name', label: t({ message: 'Name', context: 'object' }), required: true },
    { prop: 'key', label: t`Key`, required: true, validate: (v) => (typeof v === 'string' && !/^[\w.:-]+$/.test(v) ? t`Letters, digits and . : _ - only` : null) },
  ];
  async function remove(type: DictType) {
    const name = type.name;
    const ok = await confirm({ message: t`Delete the type "${name}" and all its entries?`, danger: true });
    if (!ok) return;
    await typeService.delete!({ ids: [type.id] });
    toast.success(t`Delete successful`);
    onChanged();
  }
  return (
    <aside className="aw-card flex w-full shrink-0 flex-col md:w-72 md:self-start" aria-label={t`Dictionary types`}>
      <div className="flex items-center justify-between gap-2 border-b border-slate-100 px-3 py-2.5">
        <h2 className="min-w-0 truncate text-sm font-semibold text-slate-700">{t`Dictionary types`}</h2>
        {hasPerm('dict:type:add') && (
          <button type="button" className="aw-btn-primary h-7 shrink-0 whitespace-nowrap px-2 text-xs" onClick={() => setTarget({ mode: 'add' })}>
            + {t`Add`}
          </button>
        )}
      </div>
      <ul className="max-h-[70vh] flex-1 overflow-auto p-1.5">
        {types.length === 0 && <li className="px-2 py-6 text-center text-sm text-slate-400">{t`No types yet`}</li>}
        {types.map((type) => (
          <li key={type.id}>
            <div
              className={`group flex items-center gap-1 rounded-md px-2 py-1.5 text-sm ${type.id === current ? 'bg-primary-light-9 text-primary' : 'text-slate-700 hover:bg-slate-50'}`}
            >
              <button type="button" className="min-w-0 flex-1 text-left" onClick={() => onPick(type.id)} aria-current={type.id === current}>
                <span className="block truncate font-medium">{type.name}</span>
                <span className="block truncate font-mono text-xs text-slate-400">{type.key}</span>
              </button>
              {hasPerm('dict:type:update') && (
                <button type="button" className="aw-btn-icon size-7 opacity-60 group-hover:opacity-100" aria-label={t`Edit`} title={t`Edit`} onClick={() => setTarget({ mode: 'update', id: type.id })}>
                  <Icon name="settings" className="size-3.5" />
                </button>
              )}
              {hasPerm('dict:type:delete') && (
                <button type="button" className="aw-btn-icon size-7 opacity-60 group-hover:opacity-100 hover:text-red-600" aria-label={t`Delete`} title={t`Delete`} onClick={() => void remove(type).catch(() => undefined)}>
                  <Icon name="x" className="size-3.5" />
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      <UpsertDialog
        target={target}
        onClose={() => setTarget(null)}
        onSaved={() => {
          onChanged(added.current);
          added.current = undefined;
        }}
        onSubmit={submit}
        service={typeService}
        items={items}
        width="420px"
        title={(mode) => (mode === 'add' ? t`Add dictionary type` : t`Edit dictionary type`)}
      />
      {confirmDialog}
    </aside>
  );
}

export default function DictList() {
  const { t } = useLingui();
  const [types, setTypes] = useState<DictType[]>([]);
  const [typeId, setTypeId] = useState<number | null>(null);
  const [entries, setEntries] = useState<Row[]>([]);
  const crud = useRef<CrudHandle>(null);

  const loadTypes = useCallback((select?: number) => {
    request<DictType[]>({ url: '/admin/dict/type/list', method: 'POST', data: {} }).then(
      (list) => {
        setTypes(list);
        setTypeId((cur) =>
          select !== undefined && list.some((x) => x.id === select) ? select : cur !== null && list.some((x) => x.id === cur) ? cur : (list[0]?.id ?? null),
        );
      },
      () => undefined,
    );
  }, []);
  useEffect(() => loadTypes(), [loadTypes]);

  const service = useMemo<CrudService>(
    () => ({
      ...infoService,
      async page(query) {
        const rows = await infoService.list!({ typeId: query.typeId, keyWord: query.keyWord });
        if (!query.keyWord) setEntries(rows);
        // A keyword shows the matches flat; otherwise the whole tree.
        return query.keyWord ? rows.map((r) => ({ ...r, _depth: 0 })) : treeOrder(rows);
      },
    }),
    [],
  );

  const current = types.find((x) => x.id === typeId);
  const columns: TableColumn[] = [
    {
      prop: 'name',
      label: t({ message: 'Name', context: 'object' }),
      minWidth: 200,
      render: (r) => (
        <span style={{ paddingLeft: `${Number(r._depth ?? 0) * 1.25}rem` }} className="inline-flex items-center gap-1">
          {Number(r._depth) > 0 && <span className="text-slate-300">└</span>}
          {String(r.name)}
        </span>
      ),
    },
    { prop: 'value', label: t`Value`, minWidth: 120, render: (r) => (r.value === null || r.value === '' ? <span className="text-slate-400">{String(r.id)}</span> : String(r.value)) },
    { prop: 'orderNum', label: t`Sort order`, width: 90, align: 'right' },
    { prop: 'remark', label: t`Remark`, minWidth: 140 },
    { prop: 'updateTime', label: t`Updated`, width: 170 },
  ];
  const items: FormItem[] = [
    { prop: 'name', label: t({ message: 'Name', context: 'object' }), required: true, span: 12 },
    { prop: 'value', label: t`Value`, span: 12, placeholder: t`Empty: the entry's id` },
    { prop: 'parentId', label: t`Parent`, type: 'treeSelect', tree: toTree(entries), span: 12 },
    { prop: 'orderNum', label: t`Sort order`, type: 'number', value: 0, span: 12 },
    { prop: 'remark', label: t`Remark`, type: 'textarea' },
  ];

  return (
    <div className="flex min-h-full flex-col gap-3 p-3 sm:p-4 md:flex-row">
      <TypePanel types={types} current={typeId} onPick={setTypeId} onChanged={loadTypes} />
      <section className="min-w-0 flex-1 [&>div]:p-0 sm:[&>div]:p-0" aria-label={current ? current.name : t`Entries`}>
        {typeId === null ? (
          <p className="aw-card p-10 text-center text-sm text-slate-400">{t`Add a dictionary type to start.`}</p>
        ) : !hasPerm('dict:info:list') ? (
          // Entries are a permission of their own ("Entry query"); say so instead of an empty area.
          <p className="aw-card p-10 text-center text-sm text-slate-400">{t`You may not view the entries of dictionaries.`}</p>
        ) : (
          <CrudPage
            key={typeId}
            ref={crud}
            service={service}
            columns={columns}
            items={items}
            query={{ typeId }}
            excel={{ file: 'dict-entries' }}
            dialog={{
              onSubmit: (data, mode) => (mode === 'add' ? infoService.add!({ ...data, typeId }) : infoService.update!({ ...data, typeId })),
            }}
            perms={{
              add: hasPerm('dict:info:add'),
              update: hasPerm('dict:info:update'),
              delete: hasPerm('dict:info:delete'),
              info: hasPerm('dict:info:info'),
              page: hasPerm('dict:info:list'),
            }}
            rowActions={hasPerm('dict:info:add') ? [{ label: t`Add child`, onClick: (row) => crud.current?.openAdd({ parentId: row.id }) }] : []}
          />
        )}
      </section>
    </div>
  );
}
