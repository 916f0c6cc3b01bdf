/** Tasks: scheduled built-in jobs; start, stop, run once, and each task's run log. */
import { useEffect, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { CrudPage, type CrudHandle, type FormItem, type Option, type Row, type TableColumn } from '../../../kit/index.ts';
import { request } from '../../../api/client.ts';
import { hasPerm } from '../../../app/store.ts';
import { toast } from '../../../ui/toast.tsx';
import { LogDrawer } from './LogDrawer.tsx';
import { formatNumber } from '../../../i18n/format.ts';

const PREFIX = '/admin/task/info';

export default function TaskList() {
  const { t, i18n } = useLingui();
  const crud = useRef<CrudHandle>(null);
  const [logOf, setLogOf] = useState<{ id: number; name: string } | null>(null);
  const [jobs, setJobs] = useState<Option[]>([]);

  useEffect(() => {
    if (!hasPerm('task:info:jobs')) return;
    request<{ name: string; description: string }[]>({ url: `${PREFIX}/jobs`, silent: true }).then(
      (list) => setJobs(list.map((j) => ({ label: j.name, value: j.name }))),
      () => undefined,
    );
  }, []);

  const everyText = (ms: number) => {
    if (ms % 3_600_000 === 0) {
      const hours = ms / 3_600_000;
      return t`every ${hours} h`;
    }
    if (ms % 60_000 === 0) {
      const minutes = ms / 60_000;
      return t`every ${minutes} min`;
    }
    const seconds = formatNumber(ms / 1000, { max: 3 }, i18n.locale);
    return t`every ${seconds} s`;
  };
  const status: Option[] = [
    { label: t`Running`, value: 1, color: '#16a34a' },
    { label: t`Stopped`, value: 0, color: '#64748b' },
  ];
  const kinds: Option[] = [
    { label: t`System`, value: 0, color: '#4165d7' },
    { label: t`User`, value: 1, color: '#64748b' },
  ];
  const scheduleTypes: Option[] = [
    { label: t`Cron`, value: 0 },
    { label: t`Interval`, value: 1 },
  ];
  // The seeded system tasks are named in English in the database; show them in the UI language.
  const systemNames: Record<string, string> = {
    'log.purge': t`Request log purge`,
    'recycle.purge': t`Recycle bin purge`,
  };
  const nameOf = (r: Row) => (Number(r.type) === 0 && systemNames[String(r.service)]) || String(r.name);
  // Their seeded remarks too, as long as nobody has edited them (the English seed text is the key).
  const systemRemarks: Record<string, string> = {
    'Deletes request log entries older than the keep days': t`Deletes request log entries older than the keep days`,
    'Deletes recycle bin entries older than the given days': t`Deletes recycle bin entries older than the given days`,
  };
  const remarkOf = (r: Row) => (Number(r.type) === 0 && systemRemarks[String(r.remark)]) || String(r.remark ?? '');
  const columns: TableColumn[] = [
    { prop: 'name', label: t({ message: 'Name', context: 'object' }), sortable: true, minWidth: 150, render: nameOf },
    { prop: 'type', label: t`Kind`, dict: kinds, width: 90 },
    { prop: 'service', label: t`Job`, minWidth: 120, render: (r) => <span className="font-mono text-xs">{String(r.service)}</span> },
    {
      prop: 'cron',
      label: t`Schedule`,
      minWidth: 130,
      render: (r) => (Number(r.taskType) === 1 ? everyText(Number(r.every)) : <span className="font-mono text-xs">{String(r.cron ?? '')}</span>),
    },
    { prop: 'status', label: t`Status`, dict: status, sortable: true, width: 100 },
    { prop: 'nextRunTime', label: t`Next run`, sortable: true, width: 170 },
    { prop: 'lastRunTime', label: t`Last run`, sortable: true, width: 170 },
    { prop: 'remark', label: t`Remark`, minWidth: 160, render: remarkOf },
  ];
  const cronLike = ({ form }: { form: Record<string, unknown> }) => Number(form.taskType ?? 0) !== 0;
  const items: FormItem[] = [
    { prop: 'name', label: t({ message: 'Name', context: 'object' }), required: true, span: 12 },
    jobs.length
      ? { prop: 'service', label: t`Job`, type: 'select', options: jobs, required: true, span: 12 }
      : { prop: 'service', label: t`Job`, required: true, span: 12, placeholder: 'log.purge' },
    { prop: 'taskType', label: t`Schedule`, type: 'radio', options: scheduleTypes, value: 0, span: 12 },
    { prop: 'cron', label: t`Cron`, required: true, span: 12, placeholder: '0 3 * * *', hidden: cronLike },
    {
      prop: 'every',
      label: t`Every (ms)`,
      type: 'number',
      min: 1000,
      step: 1000,
      required: true,
      span: 12,
      hidden: ({ form }) => !cronLike({ form }),
    },
    {
      prop: 'data',
      label: t`Data (JSON)`,
      type: 'textarea',
      placeholder: '{"days": 30}',
      validate: (v) => {
        if (typeof v !== 'string' || !v.trim()) return null;
        try {
          const parsed: unknown = JSON.parse(v);
          return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? null : t`Must be a JSON object`;
        } catch {
          return t`Must be a JSON object`;
        }
      },
    },
    { prop: 'limit', label: t`Most runs`, type: 'number', min: 1, span: 12, placeholder: t`No limit` },
    { prop: 'startDate', label: t`Start date`, type: 'datetime', span: 12 },
    { prop: 'endDate', label: t`End date`, type: 'datetime', span: 12 },
    { prop: 'remark', label: t`Remark`, type: 'textarea' },
  ];

  async function act(action: 'start' | 'stop' | 'once', row: Row) {
    const reply = await request<{ status?: number; detail?: string | null } | null>({ url: `${PREFIX}/${action}`, method: 'POST', data: { id: row.id } });
    if (action === 'once') {
      if (reply?.status === 1) toast.success(t`Run finished`);
      else {
        const detail = reply?.detail ?? '';
        toast.error(t`The run failed: ${detail}`);
      }
    } else {
      toast.success(action === 'start' ? t`Task started` : t`Task stopped`);
    }
    crud.current?.refresh();
  }
  const run = (action: 'start' | 'stop' | 'once') => (row: Row) => void act(action, row).catch(() => undefined);

  const canSwitch = hasPerm('task:info:start');
  return (
    <>
      <CrudPage
        ref={crud}
        service={PREFIX}
        columns={columns}
        items={items}
        op={['update', 'delete']}
        dialog={{ width: '60%', onInfo: (r) => ({ ...r, data: r.data ?? '' }) }}
        search={[
          { prop: 'status', label: t`Status`, type: 'select', options: status },
          { prop: 'type', label: t`Kind`, type: 'select', options: kinds },
        ]}
        rowActions={[
          ...(canSwitch
            ? [
                { label: t`Start`, onClick: run('start'), hidden: (r: Row) => Number(r.status) === 1 },
                { label: t`Stop`, onClick: run('stop'), hidden: (r: Row) => Number(r.status) !== 1, danger: true },
              ]
            : []),
          ...(hasPerm('task:info:once') ? [{ label: t`Run once`, onClick: run('once') }] : []),
          ...(hasPerm('task:info:log') ? [{ label: t`Log`, onClick: (r: Row) => setLogOf({ id: Number(r.id), name: nameOf(r) }) }] : []),
        ]}
      />
      <LogDrawer task={logOf} onClose={() => setLogOf(null)} />
    </>
  );
}
