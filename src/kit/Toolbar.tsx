/** Toolbar pieces: the keyword search box and the advanced search drawer. */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Dialog } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { Icon } from '../ui/icons.tsx';
import { KitForm } from './Form.tsx';
import type { Form, FormItem } from './types.ts';
import { cleanQuery, emptyValue, fieldItems, initialForm, submitData } from './values.ts';

/** Keyword input debounce (specification, section 9). */
export const KEYWORD_DEBOUNCE_MS = 300;

/**
 * Typing searches 300 ms after the last keystroke. A change event (Enter, leaving the field with a
 * new text, the search button) searches at once and suppresses searching for the next 300 ms, so
 * the same text is not searched twice.
 */
export function KeywordSearch({ value, onSearch, placeholder }: { value: string; onSearch: (keyWord: string) => void; placeholder?: string | undefined }) {
  const { t } = useLingui();
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const suppressUntil = useRef(0);
  const searched = useRef(value);

  // The applied keyword changed from outside (back, a link): show it. Our own search coming back
  // leaves the text as typed (with its spaces).
  useEffect(() => {
    if (value !== searched.current) {
      setText(value);
      searched.current = value;
    }
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const run = (v: string) => {
    searched.current = v.trim();
    onSearch(v.trim());
  };
  const onInput = (v: string) => {
    setText(v);
    clearTimeout(timer.current);
    if (Date.now() < suppressUntil.current) return;
    timer.current = setTimeout(() => run(v), KEYWORD_DEBOUNCE_MS);
  };
  const onCommit = () => {
    clearTimeout(timer.current);
    suppressUntil.current = Date.now() + KEYWORD_DEBOUNCE_MS;
    run(text);
  };

  return (
    <div role="search" className="flex h-9 items-center rounded-md border border-slate-300 bg-white focus-within:border-primary focus-within:ring-3 focus-within:ring-primary-light-8">
      <input
        type="search"
        aria-label={t`Keyword`}
        placeholder={placeholder ?? t`Search keyword`}
        value={text}
        onChange={(e) => onInput(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            onCommit();
          }
        }}
        onBlur={() => {
          if (text.trim() !== searched.current) onCommit();
        }}
        className="h-full w-40 min-w-0 rounded-l-md bg-transparent px-3 text-sm outline-none placeholder:text-slate-400 sm:w-52"
      />
      <button type="button" onClick={onCommit} aria-label={t`Search`} className="flex h-full items-center rounded-r-md border-l border-slate-200 px-2.5 text-slate-500 hover:text-primary">
        <svg viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <circle cx="11" cy="11" r="7" />
          <path d="M20 20l-3.5-3.5" />
        </svg>
      </button>
    </div>
  );
}

/** The URL keys an advanced search writes: a field's top-level name, or a range's start and end. */
export function searchKeys(items: readonly FormItem[]): string[] {
  return [
    ...new Set(
      fieldItems(items).flatMap((i) => {
        if (i.type === 'datetimeRange' || (Array.isArray(i.hook) ? i.hook : [i.hook]).includes('datetimeRange')) {
          const name = i.prop!.charAt(0).toUpperCase() + i.prop!.slice(1);
          return i.range ?? [`start${name}`, `end${name}`];
        }
        return [i.prop!.split(/[.-]/)[0]!];
      }),
    ),
  ];
}

interface SearchDrawerProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  items: FormItem[];
  /** The applied filters (from the URL). */
  filters: Record<string, unknown>;
  onSearch: (filters: Record<string, unknown>) => void;
  mini: boolean;
  title?: string | undefined;
  extra?: ReactNode;
}

/** Advanced search: a drawer from the right, 30 % wide (100 % on mini screens). */
export function SearchDrawer({ open, onOpenChange, items, filters, onSearch, mini, title }: SearchDrawerProps) {
  const { t } = useLingui();
  const [form, setForm] = useState<Form>({});
  const [formKey, setFormKey] = useState(0);

  // Opening shows the applied filters.
  useEffect(() => {
    if (open) {
      setForm(initialForm(items, filters));
      setFormKey((k) => k + 1);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on opening only
  }, [open]);

  const empty = () => Object.fromEntries(fieldItems(items).map((i) => [i.prop!, emptyValue(i)]));
  const search = () => {
    onSearch(cleanQuery(submitData(items, form, 'search')));
    onOpenChange(false);
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/30" style={{ animation: 'aw-fade-in .15s' }} />
        <Dialog.Content
          aria-describedby={undefined}
          data-testid="kit-search-drawer"
          style={{ width: mini ? '100%' : '30%', animation: 'aw-drawer-in .2s ease-out' }}
          className="fixed inset-y-0 right-0 z-50 flex min-w-0 flex-col bg-white shadow-2xl outline-none md:min-w-80"
        >
          <div className="flex h-12 shrink-0 items-center border-b border-slate-100 pr-2 pl-5">
            <Dialog.Title className="flex-1 text-base font-semibold text-slate-900">{title ?? t`Advanced search`}</Dialog.Title>
            <Dialog.Close className="aw-btn-icon" aria-label={t`Close`}>
              <Icon name="x" className="size-4" />
            </Dialog.Close>
          </div>
          <form
            className="min-h-0 flex-1 overflow-auto p-5"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              search();
            }}
          >
            <KitForm key={formKey} items={items} mode="search" value={form} onChange={setForm} stacked />
            <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
          </form>
          <div className="flex shrink-0 flex-wrap justify-end gap-2 border-t border-slate-100 px-5 py-3">
            <button type="button" className="aw-btn-default" onClick={() => setForm(empty())}>
              {t`Clear`}
            </button>
            <button type="button" className="aw-btn-default" onClick={() => setForm(initialForm(items))}>
              {t`Reset`}
            </button>
            <button type="button" className="aw-btn-default" onClick={() => onOpenChange(false)}>
              {t`Close`}
            </button>
            <button type="button" className="aw-btn-primary" onClick={search}>
              {t`Search`}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
