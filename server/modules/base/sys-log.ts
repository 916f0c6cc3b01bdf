// /admin/base/sys/log: the request log, read-only.
import type { AppContext } from '../../context.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';

export const logResource = {
  module: 'base',
  path: 'sys/log',
  name: 'BaseSysLog',
  table: 'base_sys_log',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    userId: { type: 'number', comment: 'User ID', nullable: true },
    username: { type: 'string', comment: 'Username', nullable: true },
    action: { type: 'string', comment: 'Route' },
    method: { type: 'string', comment: 'HTTP method' },
    status: { type: 'number', comment: 'HTTP status' },
    timeMs: { type: 'number', comment: 'Time taken, ms' },
    ip: { type: 'string', comment: 'IP' },
    params: { type: 'json', comment: 'Parameters (secrets redacted)', nullable: true },
    createTime: { type: 'datetime', comment: 'Time', readonly: true },
  },
  actions: ['page'],
  keyWordColumns: ['action', 'username', 'ip'],
  sortable: ['id', 'createTime', 'timeMs', 'status', 'action', 'username', 'ip', 'method'],
  filterable: ['userId', 'method', 'status'],
  defaultOrder: ['id', 'desc'],
} satisfies ResourceDef;

export function createLogResource(ctx: AppContext) {
  return createCrud(ctx, logResource);
}
