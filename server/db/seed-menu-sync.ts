// Applies the seeded menu (seed-menus.ts) to the database, each entry once.
//
// Every seed entry has a stable key (pages by router, permission entries by their perms under
// their parent, groups by their name path). An entry whose key is recorded in base_sys_seed is
// never inserted again, so an entry an admin deleted stays deleted. An unrecorded entry is
// matched to an existing menu row (databases seeded before keys were recorded) or inserted.
// Children of an entry the admin deleted are skipped: they would have nowhere to go.
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { MenuSeed } from './seed-menus.ts';

type Trx = Kysely<Database>;

export function seedKey(item: MenuSeed, parentKey: string): string {
  if (item.type === 1 && item.router) return `page:${item.router}`;
  if (item.type === 2 && item.perms) return `perm:${parentKey}:${item.perms}`;
  return `group:${parentKey}/${item.name}`;
}

interface MenuRow {
  id: number;
  parentId: number | null;
  name: string;
  type: number;
  router: string | null;
  perms: string | null;
}

function sameEntry(row: MenuRow, item: MenuSeed): boolean {
  if (row.type !== item.type) return false;
  if (item.type === 1 && item.router) return row.router === item.router;
  if (item.type === 2 && item.perms) return row.perms === item.perms;
  return row.name === item.name;
}

/** Returns how many menu rows were inserted. Run inside a transaction. */
export async function syncSeedMenus(trx: Trx, seeds: readonly MenuSeed[], now: string): Promise<number> {
  const applied = new Map(
    (await trx.selectFrom('base_sys_seed').select(['key', 'menuId']).execute()).map((r) => [r.key, r.menuId]),
  );
  const rows = (await trx
    .selectFrom('base_sys_menu')
    .select(['id', 'parentId', 'name', 'type', 'router', 'perms'])
    .execute()) as MenuRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  let created = 0;

  // One level of siblings at a time: their new rows in one insert and their keys in another (a
  // menu of a hundred entries took four hundred round trips one by one, felt on a database server).
  const walk = async (items: readonly MenuSeed[], parentId: number | null, parentKey: string): Promise<void> => {
    const ids: Array<number | null> = items.map(() => null);
    const fresh: number[] = [];
    const records: Array<{ key: string; menuId: number | null }> = [];
    items.forEach((item, i) => {
      const key = seedKey(item, parentKey);
      const recorded = applied.get(key);
      if (applied.has(key)) {
        // Deleted by an admin: leave it and its children out.
        if (recorded != null && byId.has(recorded)) ids[i] = recorded;
        return;
      }
      // Pages are unique by router wherever they sit; the rest by parent.
      const match = rows.find((r) => sameEntry(r, item) && (item.type === 1 || r.parentId === parentId));
      if (match) {
        ids[i] = match.id;
        records.push({ key, menuId: match.id });
      } else fresh.push(i);
    });
    if (fresh.length) {
      const inserted = await trx
        .insertInto('base_sys_menu')
        .values(
          fresh.map((i) => {
            const item = items[i]!;
            return {
              parentId,
              name: item.name,
              type: item.type,
              router: item.router ?? null,
              viewPath: item.viewPath ?? null,
              icon: item.icon ?? null,
              perms: item.perms ?? null,
              orderNum: i + 1,
              keepAlive: item.keepAlive === false ? 0 : 1,
              isShow: item.isShow === false ? 0 : 1,
              createTime: now,
              updateTime: now,
            };
          }),
        )
        .returning(['id', 'name', 'type', 'router', 'perms'])
        .execute();
      // Matched back by key: the order of RETURNING rows is not promised.
      const byKey = new Map(inserted.map((r) => [seedKey({ type: r.type as MenuSeed['type'], name: r.name, router: r.router ?? undefined, perms: r.perms ?? undefined }, parentKey), r]));
      for (const i of fresh) {
        const item = items[i]!;
        const key = seedKey(item, parentKey);
        const row = byKey.get(key);
        if (!row) throw new Error(`seed menu: the inserted entry ${key} was not returned`);
        const id = Number(row.id);
        const menu: MenuRow = { id, parentId, name: item.name, type: item.type, router: item.router ?? null, perms: item.perms ?? null };
        rows.push(menu);
        byId.set(id, menu);
        ids[i] = id;
        records.push({ key, menuId: id });
        created++;
      }
    }
    if (records.length) {
      await trx.insertInto('base_sys_seed').values(records.map((r) => ({ ...r, createTime: now }))).execute();
      for (const r of records) applied.set(r.key, r.menuId);
    }
    for (const [i, item] of items.entries()) {
      if (item.children && ids[i] != null) await walk(item.children, ids[i], seedKey(item, parentKey));
    }
  };

  await walk(seeds, null, '');
  return created;
}
