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

  const record = async (key: string, menuId: number | null) => {
    await trx.insertInto('base_sys_seed').values({ key, menuId, createTime: now }).execute();
    applied.set(key, menuId);
  };

  const walk = async (items: readonly MenuSeed[], parentId: number | null, parentKey: string): Promise<void> => {
    let position = 0;
    for (const item of items) {
      position++;
      const key = seedKey(item, parentKey);
      let id: number | null | undefined;
      if (applied.has(key)) {
        id = applied.get(key);
        if (id == null || !byId.has(id)) continue; // deleted by an admin: leave it and its children out
      } else {
        // Pages are unique by router wherever they sit; the rest by parent.
        const match = rows.find((r) => sameEntry(r, item) && (item.type === 1 || r.parentId === parentId));
        if (match) {
          id = match.id;
        } else {
          const row = await trx
            .insertInto('base_sys_menu')
            .values({
              parentId,
              name: item.name,
              type: item.type,
              router: item.router ?? null,
              viewPath: item.viewPath ?? null,
              icon: item.icon ?? null,
              perms: item.perms ?? null,
              orderNum: position,
              keepAlive: item.keepAlive === false ? 0 : 1,
              isShow: item.isShow === false ? 0 : 1,
              createTime: now,
              updateTime: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          id = Number(row.id);
          const inserted: MenuRow = { id, parentId, name: item.name, type: item.type, router: item.router ?? null, perms: item.perms ?? null };
          rows.push(inserted);
          byId.set(id, inserted);
          created++;
        }
        await record(key, id);
      }
      if (item.children) await walk(item.children, id, key);
    }
  };

  await walk(seeds, null, '');
  return created;
}
