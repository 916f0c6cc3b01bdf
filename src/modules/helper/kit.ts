/** A live module's definition as the generic kit's columns, form items and search items. */
import type { FieldDef, ModuleDef } from '../../../common/ai-code.ts';
import { labelIn } from '../../../common/ai-code.ts';
import type { FormItem, Option, TableColumn } from '../../kit/index.ts';

const ITEM: Record<FieldDef['type'], FormItem['type']> = {
  string: 'input', text: 'textarea', number: 'number', integer: 'number', boolean: 'switch',
  date: 'date', datetime: 'datetime', dict: 'select', enum: 'select',
};

function optionsOf(f: FieldDef, yesNo: Option[]): Option[] | string | undefined {
  if (f.type === 'dict') return f.dict;
  if (f.type === 'enum') return (f.options ?? []).map((o) => ({ label: o, value: o }));
  if (f.type === 'boolean') return yesNo;
  return undefined;
}

export function kitOf(def: ModuleDef, lang: string, text: { yes: string; no: string; created: string }) {
  const yesNo: Option[] = [
    { label: text.yes, value: 1, color: '#16a34a' },
    { label: text.no, value: 0, color: '#64748b' },
  ];
  const columns: TableColumn[] = [
    ...def.fields
      .filter((f) => f.list)
      .map((f): TableColumn => {
        const dict = optionsOf(f, yesNo);
        return { prop: f.name, label: labelIn(f, lang), sortable: f.type !== 'text', minWidth: 120, ...(dict ? { dict } : {}) };
      }),
    { prop: 'createTime', label: text.created, sortable: true, width: 170 },
  ];
  const items: FormItem[] = def.fields.map((f) => ({
    prop: f.name,
    label: labelIn(f, lang),
    type: ITEM[f.type],
    required: f.required,
    ...(f.type === 'integer' ? { step: 1 } : {}),
    ...(f.type === 'boolean' ? { hook: 'booleanNumber' as const, value: false } : {}),
    ...(f.type === 'dict' || f.type === 'enum' ? { options: optionsOf(f, yesNo) } : {}),
  }));
  const search: FormItem[] = def.fields
    .filter((f) => f.search && (f.type === 'dict' || f.type === 'enum' || f.type === 'boolean'))
    .map((f) => ({ prop: f.name, label: labelIn(f, lang), type: 'select', options: optionsOf(f, yesNo) }));
  const keyword = def.fields.some((f) => f.search && (f.type === 'string' || f.type === 'text'));
  return { columns, items, search, keyword };
}
