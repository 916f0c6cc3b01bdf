// Messages of params, dictionaries, request log, tasks, versions, help and status config.
import type { Catalog } from './types.ts';

export const opsMessages = {} satisfies Catalog;
