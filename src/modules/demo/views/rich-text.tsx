/**
 * The rich text editor (Tiptap) with images into the file space, and the HTML source beside it:
 * what is saved goes through the server's allow-list (server/core/sanitize-html.ts), and the
 * saved texts below show what was stored.
 */
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { RichTextEditor } from '../../../kit/editors/index.tsx';
import { DemoPage } from '../DemoPage.tsx';
import { SaveBar } from '../SaveBar.tsx';
import { SavedTexts } from '../SavedTexts.tsx';

export default function RichTextDemo() {
  const { t } = useLingui();
  const [html, setHtml] = useState(() => `<h2>${t`Rich text`}</h2><p>${t`Write here; paste, drop or upload images.`}</p>`);
  const [source, setSource] = useState(false);
  const [version, setVersion] = useState(0);
  return (
    <DemoPage
      plugin="richText"
      title={t`Rich text editor`}
      intro={t`The HTML is sanitised by the server before it is stored: scripts, event handlers and javascript: links are removed.`}
      actions={
        <label className="flex items-center gap-2 text-sm text-slate-600">
          <input type="checkbox" className="accent-primary" checked={source} onChange={(e) => setSource(e.target.checked)} />
          {t`Edit the HTML source`}
        </label>
      }
    >
      <SaveBar format="html" content={html} onSaved={() => setVersion((v) => v + 1)} />
      {source ? (
        <textarea className="aw-input h-auto min-h-64 py-2 font-mono text-[13px]" aria-label={t`HTML source`} spellCheck={false} value={html} onChange={(e) => setHtml(e.target.value)} />
      ) : (
        <RichTextEditor value={html} onChange={setHtml} label={t`Rich text`} />
      )}
      <SavedTexts format="html" version={version} />
    </DemoPage>
  );
}
