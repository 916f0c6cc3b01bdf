/**
 * A declarative list screen (specification, section 2 "Generic list screen behaviour"): give a
 * service, columns, form items and search items; get the toolbar (add, refresh, multi-delete,
 * keyword search, advanced search), the table, the pagination bar and the upsert dialog, with the
 * table state in the URL and buttons hidden by the user's permissions.
 */
import { useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import { useLingui } from '@lingui/react/macro';
import { useApp } from '../app/store.ts';
import { Icon } from '../ui/icons.tsx';
import { toast } from '../ui/toast.tsx';
import { MINI_SCREEN, useMediaQuery } from '../ui/useMediaQuery.ts';
import { useConfirm } from './confirm.tsx';
import { ExcelTools, type ExcelOptions } from './excel.tsx';
import { ConfigError } from './fields.tsx';
import { Pagination } from './Pagination.tsx';
import { createService, permsFor, readPage } from './service.ts';
import { KitTable } from './Table.tsx';
import { KeywordSearch, SearchDrawer, searchKeys } from './Toolbar.tsx';
import type { CrudService, Form, FormItem, FormMode, FormTab, Perms, Query, Row, RowAction, TableColumn } from './types.ts';
import { UpsertDialog, type UpsertTarget } from './UpsertDialog.tsx';
import { stateQuery, useTableState, type TableState } from './urlState.ts';

export interface CrudHandle {
  /** Loads the list again (a newer refresh supersedes an older one). */
  refresh(): void;
  openAdd(prefill?: Form): void;
  openUpdate(row: Row): void;
  openInfo(row: Row): void;
  /** Ids of the selected rows. */
  selected(): (number | string)[];
  /** The current table state (page, size, keyWord, order, sort, filters). */
  state(): TableState;
}

export interface CrudPageProps {
  /** A prefix such as `/admin/base/sys/user`, or a service object. */
  service: string | CrudService;
  columns: TableColumn[];
  /** Items of the add/update/info dialog; without items there is no dialog (and no add button). */
  items?: FormItem[];
  tabs?: FormTab[];
  /** Items of the advanced search drawer; without them there is no drawer. */
  search?: FormItem[];
  /** Keyword search box (default on); an object sets its placeholder. */
  keyword?: boolean | { placeholder?: string };
  /** Permission flags that override those derived from the service prefix. */
  perms?: Partial<Perms>;
  /** Row buttons (default info, update, delete) or false for no operation column. */
  op?: ('info' | 'update' | 'delete')[] | false;
  rowActions?: RowAction[];
  /** Right-click row menu (default on). */
  rowMenu?: boolean;
  /** Selection checkboxes and multi-delete (default on). */
  selection?: boolean;
  rowKey?: string;
  /**
   * Where page, size, keyword, sort and filters live: the URL (default), the URL under a prefix
   * (`{ prefix: 'cfg.' }`, for a second list on the same route) or memory (`false`, e.g. a list
   * inside a dialog).
   */
  urlState?: boolean | { prefix: string };
  /** Fixed parameters added to every page request. */
  query?: Record<string, unknown>;
  /** Extra parameters of delete requests. */
  deleteParams?: Record<string, unknown>;
  /** Dialog options. */
  dialog?: {
    title?: string | ((mode: FormMode) => string);
    width?: string;
    onSubmit?: (data: Form, mode: FormMode) => Promise<unknown>;
    onInfo?: (record: Row) => Row;
  };
  /** Extra toolbar content (after the default buttons). */
  toolbar?: ReactNode;
  /** The Excel kit: export of the filtered list, import with a template (src/kit/excel.tsx). */
  excel?: ExcelOptions;
  /** Content between the toolbar and the table. */
  children?: ReactNode;
  /** Called with each page reply's `subData` (sums and the like). */
  onSubData?: (subData: unknown) => void;
  ref?: Ref<CrudHandle>;
}

export function CrudPage(props: CrudPageProps) {
  const valid =
    (typeof props.service === 'string' ? props.service.length > 0 : typeof props.service?.page === 'function') && Array.isArray(props.columns);
  if (!valid) {
    return (
      <div className="p-4">
        <ConfigError />
      </div>
    );
  }
  return <CrudPageInner {...props} />;
}

function CrudPageInner(props: CrudPageProps) {
  const { t } = useLingui();
  const { perms: userPerms } = useApp();
  const mini = useMediaQuery(MINI_SCREEN);
  const service = useMemo(() => (typeof props.service === 'string' ? createService(props.service) : props.service), [props.service]);
  const perms = useMemo(() => {
    const flags = permsFor(service.prefix, userPerms, props.perms);
    // An action the service does not offer has no button (without an info call, the dialog shows
    // the row itself when the page sets perms.info).
    if (!service.add) flags.add = false;
    if (!service.update) flags.update = false;
    if (!service.info && props.perms?.info !== true) flags.info = false;
    if (!service.delete) flags.delete = false;
    if (!props.items?.length) flags.add = flags.update = flags.info = false;
    return flags;
  }, [service, userPerms, props.perms, props.items]);

  const searchItems = props.search ?? [];
  const fields = useMemo(() => searchKeys(searchItems), [searchItems]);
  const { state, setState } = useTableState(fields, props.urlState ?? true);

  const [rows, setRows] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<(number | string)[]>([]);
  const [tick, setTick] = useState(0);
  const [drawer, setDrawer] = useState(false);
  const [target, setTarget] = useState<UpsertTarget | null>(null);
  const [confirm, confirmDialog] = useConfirm();
  const seq = useRef(0);
  const rowKey = props.rowKey ?? 'id';

  const queryKey = JSON.stringify({ ...props.query, ...stateQuery(state) });
  const latest = useRef({ props, state, service });
  latest.current = { props, state, service };
  // Callers may build the service object on every render: only another prefix means another list.
  const serviceKey = typeof props.service === 'string' ? props.service : (props.service.prefix ?? '');

  // Every change of the table state (or an explicit refresh) loads the page; only the newest
  // request's reply is used.
  useEffect(() => {
    if (!perms.page) return;
    const id = ++seq.current;
    const { state: s, service: current } = latest.current;
    setLoading(true);
    current.page(JSON.parse(queryKey) as Query).then(
      (reply) => {
        if (id !== seq.current) return;
        const page = readPage(reply, { page: s.page, size: s.size });
        setRows(page.list as Row[]);
        setTotal(page.total);
        setSelected((sel) => sel.filter((k) => page.list.some((r) => String((r as Row)[rowKey]) === String(k))));
        latest.current.props.onSubData?.(page.subData);
        setLoading(false);
        // A page past the end (after deleting its last rows): go to the last page.
        const last = Math.max(1, Math.ceil(page.total / s.size));
        if (page.list.length === 0 && s.page > last) setState({ page: last }, { replace: true });
      },
      () => {
        if (id !== seq.current) return;
        setLoading(false);
      },
    );
  }, [queryKey, tick, serviceKey, perms.page, rowKey, setState]);

  const refresh = useCallback(() => setTick((n) => n + 1), []);

  const remove = async (ids: (number | string)[]) => {
    if (!ids.length || !service.delete) return;
    const ok = await confirm({ message: t`This operation will permanently delete the selected data. Do you want to continue?` });
    if (!ok) return;
    try {
      await service.delete({ ...props.deleteParams, ids });
      toast.success(t`Delete successful`);
      setSelected((sel) => sel.filter((s) => !ids.some((i) => String(i) === String(s))));
      refresh();
    } catch {
      // The client showed the error.
    }
  };

  const target0 = (mode: 'update' | 'info', row: Row): UpsertTarget =>
    service.info ? { mode, id: row[rowKey] as number | string } : { mode, id: row[rowKey] as number | string, record: row };
  const openUpdate = (row: Row) => setTarget(target0('update', row));
  const openInfo = (row: Row) => setTarget(target0('info', row));

  useImperativeHandle(props.ref, () => ({
    refresh,
    openAdd: (prefill) => setTarget(prefill ? { mode: 'add', prefill } : { mode: 'add' }),
    openUpdate,
    openInfo,
    selected: () => selected,
    state: () => latest.current.state,
  }));

  const filterCount = Object.keys(state.filters).length;
  const keyword = props.keyword ?? true;

  if (!perms.page) {
    return (
      <div className="p-6 text-center text-sm text-slate-500" role="status">
        {t`You do not have permission to view this list.`}
      </div>
    );
  }

  return (
    <div className="flex min-h-full flex-col gap-3 p-3 sm:p-4">
      <div className="aw-card flex flex-col gap-3 p-3 sm:p-4">
        <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label={t`Table toolbar`}>
          <button type="button" className="aw-btn-default h-8 px-3" onClick={refresh} aria-label={t`Refresh`} title={t`Refresh`}>
            <Icon name="refresh" className="size-4" />
            <span className="max-sm:sr-only">{t`Refresh`}</span>
          </button>
          {perms.add && (
            <button type="button" className="aw-btn-primary h-8 px-3" onClick={() => setTarget({ mode: 'add' })}>
              <span aria-hidden="true" className="text-base leading-none">
                +
              </span>
              {t`Add`}
            </button>
          )}
          {perms.delete && props.selection !== false && (
            <button type="button" className="aw-btn h-8 bg-red-600 px-3 text-white hover:bg-red-700" disabled={selected.length === 0} onClick={() => void remove(selected)}>
              {t`Delete`}
              {selected.length > 0 && <span className="tabular-nums">({selected.length})</span>}
            </button>
          )}
          {props.toolbar}
          {props.excel && service.prefix && (
            <ExcelTools
              prefix={service.prefix}
              options={props.excel}
              query={() => ({ ...latest.current.props.query, ...stateQuery(latest.current.state) })}
              onImported={refresh}
            />
          )}
          <div className="ml-auto flex items-center gap-2">
            {keyword && (
              <KeywordSearch
                value={state.keyWord}
                placeholder={typeof keyword === 'object' ? keyword.placeholder : undefined}
                onSearch={(keyWord) => {
                  if (keyWord !== state.keyWord) setState({ keyWord, page: 1 });
                  else refresh();
                }}
              />
            )}
            {searchItems.length > 0 && (
              <button type="button" className="aw-btn-default relative h-8 px-3" onClick={() => setDrawer(true)}>
                {t`Advanced search`}
                {filterCount > 0 && <span className="rounded-full bg-primary px-1.5 text-xs text-white tabular-nums">{filterCount}</span>}
              </button>
            )}
          </div>
        </div>
        {props.children}
        <KitTable
          rows={rows}
          columns={props.columns}
          loading={loading}
          mini={mini}
          perms={perms}
          rowKey={rowKey}
          selection={props.selection !== false}
          selected={selected}
          onSelect={setSelected}
          sort={{ order: state.order, sort: state.sort }}
          onSort={(s) => setState({ order: s.order, sort: s.sort, page: 1 })}
          onRefresh={refresh}
          onInfo={openInfo}
          onUpdate={openUpdate}
          onDelete={(row) => void remove([row[rowKey] as number | string])}
          op={props.op}
          rowActions={props.rowActions}
          rowMenu={props.rowMenu}
        />
        <Pagination page={state.page} size={state.size} total={total} mini={mini} onChange={(p) => setState(p)} />
      </div>
      {searchItems.length > 0 && (
        <SearchDrawer
          open={drawer}
          onOpenChange={setDrawer}
          items={searchItems}
          filters={state.filters}
          mini={mini}
          onSearch={(filters) => {
            const next = { filters, page: 1 };
            if (JSON.stringify(filters) === JSON.stringify(state.filters)) refresh();
            setState(next);
          }}
        />
      )}
      {props.items && props.items.length > 0 && (
        <UpsertDialog
          target={target}
          onClose={() => setTarget(null)}
          onSaved={refresh}
          service={service}
          items={props.items}
          tabs={props.tabs}
          title={props.dialog?.title}
          width={props.dialog?.width}
          onSubmit={props.dialog?.onSubmit}
          onInfo={props.dialog?.onInfo}
        />
      )}
      {confirmDialog}
    </div>
  );
}
