/** Take-time list: per order, when design and processing started and ended, and how long they took. */
import { useLingui } from '@lingui/react/macro';
import { CrudPage, type Row, type TableColumn } from '../../../kit/index.ts';
import { useStatusOptions } from '../status.ts';

/** Minutes between two "YYYY-MM-DD HH:mm:ss" (UTC) times, or null. */
function minutesBetween(start: unknown, end: unknown): number | null {
  if (typeof start !== 'string' || typeof end !== 'string' || !start || !end) return null;
  const ms = Date.parse(`${end.replace(' ', 'T')}Z`) - Date.parse(`${start.replace(' ', 'T')}Z`);
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms / 60_000) : null;
}

export default function OrderTimeList() {
  const { t } = useLingui();
  const { order: statuses } = useStatusOptions();
  const duration = (row: Row, start: string, end: string) => {
    const m = minutesBetween(row[start], row[end]);
    if (m === null) return <span className="text-slate-400">—</span>;
    const h = Math.floor(m / 60);
    return <span className="tabular-nums">{h ? t`${h} h ${m % 60} min` : t`${m} min`}</span>;
  };
  const columns: TableColumn[] = [
    { prop: 'caseNo', label: t`Case number`, sortable: true, width: 170, render: (r) => <span className="font-mono text-xs whitespace-nowrap">{String(r.caseNo)}</span> },
    { prop: 'patientName', label: t`Patient`, minWidth: 130 },
    { prop: 'designerName', label: t`Designer`, width: 120 },
    { prop: 'status', label: t`Status`, dict: statuses, width: 150 },
    { prop: 'designStartTime', label: t`Design started`, sortable: true, width: 170 },
    { prop: 'designEndTime', label: t`Design finished`, width: 170 },
    { prop: 'designTime', label: t`Design time`, width: 120, render: (r) => duration(r, 'designStartTime', 'designEndTime') },
    { prop: 'processStartTime', label: t`Processing started`, width: 170 },
    { prop: 'processEndTime', label: t`Processing finished`, sortable: true, width: 170 },
    { prop: 'processTime', label: t`Processing time`, width: 120, render: (r) => duration(r, 'processStartTime', 'processEndTime') },
  ];
  return <CrudPage service="/admin/order/info" columns={columns} op={false} perms={{ add: false, delete: false, update: false }} selection={false} />;
}
