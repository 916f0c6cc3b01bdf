// Several processes may each hold device connections (docs/scaling.md):
// - device_link.hub: the hub (process) that holds the device's connection now; only it marks the
//   device offline when that connection ends, so a device that moved to another process stays
//   online there;
// - device_hub_node: each hub's heartbeat; the links of a hub whose heartbeat stopped (its process
//   died) are marked offline by the others.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('device_link').addColumn('hub', 'varchar(128)').execute();
  await db.schema
    .createTable('device_hub_node')
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('seenAt', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('device_hub_node').execute();
  await db.schema.alterTable('device_link').dropColumn('hub').execute();
}
