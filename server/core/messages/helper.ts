// Messages of the AI coding helper (server/modules/helper).
import type { Catalog } from './types.ts';

export const helperMessages = {
  helperModuleTaken: { en: 'A module named {name} already exists', zh: '名为 {name} 的模块已存在', de: 'Ein Modul namens {name} existiert bereits' },
  helperTableTaken: { en: 'The table {table} already exists', zh: '数据表 {table} 已存在', de: 'Die Tabelle {table} existiert bereits' },
  helperTooMany: { en: 'At most {max} modules can be live', zh: '最多只能有 {max} 个在用模块', de: 'Höchstens {max} Module können aktiv sein' },
  helperConfirm: { en: 'Type the module name to confirm its removal', zh: '请输入模块名称以确认删除', de: 'Zum Bestätigen den Modulnamen eingeben' },
  helperSentence: {
    en: 'No fields found: describe it as "A book with title, author and price"',
    zh: '未识别到字段：请这样描述“图书，包含名称、作者、价格”',
    de: 'Keine Felder erkannt: etwa so beschreiben "A book with title, author and price"',
  },
  helperModelFailed: {
    en: 'The language model gave no usable answer ({reason}); the fields come from the rules',
    zh: '语言模型未给出可用结果（{reason}），字段按规则生成',
    de: 'Das Sprachmodell lieferte keine brauchbare Antwort ({reason}); die Felder stammen aus den Regeln',
  },
  helperRulesInvalid: {
    en: 'The param epsFieldType is not a valid rule list; the default rules were used',
    zh: '参数 epsFieldType 不是有效的规则列表，已使用默认规则',
    de: 'Der Parameter epsFieldType ist keine gültige Regelliste; die Standardregeln wurden verwendet',
  },
} satisfies Catalog;
