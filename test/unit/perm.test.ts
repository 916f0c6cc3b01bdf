import { describe, expect, it } from 'vitest';
import { checkPerm } from '../../src/app/perm.ts';

const perms = ['base:sys:user:add', 'base:sys:user:page, base:sys:user:info', 'order:info:page'];

describe('permission check', () => {
  it('passes when any permission contains the string, spaces removed', () => {
    expect(checkPerm(perms, 'base:sys:user:add')).toBe(true);
    expect(checkPerm(perms, ' base:sys:user:info ')).toBe(true);
    expect(checkPerm(perms, 'base:sys:user')).toBe(true);
    expect(checkPerm(perms, 'base:sys:role:add')).toBe(false);
    expect(checkPerm(perms, '')).toBe(false);
  });

  it('supports or and and', () => {
    expect(checkPerm(perms, { or: ['x:y', 'order:info:page'] })).toBe(true);
    expect(checkPerm(perms, { or: ['x:y', 'z'] })).toBe(false);
    expect(checkPerm(perms, { and: ['base:sys:user:add', 'order:info:page'] })).toBe(true);
    expect(checkPerm(perms, { and: ['base:sys:user:add', 'x:y'] })).toBe(false);
    expect(checkPerm(perms, { and: ['order:info:page', { or: ['nope', 'base:sys:user:page'] }] })).toBe(true);
    expect(checkPerm(perms, {})).toBe(false);
  });
});
