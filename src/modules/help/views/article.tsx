/** Help articles: the category tree on the left, the articles of the chosen category on the
 * right; content is markdown, edited beside a live preview. */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import {
  CrudPage,
  createService,
  toTree,
  UpsertDialog,
  useConfirm,
  type CrudHandle,
  type FormItem,
  type Option,
  type Row,
  type TableColumn,
  type TreeNode,
  type UpsertTarget,
} from '../../../kit/index.ts';
import { request } from '../../../api/client.ts';
import { hasPerm } from '../../../app/store.ts';
import { Icon } from '../../../ui/icons.tsx';
import { toast } from '../../../ui/toast.tsx';
import { MarkdownEditor } from '../markdown.tsx';

const categoryService = createService<Row>('/admin/base/sys/articleCategory');
const ALL = 'all';

function CategoryTree({
  nodes,
  current,
  onPick,
  onEdit,
  onDelete,
  depth = 0,
}: {
  nodes: TreeNode[];
  current: number | typeof ALL;
  onPick: (id: number) => void;
  onEdit: (id: number) => void;
  onDelete: (node: TreeNode) => void;
  depth?: number;
}) {
  const { t } = useLingui();
  return (
    <ul role={depth === 0 ? 'tree' : 'group'}>
      {nodes.map((n) => (
        <li key={n.id} role="treeitem" aria-selected={n.id === current}>
          <div
            className={`group flex items-center gap-1 rounded-md py-1 pr-1 text-sm ${n.id === current ? 'bg-primary-light-9 text-primary' : 'text-slate-700 hover:bg-slate-50'}`}
            style={{ paddingLeft: `${0.5 + depth * 1}rem` }}
          >
            <button type="button" className="min-w-0 flex-1 truncate py-0.5 text-left" onClick={() => onPick(Number(n.id))}>
              {n.label}
            </button>
            {hasPerm('base:sys:articleCategory:update') && (
              <button type="button" className="aw-btn-icon size-6 opacity-0 group-hover:opacity-100 focus:opacity-100" aria-label={t`Edit`} title={t`Edit`} onClick={() => onEdit(Number(n.id))}>
                <Icon name="settings" className="size-3.5" />
              </button>
            )}
            {hasPerm('base:sys:articleCategory:delete') && (
              <button type="button" className="aw-btn-icon size-6 opacity-0 group-hover:opacity-100 hover:text-red-600 focus:opacity-100" aria-label={t`Delete`} title={t`Delete`} onClick={() => onDelete(n)}>
                <Icon name="x" className="size-3.5" />
              </button>
            )}
          </div>
          {n.children && n.children.length > 0 && <CategoryTree nodes={n.children} current={current} onPick={onPick} onEdit={onEdit} onDelete={onDelete} depth={depth + 1} />}
        </li>
      ))}
    </ul>
  );
}

export default function ArticleList() {
  const { t } = useLingui();
  const [categories, setCategories] = useState<Row[]>([]);
  const [current, setCurrent] = useState<number | typeof ALL>(ALL);
  const [target, setTarget] = useState<UpsertTarget | null>(null);
  const [confirm, confirmDialog] = useConfirm();
  const crud = useRef<CrudHandle>(null);

  const loadCategories = useCallback(() => {
    // Categories are their own permission; asking without it would only be refused (an error toast).
    if (!hasPerm('base:sys:articleCategory:list')) return;
    categoryService.list!({ order: 'orderNum', sort: 'asc' }).then(setCategories, () => undefined);
  }, []);
  useEffect(loadCategories, [loadCategories]);
  const tree = useMemo(() => toTree(categories), [categories]);
  const names = useMemo(() => new Map(categories.map((c) => [c.id, String(c.name)])), [categories]);

  async function removeCategory(node: TreeNode) {
    const name = node.label;
    const ok = await confirm({ message: t`Delete the category "${name}"? Its articles are kept without a category.`, danger: true });
    if (!ok) return;
    await categoryService.delete!({ ids: [node.id] });
    toast.success(t`Delete successful`);
    if (current === node.id) setCurrent(ALL);
    loadCategories();
    crud.current?.refresh();
  }

  const statuses: Option[] = [
    { label: t`Published`, value: 1, color: '#16a34a' },
    { label: t`Draft`, value: 0, color: '#94a3b8' },
  ];
  const columns: TableColumn[] = [
    { prop: 'title', label: t`Title`, sortable: true, minWidth: 200 },
    { prop: 'categoryId', label: t`Category`, minWidth: 120, render: (r) => names.get(r.categoryId as number) ?? <span className="text-slate-400">—</span> },
    { prop: 'status', label: t`Status`, dict: statuses, sortable: true, width: 100 },
    { prop: 'orderNum', label: t`Sort order`, sortable: true, width: 90, align: 'right' },
    { prop: 'updateTime', label: t`Updated`, sortable: true, width: 170 },
  ];
  const items: FormItem[] = [
    { prop: 'title', label: t`Title`, required: true },
    { prop: 'categoryId', label: t`Category`, type: 'treeSelect', tree, span: 12, value: current === ALL ? undefined : current },
    { prop: 'orderNum', label: t`Sort order`, type: 'number', value: 0, span: 12 },
    { prop: 'status', label: t`Status`, type: 'radio', options: statuses, value: 0 },
    {
      prop: 'content',
      label: t`Content`,
      type: 'custom',
      value: '',
      render: ({ id, value, onChange, disabled }) => (
        <MarkdownEditor id={id} value={String(value ?? '')} onChange={onChange} disabled={disabled} previewLabel={t`Preview`} />
      ),
    },
  ];
  const categoryItems: FormItem[] = [
    { prop: 'name', label: t({ message: 'Name', context: 'object' }), required: true },
    { prop: 'parentId', label: t`Parent`, type: 'treeSelect', tree },
    { prop: 'orderNum', label: t`Sort order`, type: 'number', value: 0 },
  ];

  return (
    <div className="flex min-h-full flex-col gap-3 p-3 sm:p-4 md:flex-row">
      <aside className="aw-card flex w-full shrink-0 flex-col md:w-60 md:self-start" aria-label={t`Categories`}>
        <div className="flex items-center justify-between border-b border-slate-100 px-3 py-2.5">
          <h2 className="text-sm font-semibold text-slate-700">{t`Categories`}</h2>
          {hasPerm('base:sys:articleCategory:add') && (
            <button type="button" className="aw-btn-primary h-7 px-2 text-xs" onClick={() => setTarget({ mode: 'add', prefill: current === ALL ? {} : { parentId: current } })}>
              + {t`Add`}
            </button>
          )}
        </div>
        <div className="max-h-[70vh] overflow-auto p-1.5">
          <button
            type="button"
            className={`mb-0.5 w-full rounded-md px-2 py-1.5 text-left text-sm ${current === ALL ? 'bg-primary-light-9 text-primary' : 'text-slate-700 hover:bg-slate-50'}`}
            onClick={() => setCurrent(ALL)}
          >
            {t`All articles`}
          </button>
          <CategoryTree nodes={tree} current={current} onPick={setCurrent} onEdit={(id) => setTarget({ mode: 'update', id })} onDelete={(n) => void removeCategory(n).catch(() => undefined)} />
        </div>
      </aside>
      <section className="min-w-0 flex-1 [&>div]:p-0 sm:[&>div]:p-0">
        <CrudPage
          key={String(current)}
          ref={crud}
          service="/admin/base/sys/article"
          columns={columns}
          items={items}
          query={current === ALL ? {} : { categoryId: current }}
          search={[{ prop: 'status', label: t`Status`, type: 'select', options: statuses }]}
          dialog={{ width: '80%' }}
        />
      </section>
      <UpsertDialog
        target={target}
        onClose={() => setTarget(null)}
        onSaved={loadCategories}
        service={categoryService}
        items={categoryItems}
        width="440px"
        title={(mode) => (mode === 'add' ? t`Add category` : t`Edit category`)}
      />
      {confirmDialog}
    </div>
  );
}
