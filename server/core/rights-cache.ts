// What a user holds, remembered between requests while it cannot have changed. Every change to
// roles, menus, departments or a user's roles moves `base_rights_version` forward (triggers, in
// the change's own transaction), so one one-row read tells whether a remembered answer is
// current: a permission check costs that read instead of joins over four tables.
//
// Answers are shared between requests: callers must not change them. Inside a transaction
// nothing is remembered (the transaction may be about to change what it reads).
import { CompiledQuery } from 'kysely';
import type { Db } from '../db/index.ts';

const MAX_ENTRIES = 10_000;
const READ_VERSION = CompiledQuery.raw('select "v" from "base_rights_version"');

/** Per database handle: key -> the answer and the version it was loaded under. */
const caches = new WeakMap<Db, Map<string, { v: number; value: unknown }>>();

export async function rightsVersion(db: Db): Promise<number> {
  const { rows } = await db.executeQuery<{ v: number }>(READ_VERSION);
  return Number(rows[0]?.v ?? 0);
}

/** `load()`'s answer for `key`, loaded again only when rights changed since it was. */
export async function remembered<T>(db: Db, key: string, load: () => Promise<T>): Promise<T> {
  if (db.isTransaction) return load();
  // Read before loading: a change committed in between moves the version past this one, so the
  // answer stored under it is never served after that change.
  const v = await rightsVersion(db);
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(key);
  if (hit && hit.v === v) return hit.value as T;
  const value = await load();
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(key, { v, value });
  return value;
}
