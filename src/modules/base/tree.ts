/** Flat rows with id/parentId/orderNum (departments, menus) as trees, in tree order, and subtrees. */
import type { Row } from '../../kit/index.ts';

export interface TreeRow extends Row {
  id: number;
  parentId: number | null;
}

/** Children by parent id; a row whose parent is missing counts as a root (key null). */
export function childrenOf<R extends TreeRow>(rows: readonly R[]): Map<number | null, R[]> {
  const ids = new Set(rows.map((r) => r.id));
  const map = new Map<number | null, R[]>();
  for (const r of rows) {
    const parent = r.parentId !== null && ids.has(r.parentId) ? r.parentId : null;
    const list = map.get(parent);
    if (list) list.push(r);
    else map.set(parent, [r]);
  }
  for (const list of map.values()) list.sort((a, b) => Number(a.orderNum ?? 0) - Number(b.orderNum ?? 0) || a.id - b.id);
  return map;
}

/** Parents before their children, siblings by orderNum, each with its `_depth`. */
export function treeOrder<R extends TreeRow>(rows: readonly R[]): (R & { _depth: number })[] {
  const children = childrenOf(rows);
  const out: (R & { _depth: number })[] = [];
  const walk = (parent: number | null, depth: number) => {
    for (const c of children.get(parent) ?? []) {
      out.push({ ...c, _depth: depth });
      walk(c.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** The given ids and every row below them. */
export function withDescendants(rows: readonly TreeRow[], ids: Iterable<number>): number[] {
  const children = childrenOf(rows);
  const seen = new Set<number>();
  const stack = [...ids];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const c of children.get(id) ?? []) stack.push(c.id);
  }
  return [...seen];
}
