/**
 * Menu names come from the server in English (the seeded names of the specification). Known names
 * are translated through this table; anything else (menus an administrator added) passes through.
 */
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

const NAMES: Record<string, MessageDescriptor> = {
  'data board': msg`Data board`,
  'order management': msg`Order management`,
  'order list': msg`Order list`,
  'time list': msg`Time list`,
  'device management': msg`Device management`,
  'device list': msg`Device list`,
  'interface configuration': msg`Interface configuration`,
  'config list': msg`Config list`,
  'system management': msg`System management`,
  'permission management': msg`Permission management`,
  'user list': msg`User list`,
  'menu list': msg`Menu list`,
  'role list': msg`Role list`,
  'version management': msg`Version management`,
  'version list': msg`Version list`,
  'monitoring management': msg`Monitoring management`,
  'request log': msg`Request log`,
  'help center': msg`Help center`,
  'help document': msg`Help document`,
  'article list': msg`Article list`,
  'personal center': msg`Personal center`,
  'file space': msg`File space`,
  'ai coding': msg`AI coding`,
  'task list': msg`Task list`,
  'param list': msg`Param list`,
  'parameter list': msg`Parameter list`,
  'dictionary list': msg`Dictionary list`,
  'department list': msg`Department list`,
  'recycle bin': msg`Recycle bin`,
  'file management': msg`File management`,
  'design editor': msg`Design editor`,
  plugins: msg`Plugins`,
  demo: msg`Demo`,
  'user address': msg`User address`,
  'region picker': msg`Region picker`,
  'markdown editor': msg`Markdown editor`,
  'code editor': msg`Code editor`,
  'editor preview': msg`Editor preview`,
  'rich text editor': msg`Rich text editor`,
  'file upload': msg`File upload`,
  'view layout': msg`View layout`,
  'demo list': msg`Demo list`,
  'plugin list': msg`Plugin list`,
};

export function menuLabel(i18n: I18n, name: string): string {
  const descriptor = NAMES[name.trim().toLowerCase()];
  return descriptor ? i18n._(descriptor) : name;
}
