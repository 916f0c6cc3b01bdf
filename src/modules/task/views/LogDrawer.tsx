/** The run log of one task in a drawer from the right: time, result, trigger, duration, detail. */
import { useLingui } from '@lingui/react/macro';
import { PagedDrawer, useConfirm, usePagedEntries } from '../../../kit/index.ts';
import { request } from '../../../api/client.ts';
import { hasPerm } from '../../../app/store.ts';
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

export function LogDrawer({ task, onClose }: { task: { id: number; name: string } | null; onClose: () => void }) {
  const { t } = useLingui();
  const list = usePagedEntries<TaskRun>('/admin/task/info/log', task?.id ?? null);
  const [confirm, confirmDialog] = useConfirm();

  async function clearAll() {
    if (!task) return;
    if (!(await confirm({ message: t`Delete every run of this task from the log?`, danger: true }))) return;
    await request({ url: '/admin/task/info/deleteLogAll', method: 'POST', data: { id: task.id } });
    toast.success(t`Delete successful`);
    list.reload(1);
  }

  const taskName = task?.name ?? '';
  return (
    <PagedDrawer
      open={task !== null}
      onClose={onClose}
      title={t`Run log: ${taskName}`}
      testId="task-log-drawer"
      widthClass="md:w-[40%]"
      list={list}
      emptyText={t`No runs yet`}
      actions={
        hasPerm('task:info:deleteLogAll') && (
          <button type="button" className="aw-btn-default h-8 text-red-600" disabled={list.total === 0} onClick={() => void clearAll().catch(() => undefined)}>
            {t`Clear log`}
          </button>
        )
      }
      extra={confirmDialog}
    >
      {list.rows.map((run) => (
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
    </PagedDrawer>
  );
}
