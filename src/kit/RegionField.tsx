/**
 * Province, city and district: a cascading picker (three columns) with a search over all full
 * paths. The value is `{ codes, names }` (common/region.ts); the division data loads on first open.
 */
import { useEffect, useMemo, useState } from 'react';
import { Popover } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import type { RegionNode, RegionValue } from '../../common/region.ts';
import { usePluginSettings } from '../app/plugins.ts';
import { Icon } from '../ui/icons.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { asRegion, loadRegions, regionLabel, regionPaths } from './region.ts';

export interface RegionFieldProps {
  id: string;
  value: unknown;
  onChange: (value: RegionValue | undefined) => void;
  disabled?: boolean;
  invalid?: boolean;
  placeholder?: string;
}

/** Most search hits listed. */
const MAX_HITS = 50;
/** How deep a pick goes, by the region picker plugin's `level` setting. */
const DEPTH: Record<string, number> = { province: 1, city: 2, district: 3 };

export function RegionField({ id, value, onChange, disabled, invalid, placeholder }: RegionFieldProps) {
  const { t } = useLingui();
  const chosen = asRegion(value);
  const [open, setOpen] = useState(false);
  const [tree, setTree] = useState<RegionNode[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [path, setPath] = useState<RegionNode[]>([]);
  const [query, setQuery] = useState('');

  useEffect(() => {
    if (!open || tree) return;
    let live = true;
    loadRegions().then(
      (data) => live && setTree(data),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [open, tree]);

  // Opening starts at the chosen region's columns (also once the data has come, keeping what was typed meanwhile).
  useEffect(() => {
    if (!open || !tree) return;
    const nodes: RegionNode[] = [];
    let level: RegionNode[] | undefined = tree;
    for (const code of chosen?.codes ?? []) {
      const n: RegionNode | undefined = level?.find((x) => x.code === code);
      if (!n) break;
      nodes.push(n);
      level = n.children;
    }
    setPath(nodes.slice(0, -1));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, tree]);

  const level = usePluginSettings('regionPicker').level;
  const depthMax = (typeof level === 'string' && DEPTH[level]) || 3;
  const paths = useMemo(() => (tree ? regionPaths(tree, depthMax) : []), [tree, depthMax]);
  const q = query.trim();
  const hits = useMemo(() => (q ? paths.filter((p) => p.names.some((n) => n.includes(q)) || p.codes.at(-1) === q).slice(0, MAX_HITS) : []), [paths, q]);

  const openChange = (next: boolean) => {
    if (next) setQuery('');
    setOpen(next);
  };
  const pick = (v: RegionValue) => {
    onChange(v);
    setOpen(false);
  };
  const step = (depth: number, node: RegionNode) => {
    const next = [...path.slice(0, depth), node];
    if (node.children?.length && next.length < depthMax) setPath(next);
    else pick({ codes: next.map((n) => n.code), names: next.map((n) => n.name) });
  };
  const columns: { label: string; nodes: RegionNode[] }[] = tree
    ? [
        { label: t`Province`, nodes: tree },
        { label: t`City`, nodes: path[0]?.children ?? [] },
        { label: t`District`, nodes: path[1]?.children ?? [] },
      ].slice(0, depthMax)
    : [];

  return (
    <Popover.Root open={open} onOpenChange={openChange}>
      <div className="flex items-center gap-1">
        <Popover.Trigger id={id} disabled={disabled} aria-invalid={invalid || undefined} className="aw-input flex items-center justify-between gap-2 text-left disabled:cursor-not-allowed disabled:bg-slate-50" data-testid="region-trigger">
          <span className={`truncate ${chosen ? '' : 'text-slate-400'}`}>{chosen ? regionLabel(chosen) : (placeholder ?? t`Province / city / district`)}</span>
          <Icon name="chevronDown" className="size-3.5 shrink-0 opacity-60" />
        </Popover.Trigger>
        {chosen && !disabled && (
          <button type="button" className="aw-btn-icon size-8 shrink-0" aria-label={t`Clear`} title={t`Clear`} onClick={() => onChange(undefined)}>
            <Icon name="x" className="size-3.5" />
          </button>
        )}
      </div>
      <Popover.Portal>
        <Popover.Content align="start" sideOffset={4} className="aw-menu z-[60] w-[min(36rem,calc(100vw-1rem))] p-2" aria-label={t`Province / city / district`}>
          <input
            type="search"
            autoFocus
            className="aw-input mb-2"
            placeholder={t`Search a district or city`}
            aria-label={t`Search a district or city`}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          {failed ? (
            <p role="alert" className="px-2 py-1.5 text-sm text-red-600">{t`The region data could not be loaded`}</p>
          ) : !tree ? (
            <Spinner className="m-2 size-4" />
          ) : q ? (
            <ul role="listbox" aria-label={t`Search results`} className="max-h-72 overflow-auto">
              {hits.length === 0 && <li className="px-2.5 py-1.5 text-slate-400">{t`No data`}</li>}
              {hits.map((h) => (
                <li key={h.codes.join()}>
                  <button type="button" role="option" aria-selected={h.codes.join() === chosen?.codes.join()} className="w-full rounded-md px-2.5 py-1.5 text-left text-sm hover:bg-primary-light-9" onClick={() => pick(h)}>
                    {h.names.join(' / ')}
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <div className="grid gap-1" style={{ gridTemplateColumns: `repeat(${columns.length}, minmax(0, 1fr))` }}>
              {columns.map((col, depth) => (
                <ul key={col.label} role="listbox" aria-label={col.label} className="max-h-72 overflow-auto border-slate-100 not-first:border-l">
                  {col.nodes.map((n) => {
                    const active = path[depth]?.code === n.code || chosen?.codes[depth] === n.code;
                    return (
                      <li key={n.code}>
                        <button
                          type="button"
                          role="option"
                          aria-selected={active}
                          onClick={() => step(depth, n)}
                          className="flex w-full items-center justify-between gap-1 rounded-md px-2 py-1 text-left text-sm hover:bg-primary-light-9 aria-selected:font-medium aria-selected:text-primary"
                        >
                          <span className="truncate">{n.name}</span>
                          {n.children?.length && depth + 1 < depthMax ? <Icon name="chevronDown" className="size-3 shrink-0 -rotate-90 opacity-50" /> : null}
                        </button>
                      </li>
                    );
                  })}
                </ul>
              ))}
            </div>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
