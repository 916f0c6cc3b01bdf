/** The code editor (CodeMirror): syntax colouring, a language to choose. */
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { CODE_LANGUAGES, CodeEditor, type CodeLanguage } from '../../../kit/editors/index.tsx';
import { DemoPage } from '../DemoPage.tsx';
import { SAMPLES } from '../samples.ts';

const NAMES: Record<CodeLanguage, string> = { javascript: 'JavaScript', typescript: 'TypeScript', html: 'HTML', markdown: 'Markdown', json: 'JSON' };

export default function CodeDemo() {
  const { t } = useLingui();
  const [language, setLanguage] = useState<CodeLanguage>('typescript');
  const [code, setCode] = useState(SAMPLES.typescript);
  const lines = code.split('\n').length;
  const chars = code.length;
  return (
    <DemoPage
      plugin="code"
      title={t`Code editor`}
      intro={t`Syntax colouring, line numbers, brackets, search (Ctrl+F) and undo.`}
      actions={
        <label className="flex items-center gap-2 text-sm text-slate-600">
          {t`Language`}
          <select
            className="aw-input w-40"
            value={language}
            onChange={(e) => {
              const next = e.target.value as CodeLanguage;
              setLanguage(next);
              setCode(SAMPLES[next]);
            }}
          >
            {CODE_LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {NAMES[l]}
              </option>
            ))}
          </select>
        </label>
      }
    >
      <CodeEditor value={code} onChange={setCode} language={language} label={t`Code`} minHeight={420} />
      <p className="mt-2 text-xs text-slate-500" data-testid="code-stats">{t`${lines} lines, ${chars} characters`}</p>
    </DemoPage>
  );
}
