/**
 * A select of one user's delivery addresses (the order form: the creator's), default first.
 * Without the list permission there is nothing to pick from, and the select says so.
 */
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { request } from '../../api/client.ts';
import { hasPerm } from '../../app/store.ts';
import { permPrefix, type Row } from '../../kit/index.ts';
import { ADDRESS_PREFIX, addressLabel } from './address.ts';

export interface AddressSelectProps {
  id: string;
  /** Whose addresses: undefined = the caller's own. */
  userId?: number | undefined;
  value: unknown;
  onChange: (value: number | null) => void;
  disabled?: boolean;
  invalid?: boolean;
}

export function AddressSelect({ id, userId, value, onChange, disabled, invalid }: AddressSelectProps) {
  const { t } = useLingui();
  const [rows, setRows] = useState<Row[] | null>(null);
  const allowed = hasPerm(`${permPrefix(ADDRESS_PREFIX)}:list`);
  useEffect(() => {
    if (!allowed) return;
    let live = true;
    request<Row[]>({ url: `${ADDRESS_PREFIX}/list`, method: 'POST', data: userId ? { userId } : {}, silent: true }).then(
      (list) => live && setRows(Array.isArray(list) ? list : []),
      () => live && setRows([]),
    );
    return () => {
      live = false;
    };
  }, [allowed, userId]);
  const current = value === null || value === undefined || value === '' ? '' : String(value);
  const list = rows ?? [];
  const empty = !allowed ? t`No addresses to choose from` : rows === null ? t`Loading` : list.length ? t`No delivery address` : t`No addresses yet: add one under Plugins, User address`;
  return (
    <select
      id={id}
      className="aw-input pr-8"
      disabled={disabled || !allowed}
      aria-invalid={invalid || undefined}
      value={current}
      onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
      data-testid="order-address"
    >
      <option value="">{empty}</option>
      {list.map((r) => (
        <option key={String(r.id)} value={String(r.id)}>
          {`${String(r.name)} · ${String(r.phone)} · ${addressLabel(r)}${r.isDefault ? ` (${t`default`})` : ''}`}
        </option>
      ))}
      {/* A chosen address not in the list (the caller may not list the creator's): kept as it is. */}
      {current && rows !== null && !list.some((r) => String(r.id) === current) && <option value={current}>#{current}</option>}
    </select>
  );
}
