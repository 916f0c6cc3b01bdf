/** Shows a key or secret once, with a copy button (a device key by default: the server keeps only its hash). */
import { useState } from 'react';
import { Dialog } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { Icon } from '../../ui/icons.tsx';
import { toast } from '../../ui/toast.tsx';

export function KeyDialog({ deviceKey, onClose, title, description }: { deviceKey: string | null; onClose: () => void; title?: string; description?: string }) {
  const { t } = useLingui();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(deviceKey ?? '');
      setCopied(true);
    } catch {
      toast.error(t`Copy failed: select the key and copy it by hand`);
    }
  };
  return (
    <Dialog.Root
      open={deviceKey !== null}
      onOpenChange={(open) => {
        if (!open) {
          setCopied(false);
          onClose();
        }
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-slate-900/40" />
        <Dialog.Content
          onPointerDownOutside={(e) => e.preventDefault()}
          className="fixed top-1/2 left-1/2 z-[60] w-[min(92vw,520px)] -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-5 shadow-xl outline-none"
        >
          <div className="flex gap-3">
            <Icon name="key" className="mt-0.5 size-5 shrink-0 text-primary" />
            <div className="min-w-0 flex-1">
              <Dialog.Title className="text-base font-semibold text-slate-900">{title ?? t`Device key`}</Dialog.Title>
              <Dialog.Description className="mt-1.5 text-sm text-slate-600">
                {description ?? t`Copy the key now and enter it in the device. It is shown only this once; if it is lost, reset it.`}
              </Dialog.Description>
              <div className="mt-3 flex items-center gap-2">
                <code data-testid="device-key" className="min-w-0 flex-1 rounded border border-slate-200 bg-slate-50 px-2 py-1.5 font-mono text-xs break-all select-all">
                  {deviceKey}
                </code>
                <button type="button" className="aw-btn-default h-8 shrink-0 px-3" onClick={() => void copy()}>
                  <Icon name={copied ? 'check' : 'clipboard'} className="size-4" />
                  {copied ? t`Copied` : t`Copy`}
                </button>
              </div>
            </div>
          </div>
          <div className="mt-5 flex justify-end">
            <Dialog.Close className="aw-btn h-8 bg-primary px-3 text-white hover:bg-primary-dark">{t`Done`}</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
