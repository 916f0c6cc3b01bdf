/**
 * Form values (pure, no React): value hooks, nested props, hidden items, search queries
 * (specification, section 5 "Submit").
 */
import type { Form, FormItem, FormMode, HookName, ItemContext } from './types.ts';

/** `a.b` and `a-b` both name the path a → b. */
export function propPath(prop: string): string[] {
  return prop.split(/[.-]/).filter(Boolean);
}

export function getPath(obj: Record<string, unknown>, prop: string): unknown {
  if (prop in obj) return obj[prop];
  let cur: unknown = obj;
  for (const key of propPath(prop)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** Sets a nested value, creating plain objects on the way. */
export function setPath(obj: Record<string, unknown>, prop: string, value: unknown): void {
  const keys = propPath(prop);
  let cur = obj;
  keys.forEach((key, i) => {
    if (i === keys.length - 1) {
      cur[key] = value;
      return;
    }
    const next = cur[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) cur[key] = {};
    cur = cur[key] as Record<string, unknown>;
  });
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Start and end field names of a datetimeRange item. */
export function rangeProps(item: Pick<FormItem, 'prop' | 'range'>): [string, string] {
  if (item.range) return item.range;
  const name = capital(item.prop ?? 'time');
  return [`start${name}`, `end${name}`];
}

const splitCommas = (v: unknown): unknown =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
    : v;
const joinCommas = (v: unknown): unknown => (Array.isArray(v) ? v.join(',') : v);
const mapEach = (v: unknown, fn: (x: unknown) => unknown) => (Array.isArray(v) ? v.map(fn) : fn(v));

/** What a hook does on submit. `out` receives extra fields (datetimeRange). */
function submitHook(name: HookName, value: unknown, item: FormItem, out: Form): unknown {
  switch (name) {
    case 'number':
      return mapEach(value, (x) => (x === '' || x === null || x === undefined ? x : Number(x)));
    case 'string':
      return mapEach(value, (x) => (x === null || x === undefined ? x : String(x)));
    case 'split':
      return splitCommas(value);
    case 'join':
      return joinCommas(value);
    case 'boolean':
      return Boolean(value);
    case 'booleanNumber':
      return value === true || value === 1 || value === '1' ? 1 : 0;
    case 'datetimeRange': {
      const [start, end] = rangeProps(item);
      const [a, b] = Array.isArray(value) ? value : [];
      out[start] = a || undefined;
      out[end] = b || undefined;
      return undefined;
    }
    case 'json':
      return value === undefined ? value : JSON.stringify(value);
    case 'empty':
      return value === '' || (Array.isArray(value) && value.length === 0) ? undefined : value;
  }
}

/** The inverse of a hook, for filling the form from a record. */
function bindHook(name: HookName, value: unknown, item: FormItem, record: Form): unknown {
  switch (name) {
    case 'split':
      return joinCommas(value);
    case 'join':
      return value === '' || value === null || value === undefined ? [] : splitCommas(String(value));
    case 'booleanNumber':
      return value === 1 || value === true || value === '1';
    case 'datetimeRange': {
      const [start, end] = rangeProps(item);
      const a = record[start];
      const b = record[end];
      return a || b ? [a ?? '', b ?? ''] : Array.isArray(value) ? value : [];
    }
    case 'json':
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    default:
      return value;
  }
}

const hooksOf = (item: FormItem): HookName[] =>
  item.hook ? (Array.isArray(item.hook) ? item.hook : [item.hook]) : item.type === 'datetimeRange' ? ['datetimeRange'] : [];

/** Items with a prop, groups flattened. */
export function fieldItems(items: readonly FormItem[]): FormItem[] {
  return items.flatMap((item) => (item.type === 'group' ? fieldItems(item.children ?? []) : item.prop ? [item] : []));
}

export function isHidden(item: FormItem, ctx: ItemContext): boolean {
  return typeof item.hidden === 'function' ? item.hidden(ctx) : !!item.hidden;
}

export function isDisabled(item: FormItem, ctx: ItemContext): boolean {
  return typeof item.disabled === 'function' ? item.disabled(ctx) : !!item.disabled;
}

/** A form's starting values: each item's `value`, then the record (through the bind hooks). */
export function initialForm(items: readonly FormItem[], record?: Form): Form {
  const form: Form = {};
  for (const item of fieldItems(items)) {
    const prop = item.prop!;
    let value = record ? getPath(record, prop) : undefined;
    if (record) for (const hook of hooksOf(item)) value = bindHook(hook, value, item, record);
    if (value === undefined || (item.type === 'datetimeRange' && Array.isArray(value) && value.length === 0 && item.value !== undefined)) {
      value = structuredCloneSafe(item.value);
    }
    form[prop] = value ?? emptyValue(item);
  }
  // Fields of the record the form does not show travel along (id and the like).
  if (record) for (const [k, v] of Object.entries(record)) if (!(k in form)) form[k] = v;
  return form;
}

function structuredCloneSafe(v: unknown): unknown {
  return v !== null && typeof v === 'object' ? JSON.parse(JSON.stringify(v)) : v;
}

export function emptyValue(item: FormItem): unknown {
  switch (item.type) {
    case 'switch':
      return false;
    case 'datetimeRange':
      return [];
    case 'select':
    case 'treeSelect':
      return item.multiple ? [] : undefined;
    case 'upload':
      return (item.limit ?? 1) > 1 ? [] : '';
    case 'number':
      return undefined;
    default:
      return '';
  }
}

/**
 * The data a form submits: hidden items dropped, value hooks applied, dotted/dashed props nested.
 * Keys of `form` that no item declares (like `id`) pass through unchanged.
 */
export function submitData(items: readonly FormItem[], form: Form, mode: FormMode | 'search'): Form {
  const ctx: ItemContext = { form, mode };
  const fields = fieldItems(items);
  const declared = new Set(fields.map((i) => i.prop!));
  const out: Form = {};
  for (const [k, v] of Object.entries(form)) if (!declared.has(k)) out[k] = v;
  const extra: Form = {};
  for (const item of fields) {
    if (isHidden(item, ctx)) continue;
    let value = form[item.prop!];
    for (const hook of hooksOf(item)) value = submitHook(hook, value, item, extra);
    if (value === undefined && hooksOf(item).includes('datetimeRange')) continue;
    setPath(out, item.prop!, value);
  }
  for (const [k, v] of Object.entries(extra)) setPath(out, k, v);
  return out;
}

/** Search queries leave out empty values: '', null, undefined and []. */
export function cleanQuery<T extends Record<string, unknown>>(query: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) {
    if (v === '' || v === null || v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out as Partial<T>;
}

/** Whether a required value counts as empty. */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0 || value.every((v) => v === '' || v === null || v === undefined);
  if (typeof value === 'number') return Number.isNaN(value);
  return false;
}
