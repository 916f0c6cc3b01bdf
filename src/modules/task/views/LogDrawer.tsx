/** The run log of one task in a drawer from the right: time, result, trigger, duration, detail. */
import { useCallback, useEffect, useState } from 'react';
import { Dialog } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { useConfirm } from '../../../kit/index.ts';
import { request } from '../../../api/client.ts';
import { hasPerm } from '../../../app/store.ts';
import { Icon } from '../../../ui/icons.tsx';
import { Spinner } from '../../../ui/Spinner.tsx';
import { toast } from '../../../ui/toast.tsx';

export interface TaskRun {
  id: number;
  taskId: number;
  status: number;
  trigger: 'schedule' | 'manual';
  timeMs: number;
  detail: string | null;
  createTime: string;
}

const SIZE = 20;

export function LogDrawer({ task, onClose }: { task: { id: number; name: string } | null; onClose: () => void }) {
  const { t } = useLingui();
  const [runs, setRuns] = useState<TaskRun[]>([]);
  const [page, setPage] = useState(1);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [confirm, confirmDialog] = useConfirm();

  const load = useCallback(
    async (id: number, p: number) => {
      setLoading(true);
      try {
        const reply = await request<{ list: TaskRun[]; pagination: { total: number } }>({ url: '/admin/task/info/log', params: { id, page: p, size: SIZE } });
        setRuns(reply.list);
        setTotal(reply.pagination.total);
      } catch {
        // The toast told the user.
      } finally {
        setLoading(false);
      }
    },
    [],
  );

  useEffect(() => {
    if (task) void load(task.id, page);
  }, [task, page, load]);
  useEffect(() => setPage(1), [task?.id]);

  async function clearAll() {
    if (!task) return;
    if (!(await confirm({ message: t`Delete every run of this task from the log?`, danger: true }))) return;
    await request({ url: '/admin/task/info/deleteLogAll', method: 'POST', data: { id: task.id } });
    toast.success(t`Delete successful`);
    setPage(1);
    void load(task.id, 1);
  }

  const pages = Math.max(1, Math.ceil(total / SIZE));
  const taskName = task?.name ?? '';
  return (
    <Dialog.Root open={task !== null} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/30" style={{ animation: 'aw-fade-in .15s' }} />
        <Dialog.Content
          aria-describedby={undefined}
          data-testid="task-log-drawer"
          style={{ animation: 'aw-drawer-in .2s ease-out' }}
          className="fixed inset-y-0 right-0 z-50 flex w-full flex-col bg-white shadow-2xl outline-none md:w-[40%] md:min-w-96"
        >
          <div className="flex h-12 shrink-0 items-center gap-2 border-b border-slate-100 pr-2 pl-5">
            <Dialog.Title className="flex-1 truncate text-base font-semibold text-slate-900">{t`Run log: ${taskName}`}</Dialog.Title>
            <button type="button" className="aw-btn-icon" aria-label={t`Refresh`} title={t`Refresh`} onClick={() => task && void load(task.id, page)}>
              <Icon name="refresh" className="size-4" />
            </button>
            <Dialog.Close className="aw-btn-icon" aria-label={t`Close`}>
              <Icon name="x" className="size-4" />
            </Dialog.Close>
          </div>
          <div className="flex-1 overflow-auto px-5 py-3">
            {loading && runs.length === 0 ? (
              <div className="flex justify-center py-10">
                <Spinner />
              </div>
            ) : runs.length === 0 ? (
              <p className="py-10 text-center text-sm text-slate-400">{t`No runs yet`}</p>
            ) : (
              <ol className="flex flex-col gap-2">
                {runs.map((run) => (
                  <li key={run.id} className="rounded-md border border-slate-200 px-3 py-2 text-sm" data-testid="task-run">
                    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                      <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${run.status === 1 ? 'bg-emerald-50 text-emerald-700' : 'bg-red-50 text-red-700'}`}>
                        {run.status === 1 ? t`Success` : t`Failed`}
                      </span>
                      <span className="text-slate-700 tabular-nums">{run.createTime}</span>
                      <span className="text-xs text-slate-500">{run.trigger === 'manual' ? t`Run by hand` : t`Scheduled`}</span>
                      <span className="ml-auto text-xs text-slate-500 tabular-nums">{`${run.timeMs} ms`}</span>
                    </div>
                    {run.detail && <pre className="mt-1.5 font-mono text-xs break-all whitespace-pre-wrap text-slate-600">{run.detail}</pre>}
                  </li>
                ))}
              </ol>
            )}
          </div>
          <div className="flex shrink-0 items-center gap-2 border-t border-slate-100 px-5 py-2.5 text-sm text-slate-600">
            {hasPerm('task:info:deleteLogAll') && (
              <button type="button" className="aw-btn-default h-8 text-red-600" disabled={total === 0} onClick={() => void clearAll().catch(() => undefined)}>
                {t`Clear log`}
              </button>
            )}
            <span className="ml-auto tabular-nums">{t`Total ${total}`}</span>
            <button type="button" className="aw-btn-default h-8" disabled={page <= 1} onClick={() => setPage(page - 1)} aria-label={t`Previous page`}>
              ‹
            </button>
            <span className="tabular-nums">
              {page} / {pages}
            </span>
            <button type="button" className="aw-btn-default h-8" disabled={page >= pages} onClick={() => setPage(page + 1)} aria-label={t`Next page`}>
              ›
            </button>
          </div>
          {confirmDialog}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
