/**
 * A code editor (CodeMirror 6) with syntax colouring for the languages the pages offer. Loaded
 * lazily (./index.tsx): its own chunk. CodeMirror's styles are style elements (the CSP allows
 * inline styles; no script is generated).
 */
import { useEffect, useRef } from 'react';
import { basicSetup, EditorView } from 'codemirror';
import { Compartment, EditorState } from '@codemirror/state';
import { javascript } from '@codemirror/lang-javascript';
import { html } from '@codemirror/lang-html';
import { markdown } from '@codemirror/lang-markdown';
import { json } from '@codemirror/lang-json';
import type { CodeEditorProps, CodeLanguage } from './index.tsx';

function languageOf(lang: CodeLanguage) {
  switch (lang) {
    case 'typescript': return javascript({ typescript: true, jsx: true });
    case 'html': return html();
    case 'markdown': return markdown();
    case 'json': return json();
    default: return javascript({ jsx: true });
  }
}

export default function CodeEditor({ value, onChange, language, readOnly = false, label, minHeight = 320, tabSize = 2 }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const lang = useRef(new Compartment());
  const editable = useRef(new Compartment());
  const emit = useRef(onChange);
  emit.current = onChange;

  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          EditorState.tabSize.of(tabSize),
          lang.current.of(languageOf(language)),
          editable.current.of([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) emit.current?.(u.state.doc.toString());
          }),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.theme({ '&': { minHeight: `${minHeight}px`, fontSize: '13px' }, '.cm-scroller': { minHeight: `${minHeight}px` } }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // The view is made once; changes below reach it through transactions.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    view.current?.dispatch({ effects: lang.current.reconfigure(languageOf(language)) });
  }, [language]);
  useEffect(() => {
    view.current?.dispatch({ effects: editable.current.reconfigure([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]) });
  }, [readOnly]);
  // A value from outside (another language's sample) replaces the document.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  return <div ref={host} className="overflow-hidden rounded-md border border-slate-200 [&_.cm-editor.cm-focused]:outline-none" data-testid="code-editor" />;
}
