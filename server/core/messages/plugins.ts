// Messages of the generic spreadsheet import and export, and of plugins.
import type { Catalog } from './types.ts';

export const pluginMessages = {
  importFileTooLarge: {
    en: 'The file is too large to import (at most {max} MB)',
    zh: '文件过大，无法导入（最多 {max} MB）',
    de: 'Die Datei ist zu groß für den Import (höchstens {max} MB)',
  },
  importOutsideScope: {
    en: '{field}: you may not create data there',
    zh: '{field}：您无权在此范围内创建数据',
    de: '{field}: Sie dürfen dort keine Daten anlegen',
  },
  importNothingImportable: {
    en: 'This list cannot be imported',
    zh: '此列表不支持导入',
    de: 'Diese Liste kann nicht importiert werden',
  },
  pluginDisabled: {
    en: 'The plugin "{name}" is disabled',
    zh: '插件“{name}”已停用',
    de: 'Das Plugin „{name}“ ist deaktiviert',
  },
  textTooLong: {
    en: 'The text is too long (at most {max} characters)',
    zh: '文本过长（最多 {max} 个字符）',
    de: 'Der Text ist zu lang (höchstens {max} Zeichen)',
  },
  pluginPackageInvalid: {
    en: 'The plugin package is invalid: {reason}',
    zh: '插件包无效：{reason}',
    de: 'Das Plugin-Paket ist ungültig: {reason}',
  },
  pluginPackageTooLarge: {
    en: 'The plugin package is too large (at most {max} KB)',
    zh: '插件包过大（最多 {max} KB）',
    de: 'Das Plugin-Paket ist zu groß (höchstens {max} KB)',
  },
  pluginExists: {
    en: 'A plugin named "{name}" is already installed',
    zh: '名为“{name}”的插件已安装',
    de: 'Ein Plugin namens „{name}“ ist bereits installiert',
  },
  pluginBuiltIn: {
    en: 'Built-in plugins cannot be uninstalled, only disabled',
    zh: '内置插件不能卸载，只能停用',
    de: 'Integrierte Plugins können nicht deinstalliert, nur deaktiviert werden',
  },
  pluginSettingsInvalid: {
    en: 'Setting "{field}" is invalid',
    zh: '设置“{field}”无效',
    de: 'Die Einstellung „{field}“ ist ungültig',
  },
} satisfies Catalog;
