// The AI coding helper (server/modules/helper):
// - helper_module: the live modules' definitions (common/ai-code.ts ModuleDef, JSON), read by every
//   server process from here; `version` moves on each change so a process's cached resource
//   knows when it is stale. The menu rows it created are kept to remove them with it.
// - the param epsFieldType (common/ai-code-rules.ts): the rules that turn a sentence into fields,
//   unless one exists.
import type { Kysely } from 'kysely';
import { DEFAULT_FIELD_RULES, EPS_FIELD_TYPE_KEY } from '../../../common/ai-code-rules.ts';
import { formatTime } from '../../core/clock.ts';
import { idColumn, timeColumns } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await timeColumns(
    idColumn(db)(db.schema.createTable('helper_module'))
      .addColumn('name', 'varchar(32)', (c) => c.notNull().unique())
      .addColumn('tableName', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('label', 'varchar(64)', (c) => c.notNull())
      .addColumn('definition', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('groupMenuId', 'integer')
      .addColumn('createBy', 'integer'),
  ).execute();
  const exists = await db.selectFrom('base_sys_param').select('id').where('keyName', '=', EPS_FIELD_TYPE_KEY).executeTakeFirst();
  if (!exists) {
    const time = formatTime(Date.now());
    await db
      .insertInto('base_sys_param')
      .values({
        name: 'AI coding: field rules',
        keyName: EPS_FIELD_TYPE_KEY,
        data: JSON.stringify(DEFAULT_FIELD_RULES, null, 2),
        dataType: 0,
        remark: 'Words that make a field of a type when a module is described in one sentence (first rule wins); names: identifiers of Chinese words',
        createTime: time,
        updateTime: time,
      })
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('base_sys_param').where('keyName', '=', EPS_FIELD_TYPE_KEY).execute();
  await db.schema.dropTable('helper_module').execute();
}
