/**
 * The generic per-resource service over `src/api/client.ts`, and the permission flags a prefix
 * gives (specification, sections 6 and 7).
 */
import { request } from '../api/client.ts';
import { checkPerm } from '../app/perm.ts';
import type { Action, CrudService, PageReply, Perms, Query, Row } from './types.ts';

export const ACTIONS: readonly Action[] = ['add', 'delete', 'update', 'info', 'list', 'page'];

/** `/admin/base/sys/user` → `base:sys:user`. */
export function permPrefix(prefix: string): string {
  return prefix
    .replace(/^\/+|\/+$/g, '')
    .replace(/^admin\//, '')
    .split('/')
    .filter(Boolean)
    .join(':');
}

/**
 * The flags of each action: true when the user holds `<module>:<resource>:<action>`, unless the
 * page overrides it. Without a prefix every flag defaults to true.
 */
export function permsFor(prefix: string | undefined, userPerms: readonly string[], override?: Partial<Perms>): Perms {
  const base = prefix ? permPrefix(prefix) : '';
  const flags = {} as Perms;
  for (const action of ACTIONS) flags[action] = base ? checkPerm(userPerms, `${base}:${action}`) : true;
  return { ...flags, ...override };
}

/**
 * A service calling `<prefix>/page|list|info|add|update|delete` through the API client. `page` and
 * `list` load what a list screen shows, so their 403 goes to /403; the others (a record, a button's
 * action) show the refusal as a toast and the screen stays.
 */
export function createService<R = Row>(prefix: string): CrudService<R> & { prefix: string } {
  const url = (action: string) => `${prefix.replace(/\/+$/, '')}/${action}`;
  return {
    prefix,
    page: (query: Query) => request<PageReply<R> | R[]>({ url: url('page'), method: 'POST', data: query, onForbidden: 'page' }),
    list: (query: Query) => request<R[]>({ url: url('list'), method: 'POST', data: query, onForbidden: 'page' }),
    info: ({ id }) => request<R>({ url: url('info'), params: { id } }),
    add: (data) => request<unknown>({ url: url('add'), method: 'POST', data }),
    update: (data) => request<unknown>({ url: url('update'), method: 'POST', data }),
    delete: (data) => request<unknown>({ url: url('delete'), method: 'POST', data }),
  };
}

/** Reads a page reply in any of its shapes: `{list, pagination:{total,page|currentPage,size|pageSize}}` or an array. */
export function readPage<R>(reply: PageReply<R> | R[] | null | undefined, asked: { page: number; size: number }) {
  if (Array.isArray(reply)) return { list: reply, total: reply.length, page: asked.page, size: asked.size, subData: undefined };
  const list = Array.isArray(reply?.list) ? reply.list : [];
  const p = reply?.pagination ?? {};
  return {
    list,
    total: Number(p.total ?? list.length) || 0,
    page: Number(p.page ?? p.currentPage ?? asked.page) || asked.page,
    size: Number(p.size ?? p.pageSize ?? asked.size) || asked.size,
    subData: reply?.subData,
  };
}
