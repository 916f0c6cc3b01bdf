/** The markdown editor: toolbar, sanitised live preview, images uploaded into the file space; saved texts are rendered by the server. */
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { MarkdownEditor } from '../../../kit/editors/index.tsx';
import { DemoPage } from '../DemoPage.tsx';
import { SaveBar } from '../SaveBar.tsx';
import { SavedTexts } from '../SavedTexts.tsx';

export default function MarkdownDemo() {
  const { t } = useLingui();
  const [value, setValue] = useState(() => `# ${t`Markdown editor`}\n\n${t`Write markdown here. Paste, drop or upload an image with the toolbar.`}\n`);
  const [version, setVersion] = useState(0);
  return (
    <DemoPage plugin="markdown" title={t`Markdown editor`} intro={t`Toolbar, live preview (sanitised), images go into the file space.`}>
      <SaveBar format="markdown" content={value} onSaved={() => setVersion((v) => v + 1)} />
      <label htmlFor="md-demo" className="sr-only">{t`Content`}</label>
      <MarkdownEditor id="md-demo" value={value} onChange={setValue} previewLabel={t`Preview`} height={420} />
      <SavedTexts format="markdown" version={version} />
    </DemoPage>
  );
}
