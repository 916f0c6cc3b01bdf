/** The controls of form items: one component per item type. */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Popover } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { request } from '../api/client.ts';
import { hasPerm } from '../app/store.ts';
import { permPrefix } from './service.ts';
import { Icon } from '../ui/icons.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { useOptions } from './dict.ts';
import { MAX_UPLOAD_FILES, uploadFile, useFileUrl } from './upload.ts';
import { RegionField } from './RegionField.tsx';
import type { FormItem, FormMode, Option, Row, TreeNode, Form } from './types.ts';

export interface FieldProps {
  item: FormItem;
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
  disabled: boolean;
  invalid: boolean;
  form: Form;
  mode: FormMode | 'search';
  describedBy?: string | undefined;
  /** Info mode: text stays selectable (read-only), other controls are disabled. */
  readOnly?: boolean;
}

const INPUT = 'aw-input disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500 read-only:bg-slate-50 read-only:text-slate-600 read-only:focus:ring-0';

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** `YYYY-MM-DD HH:mm:ss` (server) ↔ `YYYY-MM-DDTHH:mm` (datetime-local input). */
const toLocalInput = (v: unknown) => str(v).replace(' ', 'T').slice(0, 16);
const fromLocalInput = (v: string) => (v ? `${v.replace('T', ' ')}${v.length === 16 ? ':00' : ''}` : '');

export function Field(props: FieldProps): ReactNode {
  const { item, id, value, onChange, invalid, describedBy, readOnly = false } = props;
  const disabled = props.disabled || readOnly;
  const text = {
    id,
    disabled: props.disabled,
    readOnly,
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy,
    'aria-required': item.required || undefined,
  } as const;
  const common = { ...text, disabled, readOnly: undefined };
  const inner = { ...props, disabled };
  const placeholder = item.placeholder ?? '';
  switch (item.type ?? 'input') {
    case 'input':
    case 'password':
      return (
        <input
          {...text}
          type={item.type === 'password' ? 'password' : 'text'}
          autoComplete={item.type === 'password' ? 'new-password' : 'off'}
          className={INPUT}
          placeholder={placeholder}
          value={str(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'textarea':
      return <textarea {...text} rows={4} className={`${INPUT} h-auto py-2`} placeholder={placeholder} value={str(value)} onChange={(e) => onChange(e.target.value)} />;
    case 'number':
      return (
        <input
          {...text}
          type="number"
          className={INPUT}
          placeholder={placeholder}
          min={item.min}
          max={item.max}
          step={item.step}
          value={value === undefined || value === null || Number.isNaN(value) ? '' : str(value)}
          onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
        />
      );
    case 'date':
      return <input {...text} type="date" className={INPUT} value={str(value).slice(0, 10)} onChange={(e) => onChange(e.target.value)} />;
    case 'datetime':
      return <input {...text} type="datetime-local" className={INPUT} value={toLocalInput(value)} onChange={(e) => onChange(fromLocalInput(e.target.value))} />;
    case 'datetimeRange':
      return <RangeField {...inner} />;
    case 'switch':
      return (
        <button
          {...common}
          type="button"
          role="switch"
          aria-checked={value === true || value === 1}
          onClick={() => onChange(!(value === true || value === 1))}
          className="group relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-slate-300 transition-colors outline-none focus-visible:ring-2 focus-visible:ring-primary-light-5 disabled:cursor-not-allowed disabled:opacity-60 aria-checked:bg-primary"
        >
          <span className="inline-block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform group-aria-checked:translate-x-[22px]" />
        </button>
      );
    case 'select':
      return item.multiple ? <MultiSelect {...inner} /> : <SelectField {...inner} />;
    case 'radio':
      return <RadioField {...inner} />;
    case 'treeSelect':
      return <TreeSelect {...inner} />;
    case 'upload':
      return <UploadField {...inner} />;
    case 'region':
      return <RegionField id={id} value={value} onChange={onChange} disabled={disabled} invalid={invalid} placeholder={item.placeholder} />;
    case 'custom':
      return item.render ? item.render({ id, value, onChange, disabled, invalid, form: props.form, mode: props.mode }) : <ConfigError name={item.prop ?? '?'} />;
    default:
      return <ConfigError />;
  }
}

/**
 * Inline error of a misconfigured component (specification, section 8): "Component options
 * error", "{name} is not found" (a custom item without its render), "Error, name is required"
 * (a form item without a prop).
 */
export function ConfigError({ name, nameRequired = false }: { name?: string; nameRequired?: boolean }) {
  const { t } = useLingui();
  return (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
      {nameRequired ? t`Error, name is required` : name ? t`${name} is not found` : t`Component options error`}
    </p>
  );
}

function SelectField({ item, value, onChange, invalid, disabled, id, describedBy }: FieldProps) {
  const { t } = useLingui();
  const options = useOptions(item.options);
  const index = options.findIndex((o) => o.value === value || String(o.value) === str(value));
  return (
    <select
      id={id}
      disabled={disabled}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      aria-required={item.required || undefined}
      className={`${INPUT} pr-8`}
      value={index < 0 ? '' : String(index)}
      onChange={(e) => onChange(e.target.value === '' ? undefined : options[Number(e.target.value)]?.value)}
    >
      <option value="">{item.placeholder ?? t`Please select`}</option>
      {options.map((o, i) => (
        <option key={`${i}-${String(o.value)}`} value={String(i)}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

function MultiSelect({ item, value, onChange, invalid, disabled, id }: FieldProps) {
  const { t } = useLingui();
  const options = useOptions(item.options);
  const chosen = Array.isArray(value) ? value : [];
  const has = (o: Option) => chosen.some((v) => v === o.value || String(v) === String(o.value));
  const labels = options.filter(has).map((o) => o.label);
  return (
    <Popover.Root>
      <Popover.Trigger
        id={id}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        className={`${INPUT} flex items-center justify-between gap-2 text-left`}
      >
        <span className={`truncate ${labels.length ? '' : 'text-slate-400'}`}>{labels.length ? labels.join(', ') : (item.placeholder ?? t`Please select`)}</span>
        <Icon name="chevronDown" className="size-3.5 shrink-0 opacity-60" />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content align="start" sideOffset={4} className="aw-menu z-[60] max-h-72 w-[var(--radix-popover-trigger-width)] overflow-auto">
          {options.map((o) => (
            <label key={String(o.value)} className="flex h-8 cursor-pointer items-center gap-2 rounded-md px-2.5 hover:bg-primary-light-9">
              <input
                type="checkbox"
                className="accent-primary"
                checked={has(o)}
                onChange={(e) => onChange(e.target.checked ? [...chosen, o.value] : chosen.filter((v) => String(v) !== String(o.value)))}
              />
              {o.label}
            </label>
          ))}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function RadioField({ item, value, onChange, disabled, id }: FieldProps) {
  const options = useOptions(item.options);
  return (
    <div id={id} role="radiogroup" className="flex min-h-10 flex-wrap items-center gap-x-4 gap-y-1">
      {options.map((o) => (
        <label key={String(o.value)} className="flex cursor-pointer items-center gap-1.5 text-sm">
          <input type="radio" className="accent-primary" name={id} disabled={disabled} checked={String(value) === String(o.value)} onChange={() => onChange(o.value)} />
          {o.label}
        </label>
      ))}
    </div>
  );
}

function RangeField({ value, onChange, disabled, id, invalid }: FieldProps) {
  const { t } = useLingui();
  const [a, b] = Array.isArray(value) ? value : [];
  const set = (i: 0 | 1, v: string) => {
    const next = [a ?? '', b ?? ''];
    next[i] = fromLocalInput(v);
    onChange(next[0] || next[1] ? next : []);
  };
  return (
    // Two datetime inputs need ~26rem side by side; narrower (the 30 % search drawer) they stack.
    <div className="@container">
      <div className="flex flex-col gap-2 @md:flex-row @md:items-center">
        <input id={id} aria-label={t`Start time`} aria-invalid={invalid || undefined} type="datetime-local" disabled={disabled} className={`${INPUT} min-w-0 @md:flex-1`} value={toLocalInput(a)} onChange={(e) => set(0, e.target.value)} />
        <span className="hidden text-slate-400 @md:inline">–</span>
        <input aria-label={t`End time`} type="datetime-local" disabled={disabled} className={`${INPUT} min-w-0 @md:flex-1`} value={toLocalInput(b)} onChange={(e) => set(1, e.target.value)} />
      </div>
    </div>
  );
}

/** Rows with id/parentId → tree (roots are rows whose parent is not among them). */
export function toTree(rows: readonly Row[], labelKey = 'name'): TreeNode[] {
  const nodes = new Map<string, TreeNode & { parent: unknown }>();
  for (const r of rows) nodes.set(String(r.id), { id: r.id as number, label: str(r[labelKey]), parent: r.parentId, children: [] });
  const roots: TreeNode[] = [];
  for (const n of nodes.values()) {
    const parent = n.parent === null || n.parent === undefined ? undefined : nodes.get(String(n.parent));
    if (parent && parent !== n) parent.children!.push(n);
    else roots.push(n);
  }
  const strip = (list: TreeNode[]): TreeNode[] => list.map(({ id, label, children }) => ({ id, label, children: strip(children ?? []) }));
  return strip(roots);
}

function useTree(source: FormItem['tree']): { nodes: TreeNode[]; loading: boolean } {
  const [loaded, setLoaded] = useState<TreeNode[] | null>(null);
  const service = source && !Array.isArray(source) ? source.service : undefined;
  const labelKey = source && !Array.isArray(source) ? source.labelKey : undefined;
  useEffect(() => {
    if (!service) return;
    // Without the permission the call would only answer 403 (an error toast): do not ask.
    if (!hasPerm(`${permPrefix(service)}:list`)) {
      setLoaded([]);
      return;
    }
    let live = true;
    request<Row[]>({ url: `${service.replace(/\/+$/, '')}/list`, method: 'POST', data: {} }).then(
      (rows) => live && setLoaded(toTree(Array.isArray(rows) ? rows : [], labelKey)),
      () => live && setLoaded([]),
    );
    return () => {
      live = false;
    };
  }, [service, labelKey]);
  if (Array.isArray(source)) return { nodes: source, loading: false };
  return { nodes: loaded ?? [], loading: !!service && loaded === null };
}

function flatten(nodes: readonly TreeNode[]): TreeNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
}

function TreeSelect({ item, value, onChange, disabled, invalid, id }: FieldProps) {
  const { t } = useLingui();
  const { nodes, loading } = useTree(item.tree);
  const all = useMemo(() => flatten(nodes), [nodes]);
  const chosen = item.multiple ? (Array.isArray(value) ? value.map(String) : []) : value === undefined || value === null || value === '' ? [] : [String(value)];
  const labels = all.filter((n) => chosen.includes(String(n.id))).map((n) => n.label);
  const [open, setOpen] = useState(false);
  const pick = (n: TreeNode) => {
    if (!item.multiple) {
      onChange(n.id);
      setOpen(false);
      return;
    }
    const current = Array.isArray(value) ? value : [];
    onChange(chosen.includes(String(n.id)) ? current.filter((v) => String(v) !== String(n.id)) : [...current, n.id]);
  };
  const render = (list: readonly TreeNode[], depth: number): ReactNode =>
    list.map((n) => (
      <div key={String(n.id)}>
        <button
          type="button"
          role={item.multiple ? 'menuitemcheckbox' : 'menuitemradio'}
          aria-checked={chosen.includes(String(n.id))}
          onClick={() => pick(n)}
          style={{ paddingLeft: 10 + depth * 16 }}
          className="flex h-8 w-full items-center gap-2 rounded-md pr-2.5 text-left hover:bg-primary-light-9 aria-checked:font-medium aria-checked:text-primary"
        >
          {item.multiple && <input type="checkbox" tabIndex={-1} readOnly checked={chosen.includes(String(n.id))} className="pointer-events-none accent-primary" />}
          <span className="truncate">{n.label}</span>
        </button>
        {n.children && n.children.length > 0 && render(n.children, depth + 1)}
      </div>
    ));
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger id={id} disabled={disabled} aria-invalid={invalid || undefined} className={`${INPUT} flex items-center justify-between gap-2 text-left`}>
        <span className={`truncate ${labels.length ? '' : 'text-slate-400'}`}>{labels.length ? labels.join(', ') : (item.placeholder ?? t`Please select`)}</span>
        <Icon name="chevronDown" className="size-3.5 shrink-0 opacity-60" />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content role="menu" align="start" sideOffset={4} className="aw-menu z-[60] max-h-72 w-[var(--radix-popover-trigger-width)] overflow-auto">
          {loading ? <Spinner className="m-2 size-4" /> : nodes.length ? render(nodes, 0) : <p className="px-2.5 py-1.5 text-slate-400">{t`No data`}</p>}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function UploadField({ item, value, onChange, disabled, id }: FieldProps) {
  const { t } = useLingui();
  // At most 9 files per upload (spec §9, the server's limit too).
  const limit = Math.min(MAX_UPLOAD_FILES, Math.max(1, item.limit ?? 1));
  const urls = (Array.isArray(value) ? value : value ? [value] : []).map(String);
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const set = (next: string[]) => onChange(limit > 1 ? next : (next[0] ?? ''));
  const onFiles = async (files: FileList | null) => {
    if (!files?.length) return;
    setBusy(true);
    setError('');
    try {
      const room = Math.max(0, limit - (limit > 1 ? urls.length : 0));
      const picked = [...files].slice(0, Math.max(room, 1));
      const added: string[] = [];
      for (const f of picked) added.push(await uploadFile(f, item.kind ? { kind: item.kind } : {}));
      set(limit > 1 ? [...urls, ...added].slice(0, limit) : added.slice(0, 1));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  const image = (u: string) => /\.(png|jpe?g|gif|webp|svg|bmp)(\?|$)/i.test(u);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        {urls.map((u) => (
          <div key={u} className="relative flex size-[120px] items-center justify-center overflow-hidden rounded-md border border-slate-200 bg-slate-50">
            <Preview url={u} image={item.kind === 'image' || (item.accept ?? '').includes('image') || image(u)} />
            {!disabled && (
              <button type="button" aria-label={t`Remove`} onClick={() => set(urls.filter((x) => x !== u))} className="absolute top-0.5 right-0.5 rounded bg-white/90 p-0.5 text-slate-600 shadow hover:text-red-600">
                <Icon name="x" className="size-3" />
              </button>
            )}
          </div>
        ))}
        {!disabled && (limit > 1 ? urls.length < limit : true) && (
          <button
            type="button"
            id={id}
            onClick={() => input.current?.click()}
            disabled={busy}
            className="flex size-[120px] flex-col items-center justify-center gap-1 rounded-md border border-dashed border-slate-300 text-xs text-slate-500 hover:border-primary hover:text-primary"
          >
            {busy ? <Spinner className="size-4" /> : <span className="text-xl leading-none">+</span>}
            {t`Upload`}
          </button>
        )}
      </div>
      <input ref={input} type="file" hidden accept={item.accept} multiple={limit > 1} onChange={(e) => void onFiles(e.target.files)} data-testid={`upload-${item.prop}`} />
      {error && (
        <p role="alert" className="aw-field-error">
          {error}
        </p>
      )}
    </div>
  );
}

function Preview({ url, image }: { url: string; image: boolean }) {
  const src = useFileUrl(image ? url : '');
  return image && src ? <img src={src} alt="" className="size-full object-cover" /> : <Icon name="file" className="size-6 text-slate-400" />;
}
