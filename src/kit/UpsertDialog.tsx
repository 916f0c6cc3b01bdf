/**
 * The add/update/info dialog (specification, section 4 "Form dialog"): closed → open → saving →
 * closed. Update and info load the record by id first, then fill the form; info is read-only and
 * has no save button. 50 % wide, 20 px padding, fullscreen by the header button or a double-click
 * on the header, forced fullscreen under 768 px; a backdrop click never closes it and Esc closes
 * it only while not saving. Footer: close, then save (green).
 */
import { useEffect, useRef, useState } from 'react';
import { Dialog } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { Icon } from '../ui/icons.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { toast } from '../ui/toast.tsx';
import { MINI_SCREEN, useMediaQuery } from '../ui/useMediaQuery.ts';
import { KitForm, type FormHandle } from './Form.tsx';
import type { CrudService, Form, FormItem, FormMode, FormTab, Row } from './types.ts';
import { initialForm } from './values.ts';

export interface UpsertTarget {
  mode: FormMode;
  /** update/info: the record's id. */
  id?: number | string;
  /** add: values to start with (appending). */
  prefill?: Form;
  /** update/info without an `info` call: fill from this record (e.g. the table row). */
  record?: Row;
}

export interface UpsertDialogProps {
  target: UpsertTarget | null;
  onClose: () => void;
  /** After a successful save (the page refreshes its list). */
  onSaved?: () => void;
  service: CrudService;
  items: FormItem[];
  tabs?: FormTab[];
  /** Dialog title per mode; defaults Add / Edit / Details. */
  title?: string | ((mode: FormMode) => string);
  /** CSS width (default 50%). */
  width?: string;
  /** Replaces the add/update call: receives the submit data. */
  onSubmit?: (data: Form, mode: FormMode) => Promise<unknown>;
  /** Turns the loaded record into form values before filling (e.g. drop fields). */
  onInfo?: (record: Row) => Row;
}

export function UpsertDialog({ target, onClose, onSaved, service, items, tabs, title, width = '50%', onSubmit, onInfo }: UpsertDialogProps) {
  const { t } = useLingui();
  const mini = useMediaQuery(MINI_SCREEN);
  const [fullscreen, setFullscreen] = useState(false);
  const [form, setForm] = useState<Form>({});
  const [status, setStatus] = useState<'idle' | 'loading' | 'saving' | 'failed'>('idle');
  const [formKey, setFormKey] = useState(0);
  const handle = useRef<FormHandle>(null);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const mode = target?.mode ?? 'add';
  const open = target !== null;

  // Opening: fill (add) or load by id, then fill (update/info).
  useEffect(() => {
    if (!target) return;
    setFullscreen(false);
    setFormKey((k) => k + 1);
    if (target.mode === 'add' || target.id === undefined) {
      setForm(initialForm(itemsRef.current, target.prefill));
      setStatus('idle');
      return;
    }
    if (target.record) {
      setForm(initialForm(itemsRef.current, onInfo ? onInfo(target.record) : target.record));
      setStatus('idle');
      return;
    }
    if (!service.info) {
      setStatus('failed');
      return;
    }
    let live = true;
    setForm(initialForm(itemsRef.current));
    setStatus('loading');
    service.info({ id: target.id }).then(
      (record) => {
        if (!live) return;
        const row = onInfo ? onInfo(record) : record;
        setForm(initialForm(itemsRef.current, { ...row, id: row.id ?? target.id }));
        setFormKey((k) => k + 1);
        setStatus('idle');
      },
      () => live && setStatus('failed'),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new target reloads
  }, [target]);

  const saving = status === 'saving';

  const save = async () => {
    const data = handle.current?.submit();
    if (!data) return;
    setStatus('saving');
    try {
      if (onSubmit) await onSubmit(data, mode);
      else if (mode === 'add') await service.add?.(data);
      else await service.update?.(data);
      toast.success(t`Save successful`);
      setStatus('idle');
      onClose();
      onSaved?.();
    } catch {
      // The client showed the error; the dialog stays open with the user's input.
      setStatus('idle');
    }
  };

  const heading = typeof title === 'function' ? title(mode) : (title ?? (mode === 'add' ? t`Add` : mode === 'update' ? t`Edit` : t`Details`));
  const full = fullscreen || mini;

  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && !saving && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" style={{ animation: 'aw-fade-in .15s' }} />
        <Dialog.Content
          aria-describedby={undefined}
          data-fullscreen={full}
          onPointerDownOutside={(e) => e.preventDefault()}
          onInteractOutside={(e) => e.preventDefault()}
          onEscapeKeyDown={(e) => {
            if (saving) e.preventDefault();
          }}
          style={full ? undefined : { width, maxWidth: 'calc(100vw - 32px)', animation: 'aw-pop-in .15s' }}
          className={[
            'fixed z-50 flex flex-col bg-white shadow-xl outline-none',
            full ? 'inset-0' : 'top-[8vh] left-1/2 max-h-[84vh] min-w-[min(560px,calc(100vw-32px))] -translate-x-1/2 rounded-lg',
          ].join(' ')}
        >
          <div className="flex h-12 shrink-0 items-center gap-2 border-b border-slate-100 pr-2 pl-5 select-none" onDoubleClick={() => !mini && setFullscreen((f) => !f)} data-testid="kit-dialog-header">
            <Dialog.Title className="min-w-0 flex-1 truncate text-base font-semibold text-slate-900">{heading}</Dialog.Title>
            {!mini && (
              <button type="button" className="aw-btn-icon" onClick={() => setFullscreen((f) => !f)} aria-pressed={fullscreen} aria-label={fullscreen ? t`Exit fullscreen` : t`Fullscreen`}>
                <Icon name="maximize" className="size-4" />
              </button>
            )}
            <Dialog.Close className="aw-btn-icon" aria-label={t`Close`} disabled={saving}>
              <Icon name="x" className="size-4" />
            </Dialog.Close>
          </div>
          <div className="relative min-h-0 flex-1 overflow-auto p-5">
            {status === 'loading' && (
              <div role="status" className="absolute inset-0 z-10 flex items-center justify-center gap-2 bg-white/70 text-sm text-slate-500">
                <Spinner />
                {t`Loading…`}
              </div>
            )}
            {status === 'failed' ? (
              <p role="alert" className="text-sm text-red-600">{t`The data could not be loaded.`}</p>
            ) : (
              <form
                noValidate
                onSubmit={(e) => {
                  e.preventDefault();
                  if (mode !== 'info') void save();
                }}
              >
                <KitForm key={formKey} ref={handle} items={items} tabs={tabs} mode={mode} value={form} onChange={setForm} disabled={saving || status === 'loading'} />
                {/* Enter in a text field submits. */}
                <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
              </form>
            )}
          </div>
          <div className="flex shrink-0 justify-end gap-2 border-t border-slate-100 px-5 py-3">
            <button type="button" className="aw-btn-default" onClick={onClose} disabled={saving}>
              {t`Close`}
            </button>
            {mode !== 'info' && (
              <button type="button" className="aw-btn bg-emerald-600 text-white hover:bg-emerald-700" onClick={() => void save()} disabled={saving || status !== 'idle'}>
                {saving && <Spinner className="size-4 text-white" />}
                {t`Save`}
              </button>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
