/** Devices (wire-bending machines): keys shown once, bound users, calibration tables. */
import { useEffect, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { request } from '../../../api/client.ts';
import { hasPerm } from '../../../app/store.ts';
import { CrudPage, createService, useConfirm, type CrudHandle, type FormItem, type Option, type Row, type TableColumn } from '../../../kit/index.ts';
import { toast } from '../../../ui/toast.tsx';
import { KeyDialog } from '../KeyDialog.tsx';
import { BindDialog } from '../BindDialog.tsx';
import { CalibrationDialog } from '../CalibrationDialog.tsx';
import { DiameterPicker, diameterList, MAX_DIAMETER, MIN_DIAMETER } from '../DiameterPicker.tsx';
import { locationItems, withLocation } from '../../dashboard/location.ts';
import { formatNumber } from '../../../i18n/format.ts';
import { userLabel, type NamedUser } from '../../../app/users.ts';
import type { DeviceIdRequest } from '../../../../common/device-request.ts';
import { DEFAULT_DEVICE, DEFAULT_HEAD } from '../../../../common/bend-program.ts';
import { formHead, headToText } from '../head.ts';

const PREFIX = '/admin/device/info';

export default function DeviceList() {
  const { t, i18n } = useLingui();
  const crud = useRef<CrudHandle>(null);
  const [deviceKey, setDeviceKey] = useState<string | null>(null);
  const [bindOf, setBindOf] = useState<Row | null>(null);
  const [calibrationOf, setCalibrationOf] = useState<Row | null>(null);
  const [confirm, confirmDialog] = useConfirm();
  const [users, setUsers] = useState<Option[]>([]);
  useEffect(() => {
    // The owner picker needs the user list; without that permission the field stays hidden (asking
    // anyway would only be refused).
    if (!hasPerm('base:sys:user:list')) return;
    request<({ id: number } & NamedUser)[]>({ url: '/admin/base/sys/user/list', method: 'POST', data: {}, silent: true }).then(
      (list) => setUsers(list.map((u) => ({ label: userLabel(u), value: u.id }))),
      () => setUsers([]),
    );
  }, []);

  const status: Option[] = [
    { label: t`Online`, value: 1, color: '#16a34a' },
    { label: t`Offline`, value: 0, color: '#64748b' },
  ];
  const yesNo: Option[] = [
    { label: t`Yes`, value: 1, color: '#4165d7' },
    { label: t`No`, value: 0, color: '#64748b' },
  ];
  const columns: TableColumn[] = [
    { prop: 'devicename', label: t`Device name`, sortable: true, minWidth: 150 },
    { prop: 'status', label: t`Status`, dict: status, sortable: true, width: 100 },
    {
      prop: 'diameters',
      label: t`Wire diameters (mm)`,
      width: 170,
      render: (r) => String(r.diameters ?? '').split(',').filter(Boolean).map((d) => formatNumber(Number(d), { min: 1, max: 2 }, i18n.locale)).join(' / '),
    },
    { prop: 'memory', label: t`Program memory (steps)`, width: 170 },
    { prop: 'enableAI', label: t`AI equipment`, dict: yesNo, width: 120 },
    { prop: 'keyHint', label: t`Key`, width: 130, render: (r) => <span className="font-mono text-xs">{String(r.keyHint ?? '')}</span> },
  ];
  const items: FormItem[] = [
    { prop: 'devicename', label: t`Device name`, required: true, span: 12 },
    // No status field: online/offline is set by the device hub when a machine connects or drops.
    { prop: 'memory', label: t`Program memory (steps)`, type: 'number', required: true, min: 1, step: 1, value: DEFAULT_DEVICE.memory, span: 12 },
    {
      prop: 'diameters',
      label: t`Wire diameters (mm)`,
      type: 'custom',
      required: true,
      value: [...DEFAULT_DEVICE.diameters],
      hook: 'join', // sent as "0.7,0.8,0.9,1", as the server stores them
      render: ({ id, value, onChange, disabled }) => <DiameterPicker id={id} name={t`Wire diameters (mm)`} value={value} onChange={onChange} disabled={disabled} />,
      validate: (v) => {
        const list = diameterList(v);
        return list.length > 0 && list.every((d) => d >= MIN_DIAMETER && d <= MAX_DIAMETER) ? null : t`Choose at least one diameter from 0.1 to 5 mm`;
      },
    },
    {
      prop: 'dieRadius',
      label: t`Bend die radius (mm)`,
      type: 'number',
      required: true,
      min: 0.2,
      max: 20,
      step: 0.1,
      value: 1,
      span: 12,
    },
    { prop: 'enableAI', label: t`AI equipment`, type: 'switch', hook: 'booleanNumber', value: false, span: 12 },
    {
      // The boxes the collision check sweeps the wire against (editor, server, the machine's app).
      prop: 'head',
      label: t`Bending head (mm)`,
      type: 'custom',
      validate: (v) =>
        formHead(v) === undefined
          ? t`One box per line: min x, y, z, max x, y, z in mm (each min below its max, at most 16 boxes, none within 1 mm of the die); leave empty for the default head`
          : null,
      render: ({ id, value, onChange, disabled, invalid }) => (
        <textarea
          id={id}
          rows={3}
          disabled={disabled}
          aria-invalid={invalid || undefined}
          className="aw-input h-auto py-2 font-mono text-xs"
          placeholder={headToText(DEFAULT_HEAD)}
          value={Array.isArray(value) ? headToText(value) : String(value ?? '')}
          onChange={(e) => onChange(e.target.value)}
        />
      ),
    },
    // Only a devices admin names another user as owner (the server refuses it from anyone else).
    // A full row: names with their username ("Dora Designer (dora)") and German's "Bitte auswählen"
    // were clipped in half of one.
    { prop: 'personnelId', label: t`Owner`, type: 'select', options: users, hidden: () => users.length === 0 || !hasPerm('device:info:all') },
    { prop: 'remark', label: t`Remark`, type: 'textarea' },
    ...locationItems(i18n),
  ];
  const search: FormItem[] = [{ prop: 'status', label: t`Status`, type: 'select', options: status }];

  const onSubmit = async (form: Row, mode: string) => {
    // Empty: the default head (null), also to go back to it from a device's own.
    const data = { ...withLocation(form), head: formHead(form.head) ?? null };
    if (mode === 'add') {
      const reply = await request<{ id: number; deviceKey: string }>({ url: `${PREFIX}/add`, method: 'POST', data });
      setDeviceKey(reply.deviceKey);
    } else {
      await request({ url: `${PREFIX}/update`, method: 'POST', data });
    }
  };
  const resetKey = async (row: Row) => {
    const ok = await confirm({ message: t`The device stops working until the new key is entered in it. Reset the key?`, confirmLabel: t`Reset key` });
    if (!ok) return;
    const reply = await request<{ deviceKey: string }>({ url: `${PREFIX}/resetKey`, method: 'POST', data: { id: row.id } satisfies DeviceIdRequest });
    setDeviceKey(reply.deviceKey);
    toast.success(t`The key was reset`);
    crud.current?.refresh();
  };

  return (
    <>
      <CrudPage
        ref={crud}
        service={createService(PREFIX)}
        columns={columns}
        items={items}
        search={search}
        excel={{ file: 'devices', import: false }}
        dialog={{ onSubmit }}
        rowActions={[
          { label: t`Reset key`, onClick: (row) => void resetKey(row).catch(() => undefined), hidden: () => !hasPerm('device:info:resetKey') },
          { label: t`Users`, onClick: setBindOf, hidden: () => !hasPerm('device:info:userList') },
          { label: t`Calibration`, onClick: setCalibrationOf, hidden: () => !hasPerm('device:config:page') },
        ]}
      />
      <KeyDialog deviceKey={deviceKey} onClose={() => setDeviceKey(null)} />
      <BindDialog device={bindOf} onClose={() => setBindOf(null)} />
      <CalibrationDialog device={calibrationOf} onClose={() => setCalibrationOf(null)} />
      {confirmDialog}
    </>
  );
}
