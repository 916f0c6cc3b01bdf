// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { cleanQuery, initialForm, permPrefix, permsFor, readPage, submitData, type FormItem } from '../../src/kit/index.ts';

const one = (item: FormItem, value: unknown, extra: Record<string, unknown> = {}) => submitData([item], { [item.prop!]: value, ...extra }, 'add');

describe('value hooks on submit', () => {
  it('number and string, also over arrays', () => {
    expect(one({ prop: 'n', hook: 'number' }, '42')).toEqual({ n: 42 });
    expect(one({ prop: 'n', hook: 'number' }, ['1', '2'])).toEqual({ n: [1, 2] });
    expect(one({ prop: 's', hook: 'string' }, 7)).toEqual({ s: '7' });
    expect(one({ prop: 's', hook: 'string' }, [1, 2])).toEqual({ s: ['1', '2'] });
  });

  it('split and join on commas', () => {
    expect(one({ prop: 'tags', hook: 'split' }, 'a, b,,c')).toEqual({ tags: ['a', 'b', 'c'] });
    expect(one({ prop: 'ids', hook: 'join' }, [1, 2, 3])).toEqual({ ids: '1,2,3' });
  });

  it('boolean and booleanNumber (true → 1, anything else → 0)', () => {
    expect(one({ prop: 'b', hook: 'boolean' }, 1)).toEqual({ b: true });
    expect(one({ prop: 'b', hook: 'boolean' }, '')).toEqual({ b: false });
    expect(one({ prop: 'b', hook: 'booleanNumber' }, true)).toEqual({ b: 1 });
    expect(one({ prop: 'b', hook: 'booleanNumber' }, false)).toEqual({ b: 0 });
    expect(one({ prop: 'b', hook: 'booleanNumber' }, undefined)).toEqual({ b: 0 });
  });

  it('datetimeRange into start and end fields (derived or named), the range itself not sent', () => {
    const range = ['2026-01-01 00:00:00', '2026-01-31 23:59:59'];
    expect(one({ prop: 'createTime', type: 'datetimeRange' }, range)).toEqual({ startCreateTime: range[0], endCreateTime: range[1] });
    expect(one({ prop: 'period', hook: 'datetimeRange', range: ['from', 'to'] }, range)).toEqual({ from: range[0], to: range[1] });
    expect(cleanQuery(one({ prop: 'createTime', type: 'datetimeRange' }, []))).toEqual({});
  });

  it('json and empty', () => {
    expect(one({ prop: 'cfg', hook: 'json' }, { a: [1] })).toEqual({ cfg: '{"a":[1]}' });
    expect(one({ prop: 'x', hook: 'empty' }, '')).toEqual({ x: undefined });
    expect(one({ prop: 'x', hook: 'empty' }, [])).toEqual({ x: undefined });
    expect(one({ prop: 'x', hook: 'empty' }, 'kept')).toEqual({ x: 'kept' });
  });

  it('hooks chain in order: split then number', () => {
    expect(one({ prop: 'ids', hook: ['split', 'number'] }, '1,2')).toEqual({ ids: [1, 2] });
  });

  it('dotted and dashed props become nested objects', () => {
    const items: FormItem[] = [
      { prop: 'address.city' },
      { prop: 'address-zip', hook: 'number' },
      { prop: 'meta.flags.on', hook: 'booleanNumber' },
    ];
    expect(submitData(items, { 'address.city': 'Berlin', 'address-zip': '10115', 'meta.flags.on': true }, 'add')).toEqual({
      address: { city: 'Berlin', zip: 10115 },
      meta: { flags: { on: 1 } },
    });
  });

  it('hidden items are dropped; keys no item declares (id) pass through', () => {
    const items: FormItem[] = [
      { prop: 'name' },
      { prop: 'password', hidden: ({ mode }) => mode !== 'add' },
      { prop: 'secret', hidden: true },
    ];
    const form = { id: 5, name: 'n', password: 'p', secret: 's' };
    expect(submitData(items, form, 'update')).toEqual({ id: 5, name: 'n' });
    expect(submitData(items, form, 'add')).toEqual({ id: 5, name: 'n', password: 'p' });
  });

  it('fills a form through the inverse hooks and nested props', () => {
    const items: FormItem[] = [
      { prop: 'ids', type: 'select', multiple: true, hook: 'join' },
      { prop: 'on', type: 'switch', hook: 'booleanNumber' },
      { prop: 'createTime', type: 'datetimeRange' },
      { prop: 'address.city' },
      { prop: 'cfg', hook: 'json' },
      { prop: 'status', value: 1 },
    ];
    const form = initialForm(items, { id: 9, ids: '1,2', on: 1, startCreateTime: 'a', endCreateTime: 'b', address: { city: 'Bonn' }, cfg: '{"x":1}' });
    expect(form).toMatchObject({ id: 9, ids: ['1', '2'], on: true, createTime: ['a', 'b'], 'address.city': 'Bonn', cfg: { x: 1 }, status: 1 });
    expect(initialForm(items)).toMatchObject({ ids: [], on: false, createTime: [], status: 1 });
  });

  it('search queries leave out empty strings, null and empty arrays', () => {
    expect(cleanQuery({ a: '', b: null, c: [], d: 0, e: false, f: 'x' })).toEqual({ d: 0, e: false, f: 'x' });
  });
});

describe('permission flags and page replies', () => {
  it('derives module:resource:action from the prefix', () => {
    expect(permPrefix('/admin/base/sys/user')).toBe('base:sys:user');
    const flags = permsFor('/admin/base/sys/user', ['base:sys:user:page', 'base:sys:user:info']);
    expect(flags).toEqual({ add: false, delete: false, update: false, info: true, list: false, page: true });
    expect(permsFor(undefined, [])).toEqual({ add: true, delete: true, update: true, info: true, list: true, page: true });
    expect(permsFor('/admin/base/sys/user', ['base:sys:user:page'], { add: true }).add).toBe(true);
  });

  it('reads {list, pagination} with page/currentPage and size/pageSize, or a bare array', () => {
    expect(readPage({ list: [{ id: 1 }], pagination: { total: 31, currentPage: 2, pageSize: 10 } }, { page: 1, size: 20 })).toMatchObject({ total: 31, page: 2, size: 10 });
    expect(readPage([{ id: 1 }, { id: 2 }], { page: 1, size: 20 })).toMatchObject({ total: 2, page: 1, size: 20 });
  });
});

describe('dictionaries', () => {
  it('turn entry trees into options: name as label, value (numeric strings as numbers) or id', async () => {
    const { dictOptions } = await import('../../src/kit/index.ts');
    expect(
      dictOptions([
        { id: 1, name: 'Upper', value: '10', children: [{ id: 3, name: 'Left', value: null }] },
        { id: 2, name: 'Lower', value: 'L' },
      ]),
    ).toEqual([
      { label: 'Upper', value: 10 },
      { label: 'Left', value: 3 },
      { label: 'Lower', value: 'L' },
    ]);
  });
});
