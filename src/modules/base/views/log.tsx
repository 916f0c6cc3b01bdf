/**
 * /sys/log: the request log (read-only). Every /admin call leaves a row; the server masks
 * passwords and tokens in `params`. Details show the row itself (the log has no info call).
 */
import { useLingui } from '@lingui/react/macro';
import { CrudPage, createService, type FormItem, type Option, type Row, type TableColumn } from '../../../kit';

const service = { ...createService('/admin/base/sys/log'), info: undefined, add: undefined, update: undefined, delete: undefined };

const METHODS: Option[] = ['GET', 'POST', 'PUT', 'DELETE'].map((m) => ({ label: m, value: m }));

/** Pretty-prints the stored JSON text of the request parameters. */
function prettyParams(record: Row): Row {
  const raw = record.params;
  if (typeof raw !== 'string' || !raw) return record;
  try {
    return { ...record, params: JSON.stringify(JSON.parse(raw), null, 2) };
  } catch {
    return record;
  }
}

function StatusTag({ status }: { status: unknown }) {
  const n = Number(status);
  const tone = n >= 500 ? 'bg-red-50 text-red-700 border-red-200' : n >= 400 ? 'bg-amber-50 text-amber-700 border-amber-200' : 'bg-emerald-50 text-emerald-700 border-emerald-200';
  return <span className={`inline-flex h-6 items-center rounded border px-2 text-xs tabular-nums ${tone}`}>{String(status ?? '')}</span>;
}

export default function RequestLog() {
  const { t } = useLingui();
  const columns: TableColumn[] = [
    { prop: 'id', label: 'ID', sortable: true, width: 80 },
    { prop: 'username', label: t`User`, sortable: true, minWidth: 110 },
    { prop: 'action', label: t`Request path`, sortable: true, minWidth: 240 },
    { prop: 'method', label: t`Method`, sortable: true, width: 90 },
    { prop: 'status', label: t`Status`, sortable: true, width: 90, render: (row) => <StatusTag status={row.status} /> },
    { prop: 'timeMs', label: t`Time (ms)`, sortable: true, width: 110, align: 'right' },
    { prop: 'ip', label: 'IP', sortable: true, width: 130 },
    { prop: 'createTime', label: t`Time`, sortable: true, width: 170 },
  ];
  const items: FormItem[] = [
    { prop: 'username', label: t`User`, span: 12 },
    { prop: 'ip', label: 'IP', span: 12 },
    { prop: 'action', label: t`Request path` },
    { prop: 'method', label: t`Method`, span: 12 },
    { prop: 'status', label: t`Status`, span: 12 },
    { prop: 'timeMs', label: t`Time (ms)`, span: 12 },
    { prop: 'createTime', label: t`Time`, span: 12 },
    { prop: 'params', label: t`Parameters`, type: 'textarea' },
  ];
  const search: FormItem[] = [
    { prop: 'method', label: t`Method`, type: 'select', options: METHODS },
    { prop: 'status', label: t`Status`, type: 'number', placeholder: '200' },
    { prop: 'userId', label: t`User ID`, type: 'number' },
  ];
  return (
    <CrudPage
      service={service}
      columns={columns}
      items={items}
      search={search}
      op={['info']}
      perms={{ info: true }}
      selection={false}
      keyword={{ placeholder: t`Path, user or IP` }}
      dialog={{ title: t`Request details`, onInfo: prettyParams }}
    />
  );
}
