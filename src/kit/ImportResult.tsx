/** What an import did: how many entries were created (and matched), and each skipped one with why. */
import { Dialog } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { Icon } from '../ui/icons.tsx';

export interface ImportSummary {
  created: number;
  matched?: number;
  skipped: { where: string; reason: string }[];
}

export function ImportResult({ summary, onClose }: { summary: ImportSummary | null; onClose: () => void }) {
  const { t } = useLingui();
  const created = summary?.created ?? 0;
  const matched = summary?.matched ?? 0;
  const skipped = summary?.skipped.length ?? 0;
  return (
    <Dialog.Root open={summary !== null} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 flex max-h-[80vh] w-[min(94vw,560px)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-lg bg-white shadow-2xl">
          <div className="flex items-center justify-between border-b border-slate-200 px-5 py-3">
            <Dialog.Title className="font-semibold text-slate-800">{t`Import result`}</Dialog.Title>
            <Dialog.Close className="aw-btn-icon" aria-label={t`Close`}>
              <Icon name="x" className="size-4" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="px-5 pt-4 text-sm text-slate-700">
            {summary?.matched === undefined
              ? t`${created} created, ${skipped} skipped.`
              : t`${created} created, ${matched} already present, ${skipped} skipped.`}
          </Dialog.Description>
          {skipped > 0 && (
            <div className="min-h-0 flex-1 overflow-auto px-5 py-3">
              <table className="w-full text-sm">
                <thead>
                  <tr className="text-left text-xs text-slate-500">
                    <th className="py-1 pr-3 font-medium">{t`Row`}</th>
                    <th className="py-1 font-medium">{t`Reason`}</th>
                  </tr>
                </thead>
                <tbody>
                  {summary!.skipped.map((s, i) => (
                    <tr key={i} className="border-t border-slate-100">
                      <td className="py-1.5 pr-3 align-top whitespace-nowrap text-slate-600">{s.where}</td>
                      <td className="py-1.5 text-red-600">{s.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <div className="flex justify-end border-t border-slate-200 px-5 py-3">
            <Dialog.Close className="aw-btn-primary">{t`OK`}</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
