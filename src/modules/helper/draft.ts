/** The builder's editable draft of a module, and its conversion to and from a definition. */
import { tableFor, type FieldType, type ModuleDef } from '../../../common/ai-code.ts';

export interface DraftField {
  key: number;
  name: string;
  label: string;
  zh: string;
  en: string;
  de: string;
  type: FieldType;
  required: boolean;
  /** dict: the dictionary key; enum: the options, comma-separated. */
  extra: string;
  list: boolean;
  search: boolean;
}

export interface Draft {
  name: string;
  tableName: string;
  label: string;
  fields: DraftField[];
}

let nextKey = 1;
export const newField = (): DraftField => ({ key: nextKey++, name: '', label: '', zh: '', en: '', de: '', type: 'string', required: false, extra: '', list: true, search: false });
export const emptyDraft = (): Draft => ({ name: '', tableName: '', label: '', fields: [newField()] });

export function draftOf(def: ModuleDef): Draft {
  return {
    name: def.name,
    tableName: def.tableName,
    label: def.label,
    fields: def.fields.map((f) => ({
      key: nextKey++,
      name: f.name,
      label: f.label,
      zh: f.labels?.zh ?? '',
      en: f.labels?.en ?? '',
      de: f.labels?.de ?? '',
      type: f.type,
      required: f.required,
      extra: f.type === 'dict' ? (f.dict ?? '') : f.type === 'enum' ? (f.options ?? []).join(', ') : '',
      list: f.list,
      search: f.search,
    })),
  };
}

/** The module a draft describes, as the server's `source` and `create` calls take it (they check it). */
export function draftInput(d: Draft): Record<string, unknown> {
  return {
    name: d.name.trim(),
    tableName: d.tableName.trim() || tableFor(d.name.trim()),
    label: d.label,
    fields: d.fields.map((f) => ({
      name: f.name.trim(),
      label: f.label,
      labels: { zh: f.zh, en: f.en, de: f.de },
      type: f.type,
      required: f.required,
      list: f.list,
      search: f.search,
      ...(f.type === 'dict' ? { dict: f.extra } : {}),
      ...(f.type === 'enum' ? { options: f.extra.split(/[,，]/).map((o) => o.trim()).filter(Boolean) } : {}),
    })),
  };
}
