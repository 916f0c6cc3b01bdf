import { useCallback } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Icon } from '../../ui/icons.tsx';

/**
 * A menu entry whose view path starts with http, shown in an embedded frame. The page is
 * cross-origin isolated (COEP require-corp), so the frame is `credentialless`, which lets ordinary
 * sites load without CORP headers; the attribute must be set before `src`.
 */
export default function IframePage({ url, title }: { url: string; title: string }) {
  const { t } = useLingui();
  const attach = useCallback(
    (frame: HTMLIFrameElement | null) => {
      if (!frame) return;
      frame.setAttribute('credentialless', '');
      if (frame.getAttribute('src') !== url) frame.setAttribute('src', url);
    },
    [url],
  );
  return (
    <div className="flex h-full flex-col">
      <div className="flex items-center justify-end gap-2 border-b border-slate-200 bg-white px-3 py-1.5 text-xs text-slate-500">
        <span className="truncate">{url}</span>
        <a href={url} target="_blank" rel="noreferrer noopener" className="inline-flex shrink-0 items-center gap-1 text-primary hover:underline">
          <Icon name="external" className="size-3.5" />
          {t`Open in a new tab`}
        </a>
      </div>
      <iframe ref={attach} title={title} className="min-h-0 w-full flex-1 border-0 bg-white" />
    </div>
  );
}
