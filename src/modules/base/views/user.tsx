/**
 * Users: the department tree on the left (picking one lists its subtree's users), the user table on
 * the right with moving users to another department, xlsx import (bad rows reported) and export.
 */
import { useEffect, useRef, useState } from 'react';
import { Dialog } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { CrudPage, toTree, Field, type CrudHandle, type FormItem, type Option, type TableColumn } from '../../../kit/index.ts';
import { request } from '../../../api/client.ts';
import { hasPerm } from '../../../app/store.ts';
import { Icon } from '../../../ui/icons.tsx';
import { toast } from '../../../ui/toast.tsx';
import { DepartmentPanel } from '../DepartmentPanel.tsx';
import { useTreeRows } from '../useTreeRows.ts';

const PREFIX = '/admin/base/sys/user';

export default function UserList() {
  const { t } = useLingui();
  const [departments, reloadDepartments] = useTreeRows('/admin/base/sys/department');
  const [departmentId, setDepartmentId] = useState<number | null>(null);
  const [roles, setRoles] = useState<Option[]>([]);
  const [moving, setMoving] = useState<(number | string)[] | null>(null);
  const crud = useRef<CrudHandle>(null);

  useEffect(() => {
    if (!hasPerm('base:sys:role:list')) return;
    request<{ id: number; label: string; name: string }[]>({ url: '/admin/base/sys/role/list', method: 'POST', data: {} }).then(
      (list) => setRoles(list.map((r) => ({ label: r.label || r.name, value: r.id }))),
      () => undefined,
    );
  }, []);

  const status: Option[] = [
    { label: t`Enabled`, value: 1, color: '#16a34a' },
    { label: t`Disabled`, value: 0, color: '#dc2626' },
  ];
  const departmentTree = toTree(departments);
  const columns: TableColumn[] = [
    { prop: 'username', label: t`Username`, sortable: true, minWidth: 130 },
    { prop: 'name', label: t`Full name`, sortable: true, minWidth: 110 },
    { prop: 'nickName', label: t`Nickname`, minWidth: 110 },
    { prop: 'departmentName', label: t`Department`, minWidth: 120 },
    { prop: 'roleName', label: t`Roles`, minWidth: 140 },
    { prop: 'phone', label: t`Phone`, minWidth: 120 },
    { prop: 'status', label: t`Status`, dict: status, width: 90 },
    { prop: 'createTime', label: t`Created`, sortable: true, width: 170 },
  ];
  const items: FormItem[] = [
    { prop: 'username', label: t`Username`, required: true, span: 12 },
    // A new user needs a password (marked required); an edit keeps the old one when left empty.
    {
      prop: 'password',
      label: t`Password`,
      type: 'password',
      span: 12,
      required: true,
      hidden: ({ mode }) => mode !== 'add',
      validate: (v) => (typeof v === 'string' && v.length < 6 ? t`At least 6 characters` : null),
    },
    {
      prop: 'password',
      label: t`Password`,
      type: 'password',
      span: 12,
      placeholder: t`Leave empty to keep`,
      hidden: ({ mode }) => mode === 'add',
      validate: (v) => (typeof v === 'string' && v !== '' && v.length < 6 ? t`At least 6 characters` : null),
    },
    { prop: 'name', label: t`Full name`, span: 12 },
    { prop: 'nickName', label: t`Nickname`, span: 12 },
    { prop: 'departmentId', label: t`Department`, type: 'treeSelect', tree: departmentTree, span: 12 },
    { prop: 'roleIdList', label: t`Roles`, type: 'select', multiple: true, options: roles, span: 12, value: [] },
    { prop: 'phone', label: t`Phone`, span: 12 },
    { prop: 'email', label: t`Email`, span: 12 },
    { prop: 'status', label: t`Status`, type: 'radio', options: status, value: 1 },
    { prop: 'remark', label: t`Remark`, type: 'textarea' },
  ];

  const query = departmentId === null ? {} : { departmentId };

  return (
    <div className="flex min-h-full flex-col gap-3 p-3 sm:p-4 md:flex-row">
      {hasPerm('base:sys:department:list') && (
        <DepartmentPanel rows={departments} current={departmentId} onPick={setDepartmentId} onChanged={() => { reloadDepartments(); crud.current?.refresh(); }} />
      )}
      <section className="min-w-0 flex-1 [&>div]:p-0 sm:[&>div]:p-0" aria-label={t`Users`}>
        <CrudPage
          ref={crud}
          service={PREFIX}
          columns={columns}
          items={items}
          query={query}
          search={[{ prop: 'status', label: t`Status`, type: 'select', options: status }]}
          dialog={{ onInfo: (r) => ({ ...r, password: '' }) }}
          excel={{ file: 'users' }}
          toolbar={
            <>
              {hasPerm('base:sys:user:move') && (
                <button type="button" className="aw-btn-default" onClick={() => {
                  const ids = crud.current?.selected() ?? [];
                  if (ids.length === 0) toast.error(t`Select the users to move first`);
                  else setMoving(ids);
                }}>
                  <Icon name="users" className="size-4" />
                  {t`Move to department`}
                </button>
              )}
            </>
          }
        />
      </section>
      <MoveDialog
        ids={moving}
        tree={departmentTree}
        onClose={() => setMoving(null)}
        onMoved={() => { setMoving(null); crud.current?.refresh(); }}
      />
    </div>
  );
}

function MoveDialog({ ids, tree, onClose, onMoved }: { ids: (number | string)[] | null; tree: ReturnType<typeof toTree>; onClose: () => void; onMoved: () => void }) {
  const { t } = useLingui();
  const [target, setTarget] = useState<unknown>(undefined);
  const [saving, setSaving] = useState(false);
  const count = ids?.length ?? 0;
  async function save() {
    setSaving(true);
    try {
      await request({ url: `${PREFIX}/move`, method: 'POST', data: { userIds: ids, departmentId: target ?? null } });
      toast.success(t`Save successful`);
      onMoved();
    } finally {
      setSaving(false);
    }
  }
  return (
    <Dialog.Root open={ids !== null} onOpenChange={(o) => { if (!o) { setTarget(undefined); onClose(); } }}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(94vw,440px)] -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white shadow-2xl" onPointerDownOutside={(e) => e.preventDefault()}>
          <div className="flex items-center justify-between border-b border-slate-200 px-5 py-3">
            <Dialog.Title className="font-semibold text-slate-800">{t`Move to department`}</Dialog.Title>
            <Dialog.Close className="aw-btn-icon" aria-label={t`Close`}>
              <Icon name="x" className="size-4" />
            </Dialog.Close>
          </div>
          <div className="space-y-3 px-5 py-4">
            <Dialog.Description className="text-sm text-slate-600">{t`Move ${count} selected users to:`}</Dialog.Description>
            <Field item={{ prop: 'departmentId', label: t`Department`, type: 'treeSelect', tree }} id="move-department" value={target} onChange={setTarget} mode="add" form={{}} disabled={false} invalid={false} />
          </div>
          <div className="flex justify-end gap-2 border-t border-slate-200 px-5 py-3">
            <Dialog.Close className="aw-btn-default">{t`Cancel`}</Dialog.Close>
            <button type="button" className="aw-btn-primary" disabled={saving || target === undefined} onClick={() => void save().catch(() => undefined)}>
              {t`Save`}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
