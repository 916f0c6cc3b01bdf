/** The fields of a module as an editable table: name, labels, type, dictionary or options, flags. */
import { useLingui } from '@lingui/react/macro';
import { FIELD_TYPES, MAX_FIELDS, type FieldType } from '../../../common/ai-code.ts';
import { newField, type DraftField } from './draft.ts';

export function useTypeLabels(): Record<FieldType, string> {
  const { t } = useLingui();
  return {
    string: t`Text (short)`,
    text: t`Text (long)`,
    number: t`Decimal number`,
    integer: t`Integer`,
    boolean: t`Yes/no`,
    date: t`Date`,
    datetime: t`Date and time`,
    dict: t`Dictionary`,
    enum: t`Choice`,
  };
}

export function FieldsEditor({ fields, onChange }: { fields: DraftField[]; onChange: (fields: DraftField[]) => void }) {
  const { t } = useLingui();
  const types = useTypeLabels();
  const set = (key: number, patch: Partial<DraftField>) => onChange(fields.map((f) => (f.key === key ? { ...f, ...patch } : f)));
  const cell = 'px-1.5 py-1';
  const input = 'h-8 w-full rounded border border-slate-300 px-2 text-sm outline-none focus:border-primary';
  return (
    <div className="overflow-x-auto">
      <table className="min-w-[1100px] text-sm" data-testid="fields">
        <thead className="bg-slate-50 text-left text-xs text-slate-500">
          <tr>
            <th className={cell}>{t`Field name`}</th>
            <th className={cell}>{t`Label`}</th>
            <th className={cell}>中文</th>
            <th className={cell}>English</th>
            <th className={cell}>Deutsch</th>
            <th className={cell}>{t`Type`}</th>
            <th className={cell}>{t`Dictionary or options`}</th>
            <th className={cell}>{t`Required`}</th>
            <th className={cell}>{t`In list`}</th>
            <th className={cell}>{t`Searchable`}</th>
            <th className={cell} />
          </tr>
        </thead>
        <tbody>
          {fields.map((f, i) => {
            const n = i + 1;
            return (
            <tr key={f.key} className="border-t border-slate-100" data-testid="field-row">
              <td className={cell}><input className={`${input} font-mono`} aria-label={t`Field name ${n}`} value={f.name} onChange={(e) => set(f.key, { name: e.target.value })} /></td>
              <td className={cell}><input className={input} aria-label={t`Label ${n}`} value={f.label} onChange={(e) => set(f.key, { label: e.target.value })} /></td>
              <td className={cell}><input className={input} aria-label={`中文 ${n}`} value={f.zh} onChange={(e) => set(f.key, { zh: e.target.value })} /></td>
              <td className={cell}><input className={input} aria-label={`English ${n}`} value={f.en} onChange={(e) => set(f.key, { en: e.target.value })} /></td>
              <td className={cell}><input className={input} aria-label={`Deutsch ${n}`} value={f.de} onChange={(e) => set(f.key, { de: e.target.value })} /></td>
              <td className={cell}>
                <select className={`${input} min-w-36`} aria-label={t`Type ${n}`} value={f.type} onChange={(e) => set(f.key, { type: e.target.value as FieldType })}>
                  {FIELD_TYPES.map((type) => (
                    <option key={type} value={type}>{types[type]}</option>
                  ))}
                </select>
              </td>
              <td className={cell}>
                <input
                  className={input}
                  aria-label={t`Dictionary or options ${n}`}
                  value={f.extra}
                  disabled={f.type !== 'dict' && f.type !== 'enum'}
                  placeholder={f.type === 'dict' ? t`Dictionary key` : f.type === 'enum' ? t`a, b, c` : ''}
                  onChange={(e) => set(f.key, { extra: e.target.value })}
                />
              </td>
              <td className={`${cell} text-center`}><input type="checkbox" aria-label={t`Required ${n}`} checked={f.required} onChange={(e) => set(f.key, { required: e.target.checked })} /></td>
              <td className={`${cell} text-center`}><input type="checkbox" aria-label={t`In list ${n}`} checked={f.list} onChange={(e) => set(f.key, { list: e.target.checked })} /></td>
              <td className={`${cell} text-center`}><input type="checkbox" aria-label={t`Searchable ${n}`} checked={f.search} onChange={(e) => set(f.key, { search: e.target.checked })} /></td>
              <td className={cell}>
                <button type="button" className="aw-btn-icon text-red-500" aria-label={t`Remove field ${n}`} onClick={() => onChange(fields.filter((x) => x.key !== f.key))}>×</button>
              </td>
            </tr>
            );
          })}
        </tbody>
      </table>
      <button type="button" className="aw-btn-default mt-2" disabled={fields.length >= MAX_FIELDS} onClick={() => onChange([...fields, newField()])}>
        {t`Add field`}
      </button>
    </div>
  );
}
