/**
 * The markdown editor (@uiw/react-md-editor): toolbar, live preview sanitised by rehype-sanitize,
 * images pasted, dropped or picked with the toolbar button go into the file space and are
 * inserted as markdown images. Loaded lazily (./index.tsx): its own chunk.
 */
import { useRef, useState, type ClipboardEvent, type DragEvent } from 'react';
import MDEditor, { commands, type ICommand, type RefMDEditor } from '@uiw/react-md-editor';
import rehypeSanitize from 'rehype-sanitize';
import { useLingui } from '@lingui/react/macro';
import { currentLocale } from '../../i18n/index.ts';
import { altOf, imagesOf, pickImages, uploadImage } from './images.ts';
import type { MarkdownEditorProps } from './index.tsx';

/** The editor's element id when the form gives none (spec §9 "an editor id"). */
export const MD_EDITOR_ID = 'aw-md-editor';
/** The toolbar, in order (spec §9 "a toolbar list"); '|' separates groups. */
export const MD_TOOLBAR = [
  'bold', 'italic', 'strikethrough', 'title', '|', 'link', 'quote', 'code', 'codeBlock', 'image', 'table', 'hr', '|',
  'unorderedList', 'orderedList', 'checkedList',
] as const;
/** The editor's locale (spec §9: zh-CN) for the app's language. */
export const mdLocale = () => ({ zh: 'zh-CN', en: 'en-US', de: 'de-DE' })[currentLocale()];

export default function MdEditor({ id = MD_EDITOR_ID, value, onChange, disabled, previewLabel, height = 360, preview = true }: MarkdownEditorProps) {
  const { t } = useLingui();
  const ref = useRef<RefMDEditor>(null);
  const latest = useRef(value);
  latest.current = value;
  const [uploading, setUploading] = useState(0);
  const [error, setError] = useState('');

  /** Uploads the images and puts them at the cursor (or replaces the selection). */
  async function insertImages(files: File[]) {
    if (!files.length || disabled) return;
    setError('');
    setUploading((n) => n + files.length);
    try {
      const lines: string[] = [];
      for (const f of files) lines.push(`![${altOf(f)}](${await uploadImage(f)})`);
      const area = ref.current?.textarea;
      const text = latest.current;
      const start = area?.selectionStart ?? text.length;
      const end = area?.selectionEnd ?? text.length;
      onChange(`${text.slice(0, start)}${lines.join('\n')}${text.slice(end)}`);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setUploading((n) => n - files.length);
    }
  }

  const label = (title: string) => ({ 'aria-label': title, title });
  const byName: Record<Exclude<(typeof MD_TOOLBAR)[number], '|'>, ICommand> = {
    bold: { ...commands.bold, buttonProps: label(t`Bold`) },
    italic: { ...commands.italic, buttonProps: label(t`Italic`) },
    strikethrough: { ...commands.strikethrough, buttonProps: label(t`Strikethrough`) },
    title: { ...commands.title, buttonProps: label(t`Heading`) },
    link: { ...commands.link, buttonProps: label(t`Link`) },
    quote: { ...commands.quote, buttonProps: label(t`Quote`) },
    code: { ...commands.code, buttonProps: label(t`Code`) },
    codeBlock: { ...commands.codeBlock, buttonProps: label(t`Code block`) },
    image: {
      ...commands.image,
      name: 'upload-image',
      keyCommand: 'upload-image',
      buttonProps: label(t`Upload image`),
      execute: () => void pickImages().then(insertImages),
    },
    table: { ...commands.table, buttonProps: label(t`Table`) },
    hr: { ...commands.hr, buttonProps: label(t`Horizontal rule`) },
    unorderedList: { ...commands.unorderedListCommand, buttonProps: label(t`Bulleted list`) },
    orderedList: { ...commands.orderedListCommand, buttonProps: label(t`Numbered list`) },
    checkedList: { ...commands.checkedListCommand, buttonProps: label(t`Task list`) },
  };
  const toolbar = MD_TOOLBAR.map((name) => (name === '|' ? commands.divider : byName[name]));
  const modes = [
    { ...commands.codeEdit, buttonProps: label(t`Edit only`) },
    { ...commands.codeLive, buttonProps: label(t`Edit and preview`) },
    { ...commands.codePreview, buttonProps: label(t`Preview only`) },
    commands.divider,
    { ...commands.fullscreen, buttonProps: label(t`Fullscreen`) },
  ];

  const onPaste = (e: ClipboardEvent<HTMLDivElement>) => {
    const files = imagesOf(e.clipboardData.files);
    if (!files.length) return;
    e.preventDefault();
    void insertImages(files);
  };
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    const files = imagesOf(e.dataTransfer.files);
    if (!files.length) return;
    e.preventDefault();
    void insertImages(files);
  };

  return (
    <div className="w-full" data-color-mode="light" lang={mdLocale()} onPasteCapture={onPaste} onDropCapture={onDrop} onDragOver={(e) => e.preventDefault()}>
      <MDEditor
        ref={ref}
        value={value}
        onChange={(v) => onChange(v ?? '')}
        height={height}
        preview={preview ? 'live' : 'edit'}
        commands={toolbar}
        extraCommands={modes}
        textareaProps={{ id, disabled, 'aria-label': undefined, spellCheck: false }}
        previewOptions={{
          rehypePlugins: [[rehypeSanitize]],
          wrapperElement: { 'data-color-mode': 'light', 'aria-label': previewLabel, 'data-testid': 'markdown-preview' } as never,
        }}
      />
      <p className="mt-1 min-h-5 text-xs text-slate-500" aria-live="polite" data-testid="md-upload-status">
        {uploading > 0 ? t`Uploading ${uploading} image(s)…` : error ? <span role="alert" className="text-red-600">{error}</span> : t`Paste or drop images to upload them`}
      </p>
    </div>
  );
}
