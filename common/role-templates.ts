// Starting points for a role's menus and permissions, one per kind of user of the product
// (spec: manufacturers, designers, administrators). A template names pages by their router and
// the permission entries under them by their seeded (English) names, so it applies to any
// database seeded from server/db/seed-menus.ts, whatever the ids; entries an administrator
// deleted are simply left out. The role form offers them ("Start from"); the result is a normal
// list of menu ids that can be edited further before saving.

export type RoleKind = 'designer' | 'manufacturer' | 'administrator';

export const ROLE_KINDS: readonly RoleKind[] = ['designer', 'manufacturer', 'administrator'];

/** Per page router: the names of its permission entries to grant, or '*' for all of them. */
type Template = Record<string, readonly string[] | '*'>;

const TEMPLATES: Record<Exclude<RoleKind, 'administrator'>, Template> = {
  // Designs the orders given to them: the order list (no adding or deleting) with its history,
  // the editor and its order calls (submit, bite, switcher...), its bending machines, and the help.
  designer: {
    '/order/list': ['Query', 'Update', 'Design', 'Bend', 'Order history', 'Design orders', 'Order teeth', 'AI design'],
    '/order/time': '*',
    '/device/list': ['Editor devices'],
    '/help/doc': '*',
  },
  // Runs a lab: orders (their history, remakes, designers), machines and their interface, files,
  // and the data board.
  manufacturer: {
    '/dashboard': '*',
    '/order/list': ['Add', 'Delete', 'Update', 'Query', 'Retry AI', 'Order history', 'Assign designer', 'Design orders', 'Order teeth', 'AI design'],
    '/order/time': '*',
    '/device/list': ['Add', 'Delete', 'Update', 'Query', 'Config', 'Reset key', 'Bind users', 'Editor devices'],
    '/device/api-config': '*',
    '/space/list': ['Delete', 'Update', 'Query', 'Folders', 'Add to folder'],
    '/help/doc': '*',
  },
};

interface MenuRow {
  id: number;
  parentId: number | null;
  type: number;
  name: string;
  router?: string | null;
}

/** The menu ids a role of this kind starts with (pages and their permission entries). */
export function templateMenuIds(kind: RoleKind, menus: readonly MenuRow[]): number[] {
  if (kind === 'administrator') return menus.map((m) => m.id).sort((a, b) => a - b);
  const template = TEMPLATES[kind];
  const ids = new Set<number>();
  for (const page of menus) {
    const wanted = page.type === 1 && page.router ? template[page.router] : undefined;
    if (!wanted) continue;
    ids.add(page.id);
    for (const entry of menus) {
      if (entry.parentId !== page.id || entry.type !== 2) continue;
      if (wanted === '*' || wanted.includes(entry.name.trim())) ids.add(entry.id);
    }
  }
  return [...ids].sort((a, b) => a - b);
}
