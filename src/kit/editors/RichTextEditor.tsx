/**
 * A rich text editor (Tiptap): headings, marks, lists, quotes, code blocks, links and images;
 * images pasted, dropped or picked go into the file space. Its HTML is sanitised again by the
 * server before it is stored. Loaded lazily (./index.tsx): its own chunk.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useEditor, EditorContent, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { useLingui } from '@lingui/react/macro';
import { altOf, imagesOf, pickImages, uploadImage } from './images.ts';
import type { RichTextEditorProps } from './index.tsx';
import { PROSE } from './prose.ts';

const IMAGE_ICON = (
  <svg viewBox="0 0 24 24" className="mx-auto size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <rect x="3" y="3" width="18" height="18" rx="2" />
    <circle cx="9" cy="9" r="2" />
    <path d="M21 15l-5-5L5 21" />
  </svg>
);

async function insertImages(editor: Editor, files: File[], onError: (message: string) => void, pos?: number) {
  try {
    for (const f of files) {
      const src = await uploadImage(f);
      const chain = editor.chain().focus();
      (pos === undefined ? chain : chain.setTextSelection(pos)).setImage({ src, alt: altOf(f) }).run();
    }
  } catch (err) {
    onError(err instanceof Error ? err.message : String(err));
  }
}

export default function RichTextEditor({ value, onChange, disabled = false, label }: RichTextEditorProps) {
  const { t } = useLingui();
  const [error, setError] = useState('');
  const editor = useEditor({
    extensions: [StarterKit, Image.configure({ allowBase64: false })],
    content: value,
    editable: !disabled,
    editorProps: {
      attributes: { 'aria-label': label, role: 'textbox', 'aria-multiline': 'true', class: `min-h-64 px-3 py-2 outline-none text-sm leading-relaxed text-slate-700 ${PROSE}` },
      handlePaste: (_view, event) => {
        const files = imagesOf(event.clipboardData?.files);
        if (!files.length || !editor) return false;
        void insertImages(editor, files, setError);
        return true;
      },
      handleDrop: (view, event) => {
        const files = imagesOf(event.dataTransfer?.files);
        if (!files.length || !editor) return false;
        const pos = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos;
        void insertImages(editor, files, setError, pos);
        return true;
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.getHTML()),
  });

  // The editor may be destroyed already (a re-mount makes a new one): leave it alone then.
  useEffect(() => {
    if (editor && !editor.isDestroyed) editor.setEditable(!disabled);
  }, [editor, disabled]);
  // A value from outside (a loaded record) replaces the content.
  useEffect(() => {
    if (editor && !editor.isDestroyed && value !== editor.getHTML()) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  if (!editor) return null;
  const button = (name: string, active: boolean, run: () => void, text: ReactNode) => (
    <button
      key={name}
      type="button"
      aria-pressed={active}
      aria-label={name}
      title={name}
      disabled={disabled}
      onMouseDown={(e) => e.preventDefault()}
      onClick={run}
      className="h-7 min-w-7 rounded px-1.5 text-sm text-slate-600 hover:bg-slate-100 aria-pressed:bg-primary-light-9 aria-pressed:text-primary disabled:opacity-50"
    >
      {text}
    </button>
  );
  const c = () => editor.chain().focus();
  return (
    <div className="rounded-md border border-slate-200 focus-within:border-primary" data-testid="rich-text-editor">
      <div role="toolbar" aria-label={t`Formatting`} className="flex flex-wrap gap-0.5 border-b border-slate-100 p-1">
        {button(t`Bold`, editor.isActive('bold'), () => c().toggleBold().run(), 'B')}
        {button(t`Italic`, editor.isActive('italic'), () => c().toggleItalic().run(), 'I')}
        {button(t`Strikethrough`, editor.isActive('strike'), () => c().toggleStrike().run(), 'S')}
        {button(t`Heading`, editor.isActive('heading', { level: 2 }), () => c().toggleHeading({ level: 2 }).run(), 'H2')}
        {button(t`Bulleted list`, editor.isActive('bulletList'), () => c().toggleBulletList().run(), '•')}
        {button(t`Numbered list`, editor.isActive('orderedList'), () => c().toggleOrderedList().run(), '1.')}
        {button(t`Quote`, editor.isActive('blockquote'), () => c().toggleBlockquote().run(), '❝')}
        {button(t`Code block`, editor.isActive('codeBlock'), () => c().toggleCodeBlock().run(), '</>')}
        {button(t`Upload image`, false, () => void pickImages().then((files) => insertImages(editor, files, setError)), IMAGE_ICON)}
        {button(t`Undo`, false, () => c().undo().run(), '↶')}
        {button(t`Redo`, false, () => c().redo().run(), '↷')}
      </div>
      <EditorContent editor={editor} />
      {error && (
        <p role="alert" className="px-3 pb-2 text-xs text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}
