// The bending die of each machine: the radius of the bend arcs' centreline (mm) the editor
// computes a machine's programs for (docs/device-bridge.md "Step geometry"). The job message does
// not carry it, so it belongs to the device. Existing machines get 1 mm, the radius assumed before.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('device_info').addColumn('dieRadius', 'double precision', (c) => c.notNull().defaultTo(1)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('device_info').dropColumn('dieRadius').execute();
}
