// Messages of users, roles, menus, departments and the recycle bin.
import type { Catalog } from './types.ts';

export const sysMessages = {
  // {name}: what the user sees in the bin's Content column (a username, a title...), else the entity.
  recycleIdTaken: {
    en: '"{name}" (#{id}) cannot be restored: its id is in use again',
    zh: '“{name}”（#{id}）无法恢复：该 ID 已被重新使用',
    de: '„{name}“ (#{id}) kann nicht wiederhergestellt werden: die ID ist wieder vergeben',
  },
  recycleRestoreFailed: {
    en: '"{name}" (#{id}) cannot be restored: one of its values is taken again or data it refers to is gone',
    zh: '“{name}”（#{id}）无法恢复：其某个值已被占用，或其引用的数据已不存在',
    de: '„{name}“ (#{id}) kann nicht wiederhergestellt werden: ein Wert ist wieder vergeben oder referenzierte Daten fehlen',
  },
  recycleRestoreDenied: {
    en: '"{name}" (#{id}) cannot be restored: you may not add this kind of data',
    zh: '“{name}”（#{id}）无法恢复：您没有新增此类数据的权限',
    de: '„{name}“ (#{id}) kann nicht wiederhergestellt werden: Sie dürfen solche Daten nicht anlegen',
  },
  cannotDeleteSelf: { en: 'You cannot delete yourself', zh: '不能删除自己', de: 'Sie können sich nicht selbst löschen' },
  cannotDeleteSuperadmin: {
    en: 'The super administrator cannot be deleted',
    zh: '不能删除超级管理员',
    de: 'Der Superadministrator kann nicht gelöscht werden',
  },
  roleNameTaken: { en: 'Role name already exists', zh: '角色标识已存在', de: 'Rollenname existiert bereits' },
  superadminRoleProtected: {
    en: 'The superadmin role cannot be changed or deleted',
    zh: '超级管理员角色不能修改或删除',
    de: 'Die Superadmin-Rolle kann nicht geändert oder gelöscht werden',
  },
  menuHasChildren: {
    en: 'Menu "{name}" has sub-menus: delete them too or move them first',
    zh: '菜单“{name}”有子菜单：请一并删除或先移走',
    de: 'Menü „{name}“ hat Untermenüs: löschen Sie diese mit oder verschieben Sie sie zuerst',
  },
  importFileInvalid: {
    en: 'The file is not a readable Excel (xlsx) workbook',
    zh: '文件不是可读取的 Excel (xlsx) 工作簿',
    de: 'Die Datei ist keine lesbare Excel-Arbeitsmappe (xlsx)',
  },
  importFileMissing: { en: 'Choose an xlsx file to import', zh: '请选择要导入的 xlsx 文件', de: 'Wählen Sie eine xlsx-Datei zum Importieren' },
  importTooManyRows: {
    en: 'At most {max} rows can be imported at once',
    zh: '一次最多导入 {max} 行',
    de: 'Höchstens {max} Zeilen können auf einmal importiert werden',
  },
  rowDuplicateUsername: {
    en: 'Username appears twice in this import',
    zh: '用户名在本次导入中重复',
    de: 'Benutzername kommt in diesem Import doppelt vor',
  },
  unknownDepartment: { en: 'Unknown department "{name}"', zh: '未知部门“{name}”', de: 'Unbekannte Abteilung „{name}“' },
  unknownRole: { en: 'Unknown role "{name}"', zh: '未知角色“{name}”', de: 'Unbekannte Rolle „{name}“' },
  grantBeyondOwn: {
    en: 'You can only grant menus and permissions you hold yourself',
    zh: '只能授予自己拥有的菜单和权限',
    de: 'Sie können nur Menüs und Berechtigungen vergeben, die Sie selbst haben',
  },
  roleBeyondOwn: {
    en: 'You can only hand out roles within your own permissions',
    zh: '只能分配不超出自己权限的角色',
    de: 'Sie können nur Rollen im Rahmen Ihrer eigenen Berechtigungen vergeben',
  },
  userBeyondOwn: {
    en: 'You can only manage users whose permissions and data scope lie within your own',
    zh: '只能管理权限和数据范围不超出自己的用户',
    de: 'Sie können nur Benutzer verwalten, deren Berechtigungen und Datenbereich innerhalb Ihrer eigenen liegen',
  },
  ownRolesLocked: {
    en: 'You cannot change your own roles',
    zh: '不能修改自己的角色',
    de: 'Sie können Ihre eigenen Rollen nicht ändern',
  },
  roleScopeBeyondOwn: {
    en: 'You can only manage roles whose permissions and data scope lie within your own',
    zh: '只能管理权限和数据范围不超出自己的角色',
    de: 'Sie können nur Rollen verwalten, deren Berechtigungen und Datenbereich innerhalb Ihrer eigenen liegen',
  },
  ownRoleLocked: {
    en: 'You cannot change or delete a role you hold yourself',
    zh: '不能修改或删除自己拥有的角色',
    de: 'Sie können keine Rolle ändern oder löschen, die Sie selbst haben',
  },
  menuImportInvalid: {
    en: 'Entry {path} is invalid: {reason}',
    zh: '条目 {path} 无效：{reason}',
    de: 'Eintrag {path} ist ungültig: {reason}',
  },
} satisfies Catalog;
