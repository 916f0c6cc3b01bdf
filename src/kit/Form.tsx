/**
 * The kit's form: items on a 24-column grid with 100 px labels, optional tabs (lazy, first active)
 * and collapsible groups, required-field validation (skipped in info mode). Tabs switch freely;
 * a failed submit opens the tab of the first failing field and focuses it. Long labels wrap. `submit()` returns the data to send (hooks applied, hidden items dropped,
 * dotted props nested), or null when invalid.
 */
import { useEffect, useId, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { Tabs } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { Icon } from '../ui/icons.tsx';
import { ConfigError, Field } from './fields.tsx';
import type { Form, FormItem, FormMode, FormTab } from './types.ts';
import { fieldItems, isDisabled, isEmptyValue, isHidden, submitData } from './values.ts';

export interface FormHandle {
  /** Validates everything; on failure opens the first failing field's tab and focuses it. */
  validate(): boolean;
  /** Validated submit data, or null. */
  submit(): Form | null;
  values(): Form;
}

export interface KitFormProps {
  items: FormItem[];
  tabs?: FormTab[];
  mode: FormMode | 'search';
  value: Form;
  onChange: (next: Form) => void;
  ref?: Ref<FormHandle>;
  /** Override of the 100 px label width (grown for labels with a wider word). */
  labelWidth?: number;
  /** Labels above the controls (search drawer). */
  stacked?: boolean;
  /** Disable every control (e.g. while saving). */
  disabled?: boolean;
}

export const LABEL_WIDTH = 100;

/**
 * 24 columns have 23 gaps: a fixed 1rem gap alone needs 368 px, wider than the 30 % search drawer
 * at 1280 px (344 px inside), which pushed the controls out past its right edge. The gap shrinks
 * with narrow forms instead.
 */
const GRID = 'grid grid-cols-24 gap-x-[min(1rem,2.5%)] gap-y-4';

/** Widest word of each label already measured, in px at the labels' 14 px. */
const wordWidths = new Map<string, number>();
let measureCtx: OffscreenCanvasRenderingContext2D | null | undefined;

function widestWord(label: string): number {
  const known = wordWidths.get(label);
  if (known !== undefined) return known;
  if (measureCtx === undefined) {
    // Without a canvas (jsdom) labels only wrap.
    measureCtx = typeof OffscreenCanvas === 'undefined' ? null : new OffscreenCanvas(1, 1).getContext('2d');
  }
  if (!measureCtx) return 0;
  measureCtx.font = `14px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
  const width = Math.max(0, ...label.split(/\s+/).map((w) => measureCtx!.measureText(w).width));
  wordWidths.set(label, width);
  return width;
}

/**
 * The label column: the given width (100 px by default), grown up to 1.6 times when a single word
 * of a label is wider (German compounds such as "Drahtdurchmesser"), so that labels wrap between
 * words and are not broken inside one. One width for the whole form keeps the controls aligned.
 */
function labelColumn(items: readonly FormItem[], base: number): number {
  let widest = 0;
  for (const item of fieldItems(items)) if (item.label) widest = Math.max(widest, widestWord(item.label) + (item.required ? 10 : 0));
  return Math.round(Math.min(base * 1.6, Math.max(base, widest + 2)));
}

/** The tab of an item; items without a (known) tab go to the first; fields in a group follow it. */
function tabOf(item: FormItem, tabs: FormTab[] | undefined): string | undefined {
  if (!tabs?.length) return undefined;
  return item.tab && tabs.some((t) => t.name === item.tab) ? item.tab : tabs[0]!.name;
}

/** Each field's tab, groups passing theirs on to their children. */
function fieldTabs(items: readonly FormItem[], tabs: FormTab[] | undefined, inherited?: string, out = new Map<FormItem, string | undefined>()) {
  for (const item of items) {
    const own = item.tab ? tabOf(item, tabs) : (inherited ?? tabOf(item, tabs));
    if (item.type === 'group') fieldTabs(item.children ?? [], tabs, own, out);
    else if (item.prop) out.set(item, own);
  }
  return out;
}

export function KitForm({ items, tabs, mode, value, onChange, ref, labelWidth = LABEL_WIDTH, stacked = false, disabled = false }: KitFormProps) {
  const { t } = useLingui();
  const formId = useId();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [tab, setTab] = useState(tabs?.[0]?.name);
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set(tabs?.[0] ? [tabs[0].name] : []));
  // Groups are keyed by their order in the items (callers may rebuild the items on each render).
  const groups = allGroups(items);
  const groupKey = new Map(groups.map((g, i) => [g, `g${i}`]));
  const [folded, setFolded] = useState<ReadonlySet<string>>(() => new Set(groups.flatMap((g, i) => (g.collapsed ? [`g${i}`] : []))));
  const tabsOfFields = fieldTabs(items, tabs);
  const labelPx = stacked ? labelWidth : labelColumn(items, labelWidth);
  const [focusProp, setFocusProp] = useState<string | null>(null);
  const valueRef = useRef(value);
  valueRef.current = value;

  const ctx = { form: value, mode };
  const fieldId = (prop: string) => `${formId}-${prop.replace(/[^\w-]/g, '_')}`;

  const check = (list: FormItem[], form: Form): Record<string, string> => {
    const found: Record<string, string> = {};
    if (mode === 'info') return found;
    for (const item of list) {
      if (isHidden(item, { form, mode })) continue;
      const v = form[item.prop!];
      const label = item.label ?? item.prop!;
      if (item.required && isEmptyValue(v)) found[item.prop!] = t`${label} cannot be empty`;
      else {
        const msg = item.validate?.(v, form);
        if (msg) found[item.prop!] = msg;
      }
    }
    return found;
  };

  const validate = () => {
    const form = valueRef.current;
    const fields = fieldItems(items);
    const found = check(fields, form);
    setErrors(found);
    const first = fields.find((i) => found[i.prop!]);
    if (!first) return true;
    const target = tabsOfFields.get(first);
    if (target) {
      setTab(target);
      setOpened((o) => new Set([...o, target]));
    }
    // Unfold the groups holding failing fields.
    const holders = groups.filter((g) => fieldItems(g.children ?? []).some((i) => found[i.prop!])).map((g) => groupKey.get(g)!);
    if (holders.length) setFolded((f) => new Set([...f].filter((g) => !holders.includes(g))));
    setFocusProp(first.prop!);
    return false;
  };

  useImperativeHandle(ref, () => ({
    validate,
    submit: () => (validate() ? submitData(items, valueRef.current, mode) : null),
    values: () => valueRef.current,
  }));

  useEffect(() => {
    if (!focusProp) return;
    const el = document.getElementById(fieldId(focusProp));
    if (el) {
      el.focus();
      setFocusProp(null);
    }
  });

  // Tabs can always be switched (users look around before filling everything in); required
  // fields are checked on submit, which opens the tab of the first failing field (docs/kit.md).
  const changeTab = (next: string) => {
    if (next === tab) return;
    setTab(next);
    setOpened((o) => new Set([...o, next]));
  };

  const set = (prop: string, v: unknown) => {
    const next = { ...valueRef.current, [prop]: v };
    valueRef.current = next;
    onChange(next);
    if (errors[prop]) setErrors(({ [prop]: _gone, ...rest }) => rest);
  };

  const renderItems = (list: FormItem[]) =>
    list.map((item, index) => {
      if (isHidden(item, ctx)) return null;
      const span = Math.min(24, Math.max(1, item.span ?? 24));
      const style = { gridColumn: `span ${span} / span ${span}` };
      if (item.type === 'group') {
        const key = groupKey.get(item) ?? `g-${index}`;
        const isFolded = folded.has(key);
        const groupId = `${formId}-${key}`;
        return (
          <fieldset key={key} style={style} className="col-span-24 min-w-0 rounded-md border border-slate-200 max-md:!col-span-24">
            <legend className="ml-2 px-1">
              <button
                type="button"
                aria-expanded={!isFolded}
                aria-controls={groupId}
                onClick={() => setFolded((f) => (f.has(key) ? new Set([...f].filter((g) => g !== key)) : new Set([...f, key])))}
                className="flex items-center gap-1 rounded px-1 text-sm font-medium text-slate-700 outline-none hover:text-primary focus-visible:ring-2 focus-visible:ring-primary-light-5"
              >
                <Icon name="chevronDown" className={`size-3.5 transition-transform ${isFolded ? '-rotate-90' : ''}`} />
                {item.label}
              </button>
            </legend>
            <div id={groupId} hidden={isFolded} className={`${GRID} px-3 pt-1 pb-3`}>
              {renderItems(item.children ?? [])}
            </div>
          </fieldset>
        );
      }
      if (!item.prop) {
        return (
          <div key={`bad-${index}`} style={style}>
            <ConfigError nameRequired />
          </div>
        );
      }
      const id = fieldId(item.prop);
      const error = errors[item.prop];
      const label = item.label ?? '';
      return (
        <div
          key={item.prop}
          style={{ ...style, ...(stacked ? {} : { gridTemplateColumns: `${labelPx}px minmax(0, 1fr)` }) }}
          className={`min-w-0 max-md:!col-span-24 ${stacked ? 'flex flex-col' : 'grid items-start gap-x-3'}`}
          data-prop={item.prop}
        >
          <label htmlFor={id} className={`text-sm text-slate-600 ${stacked ? 'mb-1.5 font-medium' : 'flex min-h-10 min-w-0 items-center justify-end text-right leading-tight'}`}>
            {/* One wrapping box: long (German) labels break onto more lines, hyphenated, instead of
                overflowing the label column to the left with their asterisk. */}
            <span className="min-w-0 hyphens-auto [overflow-wrap:anywhere]" data-label>
              {item.required && mode !== 'info' && (
                <span className="mr-0.5 text-red-500" aria-hidden="true">
                  *
                </span>
              )}
              {label}
            </span>
          </label>
          <div className="min-w-0">
            <Field
              item={item}
              id={id}
              value={value[item.prop]}
              onChange={(v) => set(item.prop!, v)}
              disabled={disabled || isDisabled(item, ctx)}
              readOnly={mode === 'info'}
              invalid={!!error}
              form={value}
              mode={mode}
              describedBy={error ? `${id}-error` : undefined}
            />
            {error && (
              <p id={`${id}-error`} role="alert" className="aw-field-error">
                {error}
              </p>
            )}
          </div>
        </div>
      );
    });

  const grid = GRID;
  if (!tabs?.length) return <div className={grid}>{renderItems(items)}</div>;

  return (
    <Tabs.Root value={tab} onValueChange={changeTab}>
      <Tabs.List className="mb-4 flex gap-1 border-b border-slate-200">
        {tabs.map((tb) => (
          <Tabs.Trigger
            key={tb.name}
            value={tb.name}
            className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm text-slate-600 outline-none hover:text-primary focus-visible:ring-2 focus-visible:ring-primary-light-5 data-[state=active]:border-primary data-[state=active]:font-medium data-[state=active]:text-primary"
          >
            {tb.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {tabs.map((tb) => {
        const lazy = tb.lazy !== false;
        if (lazy && !opened.has(tb.name)) return null;
        return (
          <Tabs.Content key={tb.name} value={tb.name} forceMount hidden={tb.name !== tab} className="outline-none">
            <div className={grid}>{renderItems(items.filter((i) => tabOf(i, tabs) === tb.name))}</div>
          </Tabs.Content>
        );
      })}
    </Tabs.Root>
  );
}

function allGroups(items: readonly FormItem[]): FormItem[] {
  return items.flatMap((i) => (i.type === 'group' ? [i, ...allGroups(i.children ?? [])] : []));
}
