/** A plain dialog shell for side dialogs (a device's users and calibration, an order's remake and designer). */
import type { ReactNode } from 'react';
import { Dialog } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { Icon } from './icons.tsx';

export function Modal({ open, title, onClose, width = '640px', children }: { open: boolean; title: string; onClose: () => void; width?: string; children: ReactNode }) {
  const { t } = useLingui();
  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          aria-describedby={undefined}
          onPointerDownOutside={(e) => e.preventDefault()}
          style={{ width, maxWidth: 'calc(100vw - 32px)' }}
          className="fixed top-[8vh] left-1/2 z-40 flex max-h-[84vh] -translate-x-1/2 flex-col rounded-lg bg-white shadow-xl outline-none"
        >
          <div className="flex h-12 shrink-0 items-center border-b border-slate-100 pr-2 pl-5">
            <Dialog.Title className="min-w-0 flex-1 truncate text-base font-semibold text-slate-900">{title}</Dialog.Title>
            <Dialog.Close className="aw-btn-icon" aria-label={t`Close`}>
              <Icon name="x" className="size-4" />
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-auto p-5">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
