// The CRUD factory's definitions are typed against the database schema (server/db/schema.ts):
// a column, keyword, sort or filter column that its table does not have does not compile. The
// `@ts-expect-error` lines are the test (the type check of `test/` fails if one compiles); the
// run only makes sure the definitions are what they say.
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../server/context.ts';
import { createCrud, type ResourceDef } from '../../server/core/crud.ts';

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

describe('ResourceDef', () => {
  it('names the table its columns are checked against', () => {
    expect(good.table).toBe('dict_type');
    expect(Object.keys(wrongColumn.columns)).toEqual(['id', 'price']);
    expect(wrongSort.sortable).toContain('price');
    expect(wrongFilter.filterable).toEqual(['typeId']);
  });
});
