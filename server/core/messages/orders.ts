// Messages of orders, devices and the file space.
import type { Catalog } from './types.ts';

export const ordersMessages = {} satisfies Catalog;
