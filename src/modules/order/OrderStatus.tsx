/**
 * The order's lifecycle in the back office: the form's status with its history
 * (GET /admin/order/info/history) and AI status, and the list's bite job cell (the row's `job`
 * while the order's bite registration runs, status 3), which follows the job until it ends.
 */
import { useEffect, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { jobOf, orderHistory, type GeoJobView, type OrderStatusChange } from '../../api/lifecycle.ts';
import { request } from '../../api/client.ts';
import type { Option, Row } from '../../kit/index.ts';
import { useStatusOptions } from './status.ts';
import { AI_STATUS, ORDER_STATUS } from '../../../common/orders.ts';
import { formatNumber } from '../../i18n/format.ts';

/** How often a row whose bite registration or automatic design runs asks for its job. */
const JOB_POLL_MS = 1500;

function Tag({ option, testId, value }: { option: Option | undefined; testId: string; value: unknown }) {
  if (!option) return <span data-testid={testId}>—</span>;
  return (
    <span
      className="inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap text-white"
      style={{ backgroundColor: option.color ?? '#64748b' }}
      data-testid={testId}
      data-status={String(value)}
    >
      {option.label}
    </span>
  );
}

/** While `active`, asks for the order again every JOB_POLL_MS and hands each answer to `seen` (the latest one given). */
function useOrderWatch(id: number, active: boolean, seen: (info: Row) => void): void {
  const latest = useRef(seen);
  latest.current = seen;
  useEffect(() => {
    if (!active) return undefined;
    let live = true;
    const timer = setInterval(() => {
      request<Row>({ url: '/admin/order/info/info', params: { id }, silent: true }).then(
        (info) => {
          if (live) latest.current(info);
        },
        () => undefined,
      );
    }, JOB_POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [active, id]);
}

/** The job's state in words: queued, running with its progress, done, or failed with its error. */
export function useJobText(): (job: GeoJobView | null) => string {
  const { t } = useLingui();
  return (job) => {
    if (!job) return t`Waiting for the bite job`;
    const percent = Math.round(job.progress * 100);
    const error = job.error ?? '';
    switch (job.state) {
      case 'queued':
        return t`Queued`;
      case 'running':
        return t`Registering ${percent}%`;
      case 'done':
        return t`Registered`;
      case 'failed':
        return t`Failed: ${error}`;
    }
  };
}

/** The list's bite job cell: asks again while the order is in bite registration; `ended` refreshes the list. */
export function BiteJobCell({ row, ended }: { row: Row; ended: () => void }) {
  const text = useJobText();
  const [job, setJob] = useState<GeoJobView | null>(jobOf(row));
  const [status, setStatus] = useState(Number(row.status));
  useEffect(() => {
    setJob(jobOf(row));
    setStatus(Number(row.status));
  }, [row]);
  useOrderWatch(Number(row.id), status === ORDER_STATUS.biteRegistration, (info) => {
    setJob(jobOf(info));
    if (Number(info.status) !== ORDER_STATUS.biteRegistration) {
      setStatus(Number(info.status));
      ended();
    }
  });
  const failed = job?.state === 'failed';
  if (status !== ORDER_STATUS.biteRegistration && !failed) return <span className="text-slate-400">—</span>;
  return (
    <span
      className={`block max-w-56 truncate text-xs ${failed ? 'text-red-700' : 'text-violet-700'}`}
      title={text(job)}
      data-testid="bite-job-cell"
      data-state={job?.state ?? ''}
    >
      {text(job)}
    </span>
  );
}

const aiJobOf = (row: Row): GeoJobView | null => {
  const job = row.aiJob as GeoJobView | null | undefined;
  return job && typeof job === 'object' && typeof job.state === 'string' ? job : null;
};
const aiRunning = (status: number) => status === AI_STATUS.submitted || status === AI_STATUS.processing;

/**
 * The list's AI status cell: the status tag, the automatic design's progress while it is
 * submitted or processing (asked again like the bite cell; `ended` refreshes the list), and the
 * reason when it failed.
 */
export function AiStatusCell({ row, options, ended }: { row: Row; options: Option[]; ended: () => void }) {
  const { t } = useLingui();
  const [status, setStatus] = useState(Number(row.aiStatus));
  const [job, setJob] = useState<GeoJobView | null>(aiJobOf(row));
  useEffect(() => {
    setStatus(Number(row.aiStatus));
    setJob(aiJobOf(row));
  }, [row]);
  useOrderWatch(Number(row.id), aiRunning(status), (info) => {
    setJob(aiJobOf(info));
    setStatus(Number(info.aiStatus));
    if (!aiRunning(Number(info.aiStatus))) ended();
  });
  const percent = formatNumber((job?.progress ?? 0) * 100);
  const error = typeof row.aiError === 'string' ? row.aiError : '';
  return (
    <span className="flex flex-col gap-0.5" data-testid="ai-status-cell" data-status={status}>
      <Tag option={options.find((o) => o.value === status)} value={status} testId="ai-status-tag" />
      {status === AI_STATUS.processing && <span className="text-xs text-violet-700">{t`Designing ${percent}%`}</span>}
      {status === AI_STATUS.fail && error && (
        <span className="block max-w-40 truncate text-xs text-red-700" title={error}>
          {error}
        </span>
      )}
    </span>
  );
}

/** The form's status part (update and info): status and AI status, the bite job, and the history. */
export function OrderStatusHistory({ form }: { form: Row }) {
  const { t } = useLingui();
  const { order: statuses, ai } = useStatusOptions();
  const text = useJobText();
  const [history, setHistory] = useState<OrderStatusChange[] | null>(null);
  const [failed, setFailed] = useState(false);
  const id = Number(form.id);
  useEffect(() => {
    if (!id) return undefined;
    const abort = new AbortController();
    // Oldest first, whatever order the server sends.
    orderHistory(id, abort.signal).then((rows) => setHistory([...rows].sort((a, b) => a.createTime.localeCompare(b.createTime))), () => !abort.signal.aborted && setFailed(true));
    return () => abort.abort();
  }, [id]);
  const label = (status: number | null) => (status === null ? '—' : (statuses.find((s) => s.value === status)?.label ?? String(status)));
  const reasons: Record<string, string> = {
    created: t`Created`,
    models: t`Models saved`,
    bite: t`Bite registration ended`,
    submit: t`Submitted`,
    reopen: t`Reopened`,
    bent: t`Bent on a machine`,
    designer: t`Designer changed`,
  };
  const job = jobOf(form);
  return (
    <div className="flex flex-col gap-2" data-testid="order-status-history">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Tag option={statuses.find((s) => s.value === Number(form.status))} value={form.status} testId="order-form-status" />
        <span className="text-xs text-slate-500">{t`AI status`}</span>
        <Tag option={ai.find((s) => s.value === Number(form.aiStatus))} value={form.aiStatus} testId="order-form-ai-status" />
        {Number(form.aiStatus) === AI_STATUS.fail && typeof form.aiError === 'string' && <span className="text-xs text-red-700">{form.aiError}</span>}
        {job && (Number(form.status) === ORDER_STATUS.biteRegistration || job.state === 'failed') && (
          <span className={`text-xs ${job.state === 'failed' ? 'text-red-700' : 'text-violet-700'}`}>{text(job)}</span>
        )}
      </div>
      {failed && <p className="text-xs text-red-700">{t`The status history could not be loaded.`}</p>}
      {history && history.length > 0 && (
        <ol className="flex flex-col gap-0.5 border-l-2 border-slate-200 pl-3 text-xs text-slate-600" aria-label={t`Status history`}>
          {history.map((h, i) => {
            const who = h.userName ?? t`System`;
            return (
              <li key={i} data-testid="order-history-row" data-to={h.toStatus}>
                <span className="tabular-nums text-slate-500">{h.createTime.slice(0, 16)}</span> · {label(h.fromStatus)} → <span className="font-medium">{label(h.toStatus)}</span> ·{' '}
                {reasons[h.reason] ?? h.reason} · {who}
                {h.detail && <span className="block text-red-700">{h.detail}</span>}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
