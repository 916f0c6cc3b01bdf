/** The "new version" dialog: current and new version; close ignores it, update reloads. The
 * latest release notes show once per user beside it. */
import { useEffect, useRef, useState } from 'react';
import { Dialog } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { APP_VERSION, startVersionCheck } from './version.ts';
import { ReleaseNotesNotice } from '../modules/base/ReleaseNotes.tsx';

export function VersionNotice() {
  const { t } = useLingui();
  const [latest, setLatest] = useState<string | null>(null);
  const checker = useRef<ReturnType<typeof startVersionCheck> | null>(null);

  useEffect(() => {
    const c = startVersionCheck(setLatest);
    checker.current = c;
    return () => c.stop();
  }, []);

  const close = () => {
    setLatest(null);
    checker.current?.resume();
  };

  return (
    <>
      <ReleaseNotesNotice />
      <Dialog.Root open={latest !== null} onOpenChange={(open) => !open && close()}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" style={{ animation: 'aw-fade-in .15s' }} />
          <Dialog.Content
            className="fixed top-1/2 left-1/2 z-50 w-[min(92vw,420px)] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-2xl"
            onPointerDownOutside={(e) => e.preventDefault()}
          >
            <Dialog.Title className="text-lg font-semibold text-slate-900">{t`A new version is available`}</Dialog.Title>
            <Dialog.Description className="mt-2 text-sm text-slate-600">
              {t`Update now to get the latest features and fixes.`}
            </Dialog.Description>
            <dl className="mt-4 grid grid-cols-2 gap-3 rounded-lg bg-slate-50 p-3 text-sm">
              <div>
                <dt className="text-slate-500">{t`Current version`}</dt>
                <dd className="font-medium text-slate-800">{APP_VERSION}</dd>
              </div>
              <div>
                <dt className="text-slate-500">{t`New version`}</dt>
                <dd className="font-medium text-primary">{latest}</dd>
              </div>
            </dl>
            <div className="mt-6 flex justify-end gap-2">
              <Dialog.Close className="aw-btn-default">{t`Close`}</Dialog.Close>
              <button type="button" className="aw-btn-primary" onClick={() => window.location.reload()}>
                {t`Update`}
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </>
  );
}
