// One counter that every change to what users hold moves forward (roles, their menus and
// departments, menus' permission strings, the department tree, users' roles and departments).
// Triggers move it, in the same transaction as the change, so no code path can forget to: a
// process that caches a user's rights reads the counter and knows whether its copy is current.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/** Tables and, for updates, the columns whose change alters what someone holds. */
const WATCHED: Record<string, string[] | null> = {
  base_sys_user: ['departmentId'],
  base_sys_user_role: null,
  base_sys_role: ['name', 'relevance'],
  base_sys_role_menu: null,
  base_sys_role_department: null,
  base_sys_menu: ['perms', 'type'],
  base_sys_department: ['parentId'],
};

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('base_rights_version').addColumn('v', 'bigint', (c) => c.notNull()).execute();
  await db.insertInto('base_rights_version').values({ v: 1 }).execute();
  if (isPostgres(db)) {
    await sql`CREATE FUNCTION base_rights_bump() RETURNS trigger AS $$
      BEGIN UPDATE base_rights_version SET v = v + 1; RETURN NULL; END $$ LANGUAGE plpgsql`.execute(db);
    for (const [table, columns] of Object.entries(WATCHED)) {
      const update = columns ? `UPDATE OF ${columns.map((c) => `"${c}"`).join(', ')}` : 'UPDATE';
      await sql
        .raw(`CREATE TRIGGER ${table}_rights AFTER INSERT OR DELETE OR ${update} ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION base_rights_bump()`)
        .execute(db);
    }
    return;
  }
  for (const [table, columns] of Object.entries(WATCHED)) {
    const events = ['INSERT', 'DELETE', columns ? `UPDATE OF ${columns.map((c) => `"${c}"`).join(', ')}` : 'UPDATE'];
    for (const [i, event] of events.entries()) {
      await sql
        .raw(`CREATE TRIGGER ${table}_rights_${i} AFTER ${event} ON ${table} BEGIN UPDATE base_rights_version SET v = v + 1; END`)
        .execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const table of Object.keys(WATCHED)) await sql.raw(`DROP TRIGGER ${table}_rights ON ${table}`).execute(db);
    await sql`DROP FUNCTION base_rights_bump()`.execute(db);
  } else {
    for (const table of Object.keys(WATCHED)) for (let i = 0; i < 3; i++) await sql.raw(`DROP TRIGGER ${table}_rights_${i}`).execute(db);
  }
  await db.schema.dropTable('base_rights_version').execute();
}
