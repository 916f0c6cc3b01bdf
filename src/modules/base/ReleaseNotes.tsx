/**
 * The latest release notes, shown once to each signed-in user: `GET /admin/base/open/release`
 * (with the token it answers `readed`) and, when the user closes them, `GET toReaded`.
 */
import { useEffect, useState } from 'react';
import { Dialog } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { request } from '../../api/client.ts';
import { useApp } from '../../app/store.ts';
import { Markdown } from '../help/markdown.tsx';

interface Release {
  id: number;
  version: string;
  title: string;
  content: string | null;
  releaseTime: string;
  readed?: boolean;
}

export function ReleaseNotesNotice() {
  const { t } = useLingui();
  const { user } = useApp();
  const [release, setRelease] = useState<Release | null>(null);
  const userId = user?.id;

  useEffect(() => {
    if (userId === undefined) return;
    let live = true;
    request<Release | null>({ url: '/admin/base/open/release', auth: true, silent: true }).then(
      (r) => live && setRelease(r && r.readed === false ? r : null),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [userId]);

  const close = () => {
    if (release) void request({ url: '/admin/base/sys/release/toReaded', params: { id: release.id }, silent: true }).catch(() => undefined);
    setRelease(null);
  };
  const version = release?.version ?? '';

  return (
    <Dialog.Root open={release !== null} onOpenChange={(open) => !open && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" style={{ animation: 'aw-fade-in .15s' }} />
        <Dialog.Content
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[80vh] w-[min(92vw,560px)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl bg-white shadow-2xl"
          onPointerDownOutside={(e) => e.preventDefault()}
        >
          <div className="border-b border-slate-100 px-6 pt-5 pb-3">
            <Dialog.Title className="text-lg font-semibold text-slate-900">{t`What's new in version ${version}`}</Dialog.Title>
            <Dialog.Description className="mt-1 text-sm text-slate-600">{release?.title}</Dialog.Description>
          </div>
          <div className="min-h-0 flex-1 overflow-auto px-6 py-2">
            <Markdown source={release?.content} />
          </div>
          <div className="flex justify-end border-t border-slate-100 px-6 py-3">
            <Dialog.Close className="aw-btn-primary">{t`Got it`}</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
