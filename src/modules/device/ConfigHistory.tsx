/** The springback tables a device's calibration replaced (by the form, its calibration app or a restore), newest first, each restorable. */
import { useCallback, useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { request } from '../../api/client.ts';
import { hasPerm } from '../../app/store.ts';
import { toast } from '../../ui/toast.tsx';
import { formatNumber } from '../../i18n/format.ts';
import type { ConfigHistoryRequest, ConfigRestoreRequest } from '../../../common/device-request.ts';

interface Kept {
  id: number;
  diameter: number;
  springback: [number, number][];
  replacedBy: string;
  createTime: string;
}

const REPLACED_BY: Record<string, MessageDescriptor> = {
  form: msg`Replaced in the back office`,
  calibration: msg`Replaced by the machine's calibration`,
  restore: msg`Replaced by a restore`,
};

export function ConfigHistory({ deviceId, version, onRestored }: { deviceId: number; version: number; onRestored: () => void }) {
  const { t, i18n } = useLingui();
  const [rows, setRows] = useState<Kept[] | null>(null);
  const load = useCallback(() => {
    request<Kept[]>({ url: '/admin/device/config/history', params: { deviceId } satisfies ConfigHistoryRequest, silent: true }).then(setRows, () => setRows([]));
  }, [deviceId]);
  useEffect(load, [load, version]);

  const restore = async (row: Kept) => {
    await request({ url: '/admin/device/config/restore', method: 'POST', data: { historyId: row.id } satisfies ConfigRestoreRequest });
    toast.success(t`Restored`);
    load();
    onRestored();
  };

  return (
    <section aria-label={t`Previous tables`} className="mt-4">
      <h3 className="mb-2 text-sm font-medium text-slate-700">{t`Previous tables`}</h3>
      {rows !== null && rows.length === 0 && <p className="text-xs text-slate-500">{t`No table has been replaced yet.`}</p>}
      {rows !== null && rows.length > 0 && (
        <table className="w-full text-xs" data-testid="config-history">
          <thead className="text-left text-slate-500">
            <tr>
              <th className="py-1 font-normal">{t`Wire diameter (mm)`}</th>
              <th className="py-1 font-normal">{t`Rows`}</th>
              <th className="py-1 font-normal">{t`Replaced`}</th>
              <th className="py-1 font-normal">{t`Time`}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} className="border-t border-slate-100">
                <td className="py-1">{formatNumber(r.diameter, { min: 1, max: 2 }, i18n.locale)}</td>
                <td className="py-1">{r.springback.length}</td>
                <td className="py-1">{REPLACED_BY[r.replacedBy] ? i18n._(REPLACED_BY[r.replacedBy]!) : r.replacedBy}</td>
                <td className="py-1">{r.createTime}</td>
                <td className="py-1 text-right">
                  {hasPerm('device:config:restore') && (
                    <button type="button" className="text-primary hover:underline" onClick={() => void restore(r).catch(() => undefined)}>
                      {t`Restore`}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
