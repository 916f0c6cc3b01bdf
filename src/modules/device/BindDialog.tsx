/** The users bound to a device: they see it and may send it work. */
import { useEffect, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { request } from '../../api/client.ts';
import { hasPerm } from '../../app/store.ts';
import type { Row } from '../../kit/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import { userLabel, userName, type NamedUser } from '../../app/users.ts';
import type { DeviceBindRequest, DeviceIdRequest } from '../../../common/device-request.ts';

interface UserRow extends NamedUser {
  id: number;
}

export function BindDialog({ device, onClose }: { device: Row | null; onClose: () => void }) {
  const { t } = useLingui();
  const [bound, setBound] = useState<UserRow[]>([]);
  const [users, setUsers] = useState<UserRow[]>([]);
  const [choice, setChoice] = useState('');
  const id = device?.id;

  // Only the newest reply counts: the first load, still on its way when a quick admin binds,
  // must not overwrite the list read after the binding (it showed an empty list for a moment).
  const latest = useRef(0);
  const load = () => {
    if (id === undefined) return;
    const ticket = ++latest.current;
    request<UserRow[]>({ url: '/admin/device/info/userList', params: { id: Number(id) } satisfies DeviceIdRequest }).then(
      (rows) => ticket === latest.current && setBound(rows),
      () => undefined,
    );
  };
  useEffect(() => {
    setBound([]);
    setChoice('');
    if (id === undefined) return;
    load();
    // Binding picks from the user list, a permission of its own (without it, a refusal toast).
    if (hasPerm('base:sys:user:list')) request<UserRow[]>({ url: '/admin/base/sys/user/list', method: 'POST', data: {}, silent: true }).then(setUsers, () => setUsers([]));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reload per device
  }, [id]);

  const call = async (action: 'bind' | 'unbind', userId: number) => {
    await request({ url: `/admin/device/info/${action}`, method: 'POST', data: { id, userIds: [userId] } satisfies DeviceBindRequest });
    load();
  };
  const canBind = hasPerm('device:info:bind');
  const free = users.filter((u) => !bound.some((b) => b.id === u.id));

  return (
    <Modal open={device !== null} title={t`Users of ${String(device?.devicename ?? '')}`} onClose={onClose} width="520px">
      {canBind && (
        <div className="mb-4 flex gap-2">
          <select className="aw-input flex-1" aria-label={t`User`} value={choice} onChange={(e) => setChoice(e.target.value)}>
            <option value="">{t`Choose a user…`}</option>
            {free.map((u) => (
              <option key={u.id} value={u.id}>
                {userLabel(u)}
              </option>
            ))}
          </select>
          <button type="button" className="aw-btn h-9 bg-primary px-3 text-white hover:bg-primary-dark disabled:opacity-50" disabled={!choice} onClick={() => void call('bind', Number(choice)).then(() => setChoice(''), () => undefined)}>
            {t`Bind`}
          </button>
        </div>
      )}
      {bound.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">{t`No users are bound to this device.`}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded border border-slate-200">
          {bound.map((u) => (
            <li key={u.id} className="flex items-center gap-3 px-3 py-2 text-sm">
              <span className="flex-1 text-slate-800">{userName(u)}</span>
              <span className="text-xs text-slate-500">{u.username}</span>
              {canBind && (
                <button type="button" className="text-xs text-red-600 hover:underline" onClick={() => void call('unbind', u.id).catch(() => undefined)}>
                  {t`Unbind`}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
