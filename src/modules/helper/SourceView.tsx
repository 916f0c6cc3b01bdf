/** A read-only CodeMirror 6 view of generated source (loaded lazily with the page's source panel). */
import { useEffect, useRef } from 'react';
import { EditorState } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';
import { javascript } from '@codemirror/lang-javascript';

export default function SourceView({ text, label }: { text: string; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: text,
        extensions: [lineNumbers(), javascript({ typescript: true, jsx: true }), EditorState.readOnly.of(true), EditorView.editable.of(false), EditorView.lineWrapping],
      }),
    });
    return () => view.destroy();
  }, [text]);
  return <div ref={host} aria-label={label} className="h-[420px] overflow-auto rounded-md border border-slate-200 bg-white text-xs" />;
}
