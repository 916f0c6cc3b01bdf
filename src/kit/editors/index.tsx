/**
 * The heavy editors (markdown, code, rich text), each in its own chunk: these wrappers load them
 * on first render, so the shell's bundle does not grow.
 */
import { lazy, Suspense } from 'react';
import { usePluginEnabled, usePluginSettings } from '../../app/plugins.ts';
import { Spinner } from '../../ui/Spinner.tsx';

export interface MarkdownEditorProps {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  /** The preview's accessible name. */
  previewLabel: string;
  height?: number;
  /** Whether the live preview shows beside the source (the markdown plugin's setting by default). */
  preview?: boolean;
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
  /** Spaces per indent (the code plugin's setting by default). */
  tabSize?: number;
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

/** With the markdown plugin disabled, texts are still edited: in a plain text area. */
export function MarkdownEditor(props: MarkdownEditorProps) {
  const enabled = usePluginEnabled('markdown');
  const settings = usePluginSettings('markdown');
  if (!enabled) {
    return (
      <textarea
        id={props.id}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
        spellCheck={false}
        className="aw-input w-full font-mono text-sm"
        style={{ height: props.height ?? 360 }}
      />
    );
  }
  return (
    <Suspense fallback={loading}>
      <Md {...props} preview={props.preview ?? settings.preview !== false} />
    </Suspense>
  );
}

export function CodeEditor(props: CodeEditorProps) {
  const settings = usePluginSettings('code');
  const tabSize = props.tabSize ?? (typeof settings.tabSize === 'number' ? settings.tabSize : 2);
  return (
    <Suspense fallback={loading}>
      <Code {...props} tabSize={tabSize} />
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
