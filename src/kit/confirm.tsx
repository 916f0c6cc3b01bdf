/**
 * A confirmation dialog as a promise: `const [confirm, dialog] = useConfirm()`, render `dialog`,
 * then `if (await confirm({ message })) ...`. The title defaults to "Tips".
 */
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { AlertDialog } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { Icon } from '../ui/icons.tsx';

export interface ConfirmOptions {
  title?: string;
  message: string;
  confirmLabel?: string;
  danger?: boolean;
}

export function useConfirm(): [(opts: ConfirmOptions) => Promise<boolean>, ReactNode] {
  const { t } = useLingui();
  const [current, setCurrent] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);

  const confirm = useCallback((opts: ConfirmOptions) => {
    resolver.current?.(false);
    setCurrent(opts);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const finish = (ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    setCurrent(null);
  };

  const dialog = (
    <AlertDialog.Root open={current !== null} onOpenChange={(open) => !open && finish(false)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-[70] bg-slate-900/40" style={{ animation: 'aw-fade-in .15s' }} />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-[70] w-[min(92vw,420px)] -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-5 shadow-xl outline-none" style={{ animation: 'aw-pop-in .15s' }}>
          <div className="flex gap-3">
            <Icon name="alert" className="mt-0.5 size-5 shrink-0 text-amber-500" />
            <div className="min-w-0">
              <AlertDialog.Title className="text-base font-semibold text-slate-900">{current?.title ?? t`Tips`}</AlertDialog.Title>
              <AlertDialog.Description className="mt-1.5 text-sm text-slate-600">{current?.message}</AlertDialog.Description>
            </div>
          </div>
          <div className="mt-5 flex justify-end gap-2">
            <AlertDialog.Cancel className="aw-btn-default h-8 px-3">{t`Cancel`}</AlertDialog.Cancel>
            <AlertDialog.Action
              className={`aw-btn h-8 px-3 text-white ${current?.danger === false ? 'bg-primary hover:bg-primary-dark' : 'bg-red-600 hover:bg-red-700'}`}
              onClick={() => finish(true)}
            >
              {current?.confirmLabel ?? t`Confirm`}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
  return [confirm, dialog];
}
