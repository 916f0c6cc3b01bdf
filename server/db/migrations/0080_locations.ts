// Locations for the dashboard's map (spec "Home dashboard": a map of manufacturer and device
// locations). Manufacturers are departments. All optional: a city name for people, latitude and
// longitude in degrees (WGS 84) for the map; a row without both coordinates is not drawn.
import type { Kysely } from 'kysely';

const TABLES = ['base_sys_department', 'device_info'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table).addColumn('city', 'varchar(255)').execute();
    await db.schema.alterTable(table).addColumn('latitude', 'double precision').execute();
    await db.schema.alterTable(table).addColumn('longitude', 'double precision').execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    for (const column of ['longitude', 'latitude', 'city']) await db.schema.alterTable(table).dropColumn(column).execute();
  }
}
