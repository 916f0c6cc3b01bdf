// Messages of the base calls added with the dashboard's remaining calls: one-time sign-in
// links, public parameters, menu creation and import, files registered in a folder.
import type { Catalog } from './types.ts';

export const callsMessages = {
  redirectInvalid: {
    en: 'This sign-in link is invalid, used or expired',
    zh: '该登录链接无效、已使用或已过期',
    de: 'Dieser Anmeldelink ist ungültig, bereits benutzt oder abgelaufen',
  },
  paramNotPublic: { en: 'This parameter is not public', zh: '该参数不公开', de: 'Dieser Parameter ist nicht öffentlich' },
  menuRouterTaken: { en: 'A page with route {router} already exists', zh: '路由为 {router} 的页面已存在', de: 'Eine Seite mit der Route {router} existiert bereits' },
  menuResourceUnknown: {
    en: 'No resource with permissions is described at {prefix}',
    zh: '{prefix} 下没有需要权限的资源描述',
    de: 'Unter {prefix} ist keine Ressource mit Berechtigungen beschrieben',
  },
  menuFileInvalid: { en: 'Menu file, {path}: {reason}', zh: '菜单文件，{path}：{reason}', de: 'Menüdatei, {path}: {reason}' },
  menuFileUnreadable: {
    en: 'The menu file is not a JSON menu tree of at most {max} KiB',
    zh: '菜单文件不是不超过 {max} KiB 的 JSON 菜单树',
    de: 'Die Menüdatei ist kein JSON-Menübaum von höchstens {max} KiB',
  },
  menuTooDeep: { en: 'nested deeper than {max} levels', zh: '嵌套超过 {max} 层', de: 'tiefer als {max} Ebenen verschachtelt' },
  menuTooMany: { en: 'more than {max} entries', zh: '超过 {max} 个条目', de: 'mehr als {max} Einträge' },
  menuUnknownPerm: { en: 'unknown permission {perm}', zh: '未知权限 {perm}', de: 'unbekannte Berechtigung {perm}' },
  menuPermChildren: { en: 'a permission entry cannot hold entries', zh: '权限条目不能包含子条目', de: 'ein Berechtigungseintrag kann keine Einträge enthalten' },
} satisfies Catalog;
