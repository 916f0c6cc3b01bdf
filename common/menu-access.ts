// Which menu pages a user can use. A page (menu type 1) whose permission entries (type 2 children)
// load a list is only usable with one of those permissions: a role granted some other right of the
// page (the editor's "Editor devices" under "Device list") must not see a menu entry that then
// answers "You do not have permission to view this list". Shared by the server's permmenu and the
// client's menu builder, so both draw the same line.

/** `a:b:c` permissions of one comma-separated menu `perms` value. */
export function splitPerms(perms: string | null | undefined): string[] {
  return (perms ?? '')
    .split(',')
    .map((p) => p.replace(/\s+/g, ''))
    .filter(Boolean);
}

/**
 * The permissions that open a page, from the perms of its permission entries: the list screens'
 * `…:page` calls, else `…:list`. Empty when the page loads no list (data board, help document):
 * such a page is usable whenever any of its entries is granted.
 */
function pageGate(childPerms: Iterable<string>): string[] {
  const all = [...childPerms];
  const page = all.filter((p) => p.endsWith(':page'));
  return page.length ? page : all.filter((p) => p.endsWith(':list'));
}

/** A page with these permission entries can be used by someone holding `held`. */
function pageUsable(childPerms: Iterable<string>, held: (perm: string) => boolean): boolean {
  const gate = pageGate(childPerms);
  return gate.length === 0 || gate.some(held);
}

interface MenuLike {
  id: number;
  parentId?: number | null;
  type: number;
  perms?: string | null;
}

/** Ids of the pages (type 1) among `menus` that `held` cannot use (see pageUsable). */
export function unusablePages(menus: readonly MenuLike[], held: (perm: string) => boolean): Set<number> {
  const childPerms = new Map<number, string[]>();
  for (const m of menus) {
    if (m.type !== 2 || m.parentId == null) continue;
    const list = childPerms.get(m.parentId) ?? [];
    list.push(...splitPerms(m.perms));
    childPerms.set(m.parentId, list);
  }
  const out = new Set<number>();
  for (const m of menus) if (m.type === 1 && !pageUsable(childPerms.get(m.id) ?? [], held)) out.add(m.id);
  return out;
}
