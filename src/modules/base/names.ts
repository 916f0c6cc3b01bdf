/** Labels of menu entries in the system screens: seeded names translated, others as they are. */
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { menuLabel } from '../../menu/names.ts';

// The permission entries (type 2) of the seeded menu.
const PERM_NAMES: Record<string, MessageDescriptor> = {
  add: msg`Add`,
  delete: msg`Delete`,
  update: msg`Update`,
  query: msg`Query`,
  move: msg`Move`,
  import: msg`Import`,
  export: msg`Export`,
  restore: msg`Restore`,
  config: msg`Config`,
  calibration: msg`Calibration`,
  clear: msg`Clear`,
  'keep days': msg`Keep days`,
  'department add': msg`Department add`,
  'department delete': msg`Department delete`,
  'department update': msg`Department update`,
  'edit permissions': msg`Edit permissions`,
  'all orders': msg`All orders`,
  'all devices': msg`All devices`,
  'all files': msg`All files`,
  'all addresses': msg`All addresses`,
  'device time': msg`Device time`,
  // Orders, devices, interface configuration and file space.
  'retry ai': msg`Retry AI`,
  'order history': msg`Order history`,
  'design orders': msg`Design orders`,
  'assign designer': msg`Assign designer`,
  'order teeth': msg`Order teeth`,
  'ai design': msg`AI design`,
  'delivery addresses': msg`Delivery addresses`,
  design: msg`Design`,
  bend: msg({ message: 'Bend', context: 'permission' }),
  'reset key': msg`Reset key`,
  'rotate secret': msg`Rotate secret`,
  deliveries: msg`Deliveries`,
  'send again': msg`Send again`,
  'bind users': msg`Bind users`,
  'editor devices': msg`Editor devices`,
  departments: msg`Departments`,
  folders: msg`Folders`,
  'add to folder': msg`Add to folder`,
  'create from resource': msg`Create from resource`,
  'import file': msg`Import file`,
  // The AI coding helper and the plugins.
  'create modules': msg`Create modules`,
  'enable and configure': msg`Enable and configure`,
  install: msg`Install`,
  'import template': msg`Import template`,
  // Params, dictionaries, tasks and help.
  preview: msg`Preview`,
  'entry add': msg`Entry add`,
  'entry delete': msg`Entry delete`,
  'entry update': msg`Entry update`,
  'entry query': msg`Entry query`,
  'entry import': msg`Entry import`,
  'entry export': msg`Entry export`,
  'start and stop': msg`Start and stop`,
  'run once': msg`Run once`,
  'run log': msg`Run log`,
  read: msg`Read`,
  'category add': msg`Category add`,
  'category delete': msg`Category delete`,
  'category update': msg`Category update`,
  'category query': msg`Category query`,
};

export function entryLabel(i18n: I18n, name: string, type: number): string {
  const d = type === 2 ? PERM_NAMES[name.trim().toLowerCase()] : undefined;
  return d ? i18n._(d) : menuLabel(i18n, name);
}
