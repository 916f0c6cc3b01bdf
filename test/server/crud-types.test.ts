// The CRUD factory's definitions are typed against the database schema (server/db/schema.ts):
// a column, keyword, sort or filter column that its table does not have does not compile. The
// `@ts-expect-error` lines are the test (the type check of `test/` fails if one compiles); the
// run only makes sure the definitions are what they say. The rows the typed client answers
// follow the definition's columns the same way.
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../server/context.ts';
import { createCrud, type ResourceDef } from '../../server/core/crud.ts';
import { unwrap, type Api } from '../../src/api/typed.ts';

const good = {
  module: 'dict',
  path: 'type',
  name: 'DictType',
  table: 'dict_type',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    name: { type: 'string', comment: 'Name' },
  },
  actions: ['page'],
  sortable: ['id', 'name'],
} as const satisfies ResourceDef<'dict_type'>;

const wrongColumn = {
  ...good,
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    // @ts-expect-error dict_type has no column `price`
    price: { type: 'number', comment: 'Not a column' },
  },
} satisfies ResourceDef<'dict_type'>;

const wrongSort = {
  ...good,
  // @ts-expect-error dict_type has no column `price` to sort by
  sortable: ['id', 'price'],
} satisfies ResourceDef<'dict_type'>;

const wrongFilter = {
  ...good,
  // @ts-expect-error dict_type has no column `typeId` to filter on (dict_info has)
  filterable: ['typeId'],
} satisfies ResourceDef<'dict_type'>;

/** createCrud infers the table from the definition and checks the columns against it. */
export function neverCalled(ctx: AppContext) {
  return createCrud(ctx, {
    ...good,
    table: 'dict_info',
    columns: {
      typeId: { type: 'number', comment: 'Type' },
      // @ts-expect-error dict_info has no column `label`
      label: { type: 'string', comment: 'Not a column' },
    },
  });
}

/** The rows info, list and page answer are the table's row type, narrowed to the definition's
 * readable columns: a `select: false` column is never read back, so it is not in the type. */
export async function neverRun(api: Api) {
  const user = await unwrap(api.admin.base.sys.user.info.$get({ query: { id: 1 } }));
  const username: string = user.username;
  const departmentId: number | null = user.departmentId;
  // @ts-expect-error the password hash is `select: false` (what hooks add is `unknown`)
  const password: string = user.password;
  const { list } = await unwrap(api.admin.device.info.page.$post({ json: {} }));
  const devicename: string | undefined = list[0]?.devicename;
  // @ts-expect-error the device key's hash is `select: false`
  const keyHash: string | undefined = list[0]?.keyHash;
  return [username, departmentId, password, devicename, keyHash];
}

describe('ResourceDef', () => {
  it('names the table its columns are checked against', () => {
    expect(good.table).toBe('dict_type');
    expect(Object.keys(wrongColumn.columns)).toEqual(['id', 'price']);
    expect(wrongSort.sortable).toContain('price');
    expect(wrongFilter.filterable).toEqual(['typeId']);
  });
});
