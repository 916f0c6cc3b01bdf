/**
 * /sys/log: the request log (read-only). Every /admin call leaves a row; the server masks
 * passwords and tokens in `params`. Details show the row itself (the log has no info call).
 * The toolbar sets how many days the log keeps (a daily task purges older rows) and clears it.
 */
import { useEffect, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { CrudPage, createService, useConfirm, type CrudHandle, type FormItem, type Option, type Row, type TableColumn } from '../../../kit/index.ts';
import { request } from '../../../api/client.ts';
import { hasPerm } from '../../../app/store.ts';
import { toast } from '../../../ui/toast.tsx';

const PREFIX = '/admin/base/sys/log';

const service = { ...createService(PREFIX), info: undefined, add: undefined, update: undefined, delete: undefined };

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

function KeepDays() {
  const { t } = useLingui();
  const [days, setDays] = useState('');
  const [saved, setSaved] = useState<number | null>(null);
  // The box waits for the saved value: typed before it came, a value would be overwritten by it.
  const [loaded, setLoaded] = useState(false);
  const canSet = hasPerm('base:sys:log:setKeep');

  useEffect(() => {
    request<number>({ url: `${PREFIX}/getKeep` }).then(
      (d) => {
        setSaved(d);
        setDays(String(d));
        setLoaded(true);
      },
      () => setLoaded(true),
    );
  }, []);

  const value = Number(days);
  const valid = Number.isInteger(value) && value >= 1 && value <= 3650;
  async function save() {
    if (!valid) return;
    await request({ url: `${PREFIX}/setKeep`, method: 'POST', data: { value } });
    setSaved(value);
    toast.success(t`Save successful`);
  }

  return (
    <form
      className="flex items-center gap-2 text-sm text-slate-600"
      onSubmit={(e) => {
        e.preventDefault();
        void save().catch(() => undefined);
      }}
    >
      <label htmlFor="log-keep-days">{t`Keep days`}</label>
      <input
        id="log-keep-days"
        className="aw-input h-8 w-20"
        type="number"
        min={1}
        max={3650}
        value={days}
        disabled={!canSet || !loaded}
        aria-invalid={days !== '' && !valid}
        aria-describedby={!valid ? 'log-keep-days-error' : undefined}
        onChange={(e) => setDays(e.target.value)}
      />
      {/* Say why Save is greyed out instead of leaving the user to guess the range. */}
      {canSet && loaded && !valid && (
        <span id="log-keep-days-error" role="alert" className="text-xs text-red-600">
          {t`Whole days from 1 to 3650`}
        </span>
      )}
      {canSet && (
        <button type="submit" className="aw-btn-default h-8" disabled={!valid || value === saved}>
          {t`Save`}
        </button>
      )}
    </form>
  );
}

export default function RequestLog() {
  const { t } = useLingui();
  const crud = useRef<CrudHandle>(null);
  const [confirm, confirmDialog] = useConfirm();

  async function clear() {
    const ok = await confirm({ message: t`This deletes every request log entry. Do you want to continue?`, confirmLabel: t`Clear`, danger: true });
    if (!ok) return;
    await request({ url: `${PREFIX}/clear`, method: 'POST' });
    toast.success(t`Delete successful`);
    crud.current?.refresh();
  }
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
    <>
      <CrudPage
        ref={crud}
        service={service}
        columns={columns}
        items={items}
        search={search}
        op={['info']}
        perms={{ info: true }}
        selection={false}
        keyword={{ placeholder: t`Path, user or IP` }}
        dialog={{ title: t`Request details`, onInfo: prettyParams }}
        toolbar={
          <div className="flex flex-wrap items-center gap-3">
            {hasPerm('base:sys:log:getKeep') && <KeepDays />}
            {hasPerm('base:sys:log:clear') && (
              <button type="button" className="aw-btn-default h-8 text-red-600 hover:text-red-700" onClick={() => void clear().catch(() => undefined)}>
                {t`Clear`}
              </button>
            )}
          </div>
        }
      />
      {confirmDialog}
    </>
  );
}
