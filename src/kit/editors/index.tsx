/**
 * The heavy editors (markdown, code, rich text), each in its own chunk: these wrappers load them
 * on first render, so the shell's bundle does not grow.
 */
import { lazy, Suspense } from 'react';
import { Spinner } from '../../ui/Spinner.tsx';

export interface MarkdownEditorProps {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  /** The preview's accessible name. */
  previewLabel: string;
  height?: number;
}

export type CodeLanguage = 'javascript' | 'typescript' | 'html' | 'markdown' | 'json';
export const CODE_LANGUAGES: readonly CodeLanguage[] = ['javascript', 'typescript', 'html', 'markdown', 'json'];

export interface CodeEditorProps {
  value: string;
  onChange?: (value: string) => void;
  language: CodeLanguage;
  readOnly?: boolean;
  /** The editable area's accessible name. */
  label: string;
  minHeight?: number;
}

export interface RichTextEditorProps {
  /** HTML. */
  value: string;
  onChange: (html: string) => void;
  disabled?: boolean;
  label: string;
}

const Md = lazy(() => import('./MdEditor.tsx'));
const Code = lazy(() => import('./CodeEditor.tsx'));
const Rich = lazy(() => import('./RichTextEditor.tsx'));

const loading = <Spinner className="m-4 size-5" />;

export function MarkdownEditor(props: MarkdownEditorProps) {
  return (
    <Suspense fallback={loading}>
      <Md {...props} />
    </Suspense>
  );
}

export function CodeEditor(props: CodeEditorProps) {
  return (
    <Suspense fallback={loading}>
      <Code {...props} />
    </Suspense>
  );
}

export function RichTextEditor(props: RichTextEditorProps) {
  return (
    <Suspense fallback={loading}>
      <Rich {...props} />
    </Suspense>
  );
}
