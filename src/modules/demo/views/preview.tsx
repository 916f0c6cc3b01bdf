/** The editor preview: source beside its rendered output, markdown or HTML, always through the sanitiser (scripts never run). */
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { CodeEditor } from '../../../kit/editors/index.tsx';
import { Markdown, SafeHtml } from '../../help/markdown.tsx';
import { DemoPage } from '../DemoPage.tsx';
import { SAMPLES } from '../samples.ts';

type Mode = 'markdown' | 'html';

export default function PreviewDemo() {
  const { t } = useLingui();
  const [mode, setMode] = useState<Mode>('markdown');
  const [source, setSource] = useState(SAMPLES.markdown);
  const modes: { value: Mode; label: string }[] = [
    { value: 'markdown', label: 'Markdown' },
    { value: 'html', label: 'HTML' },
  ];
  return (
    <DemoPage
      title={t`Editor preview`}
      intro={t`The source on the left, what it renders to on the right. Scripts, event handlers and javascript: links are removed before rendering.`}
      actions={
        <div role="radiogroup" aria-label={t`Format`} className="flex gap-1">
          {modes.map((m) => (
            <button
              key={m.value}
              type="button"
              role="radio"
              aria-checked={mode === m.value}
              className="aw-btn-default aria-checked:border-primary aria-checked:text-primary"
              onClick={() => {
                setMode(m.value);
                setSource(SAMPLES[m.value]);
              }}
            >
              {m.label}
            </button>
          ))}
        </div>
      }
    >
      <div className="grid gap-3 lg:grid-cols-2">
        <CodeEditor value={source} onChange={setSource} language={mode} label={t`Source`} minHeight={360} />
        <div className="min-h-[360px] overflow-auto rounded-md border border-slate-200 px-4 py-2" aria-label={t`Rendered`} data-testid="preview-output">
          {mode === 'markdown' ? <Markdown source={source} /> : <SafeHtml html={source} />}
        </div>
      </div>
    </DemoPage>
  );
}
