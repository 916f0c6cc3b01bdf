/**
 * The role form's "Menus and permissions": the menu tree with each entry's name in the user's
 * language, grouped as the sidebar groups them, a starting point per kind of user (designer,
 * manufacturer, administrator: common/role-templates.ts) and, for those who need them, the
 * permission identifiers each entry grants.
 */
import { useId, useState } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { ROLE_KINDS, templateMenuIds, type RoleKind } from '../../../common/role-templates.ts';
import { CheckTree } from './CheckTree.tsx';
import { entryLabel } from './names.ts';
import type { TreeRow } from './tree.ts';

const KIND_NAMES: Record<RoleKind, MessageDescriptor> = {
  designer: msg`Designer`,
  manufacturer: msg`Manufacturer`,
  administrator: msg`Administrator`,
};

export interface RolePermissionsProps {
  menus: readonly TreeRow[];
  value: readonly number[];
  onChange: (ids: number[]) => void;
  disabled?: boolean;
}

export function RolePermissions({ menus, value, onChange, disabled }: RolePermissionsProps) {
  const { t, i18n } = useLingui();
  const [showIds, setShowIds] = useState(false);
  const startId = useId();
  const rows = menus.map((r) => ({ ...r, parentId: r.parentId ?? null, type: Number(r.type), name: String(r.name) }));
  return (
    <div className="space-y-2">
      <p className="text-xs text-slate-500">
        {t`Check a page to grant it with all its rights, or open it and check single rights. A page appears in the menu when its "Query" right is granted.`}
      </p>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <label htmlFor={startId} className="flex items-center gap-2 text-sm text-slate-700">
          <span className="shrink-0">{t`Start from`}</span>
          <select
            id={startId}
            className="aw-input h-8 w-auto min-w-40 pr-8"
            value=""
            disabled={disabled || rows.length === 0}
            onChange={(e) => {
              const kind = e.target.value as RoleKind;
              if (kind) onChange(templateMenuIds(kind, rows));
            }}
          >
            <option value="">{t`A user kind…`}</option>
            {ROLE_KINDS.map((k) => (
              <option key={k} value={k}>
                {i18n._(KIND_NAMES[k])}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-xs text-slate-500">
          <input type="checkbox" className="size-3.5 accent-primary" checked={showIds} onChange={(e) => setShowIds(e.target.checked)} />
          {t`Show permission identifiers`}
        </label>
      </div>
      <CheckTree
        name={t`Menus and permissions`}
        rows={menus}
        value={value}
        onChange={onChange}
        disabled={disabled}
        label={(r) => entryLabel(i18n, String(r.name), Number(r.type))}
        hint={(r) => (showIds && Number(r.type) === 2 ? String(r.perms ?? '') : null)}
        title={(r) => (Number(r.type) === 2 ? String(r.perms ?? '') : null)}
      />
    </div>
  );
}
