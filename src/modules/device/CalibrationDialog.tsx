/** Calibration of one device: a springback table per supported wire diameter, and the tables it replaced. */
import { useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { request } from '../../api/client.ts';
import { CrudPage, createService, type CrudHandle, type FormItem, type Row, type TableColumn } from '../../kit/index.ts';
import { hasPerm } from '../../app/store.ts';
import { ConfigHistory } from './ConfigHistory.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { tableToText, textToTable } from './springback.ts';
import type { DeviceConfigAddRequest } from '../../../common/device-request.ts';

const PREFIX = '/admin/device/config';

export function CalibrationDialog({ device, onClose }: { device: Row | null; onClose: () => void }) {
  const { t } = useLingui();
  const crud = useRef<CrudHandle>(null);
  // Bumped after every save: the table it replaced shows in the history.
  const [version, setVersion] = useState(0);
  const diameters = String(device?.diameters ?? '').split(',').filter(Boolean).map(Number);
  const columns: TableColumn[] = [
    { prop: 'diameter', label: t`Wire diameter (mm)`, sortable: true, width: 160 },
    { prop: 'springback', label: t`Rows`, width: 90, render: (r) => (Array.isArray(r.springback) ? r.springback.length : 0) },
    { prop: 'updateTime', label: t`Updated`, width: 170 },
  ];
  const items: FormItem[] = [
    { prop: 'diameter', label: t`Wire diameter (mm)`, type: 'select', required: true, options: diameters.map((d) => ({ label: String(d), value: d })) },
    {
      prop: 'springback',
      label: t`Springback`,
      type: 'custom',
      required: true,
      validate: (v) => {
        const rows = textToTable(Array.isArray(v) ? tableToText(v) : String(v ?? ''));
        if (!rows || rows.length === 0) return t`One "angle, springback" pair per line, in degrees`;
        return rows.every((r, i) => i === 0 || r[0] > rows[i - 1]![0]) ? null : t`Angles must rise from line to line`;
      },
      render: ({ id, value, onChange, disabled, invalid }) => (
        <textarea
          id={id}
          rows={8}
          disabled={disabled}
          aria-invalid={invalid || undefined}
          className="aw-input h-auto py-2 font-mono text-xs"
          placeholder={'0, 0\n45, 2.5\n90, 4.1'}
          value={Array.isArray(value) ? tableToText(value) : String(value ?? '')}
          onChange={(e) => onChange(e.target.value)}
        />
      ),
    },
    { prop: 'remark', label: t`Remark`, type: 'textarea' },
  ];
  const onSubmit = async (data: Row, mode: string) => {
    const springback = Array.isArray(data.springback) ? data.springback : textToTable(String(data.springback ?? ''));
    // The form gives diameter and remark; the table and the device are added here (an update
    // ignores deviceId: a table stays with its device).
    const added = { springback, deviceId: device?.id } satisfies Pick<DeviceConfigAddRequest, 'springback' | 'deviceId'>;
    const body = { ...data, ...added };
    await request({ url: `${PREFIX}/${mode === 'add' ? 'add' : 'update'}`, method: 'POST', data: body });
    setVersion((v) => v + 1);
  };
  return (
    <Modal open={device !== null} title={t`Calibration of ${String(device?.devicename ?? '')}`} onClose={onClose} width="820px">
      {device && (
        <CrudPage ref={crud} service={createService(PREFIX)} urlState={false} query={{ deviceId: device.id }} columns={columns} items={items} keyword={false} dialog={{ onSubmit, width: '560px' }} />
      )}
      {device && hasPerm('device:config:history') && <ConfigHistory deviceId={Number(device.id)} version={version} onRestored={() => crud.current?.refresh()} />}
    </Modal>
  );
}
