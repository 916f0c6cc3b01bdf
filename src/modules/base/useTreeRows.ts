/** The rows of a tree resource's `list` (menus, departments), loaded when the user may read them. */
import { useCallback, useEffect, useState } from 'react';
import { request } from '../../api/client.ts';
import { hasPerm } from '../../app/store.ts';
import { permPrefix } from '../../kit/index.ts';
import type { TreeRow } from './tree.ts';

export function useTreeRows(prefix: string): [TreeRow[], () => void] {
  const [rows, setRows] = useState<TreeRow[]>([]);
  const load = useCallback(() => {
    // Without the permission the call would only be refused (an error toast): do not ask.
    if (!hasPerm(`${permPrefix(prefix)}:list`)) return;
    request<TreeRow[]>({ url: `${prefix}/list`, method: 'POST', data: {} }).then(setRows, () => undefined);
  }, [prefix]);
  useEffect(load, [load]);
  return [rows, load];
}
