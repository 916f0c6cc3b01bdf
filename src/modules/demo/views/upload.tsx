/**
 * File upload: the specification's kinds with their extension lists, at most 9 files at a time,
 * the server's size limit, 120 px thumbnails, drag and drop, and progress per file (each file
 * its own request through the kit's upload, into the file space).
 */
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import { acceptOf, KINDS, type Kind } from '../../../../common/upload-kinds.ts';
import { MAX_UPLOAD_FILES as MAX_FILES, THUMBNAIL_PX as THUMB, uploadFiles, uploadLimit } from '../../../kit/upload.ts';
import { Icon } from '../../../ui/icons.tsx';
import { formatSize } from '../../order/upload.ts';
import { DemoPage } from '../DemoPage.tsx';

/** The specification's kinds (the space's "model" kind is the order form's). */
const DEMO_KINDS = ['image', 'video', 'audio', 'word', 'excel', 'ppt', 'pdf', 'rar', 'file'] as const satisfies readonly Kind[];
type DemoKind = (typeof DEMO_KINDS)[number];

interface Item {
  key: number;
  name: string;
  size: number;
  /** An object URL of an image file, for its thumbnail. */
  preview: string;
  state: 'uploading' | 'done' | 'failed';
  progress: number;
  error?: string;
  url?: string;
}

const extensionOf = (name: string) => (name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '');

export default function UploadDemo() {
  const { t } = useLingui();
  const [kind, setKind] = useState<DemoKind>('image');
  const [items, setItems] = useState<Item[]>([]);
  const [notice, setNotice] = useState('');
  const [maxBytes, setMaxBytes] = useState<number | null>(null);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const seq = useRef(0);
  const previews = useRef<string[]>([]);

  useEffect(() => {
    void uploadLimit().then((l) => setMaxBytes(l?.maxBytes ?? null));
    const urls = previews.current;
    return () => urls.forEach((u) => URL.revokeObjectURL(u));
  }, []);

  const limitSize = maxBytes === null ? '' : formatSize(maxBytes);
  const labels: Record<DemoKind, string> = {
    image: t`Image`, video: t`Video`, audio: t`Audio`, word: 'Word', excel: 'Excel', ppt: 'PPT', pdf: 'PDF', rar: t`Archive`, file: t`File`,
  };
  const allowed = kind === 'file' ? null : (KINDS[kind] as readonly string[]);
  const patch = (key: number, change: Partial<Item>) => setItems((list) => list.map((i) => (i.key === key ? { ...i, ...change } : i)));

  function add(files: File[]) {
    if (!files.length) return;
    setNotice(files.length > MAX_FILES ? t`At most ${MAX_FILES} files at a time: the first ${MAX_FILES} are uploaded.` : '');
    for (const file of files.slice(0, MAX_FILES)) {
      const key = ++seq.current;
      const preview = file.type.startsWith('image/') ? URL.createObjectURL(file) : '';
      if (preview) previews.current.push(preview);
      const ext = extensionOf(file.name);
      const item: Item = { key, name: file.name, size: file.size, preview, state: 'uploading', progress: 0 };
      const extensions = allowed?.map((e) => `.${e}`).join(' ') ?? '';
      const limit = maxBytes === null ? '' : formatSize(maxBytes);
      const refuse = allowed && !allowed.includes(ext)
        ? t`Not a file of this kind (${extensions})`
        : maxBytes !== null && file.size > maxBytes
          ? t`Larger than the limit of ${limit}`
          : '';
      setItems((list) => [{ ...item, ...(refuse ? { state: 'failed' as const, error: refuse } : {}) }, ...list]);
      if (refuse) continue;
      uploadFiles([file], { kind, onProgress: (p) => patch(key, { progress: p }) }).then(
        ([row]) => patch(key, { state: 'done', progress: 1, ...(row ? { url: row.url } : {}) }),
        (err: unknown) => patch(key, { state: 'failed', error: err instanceof Error ? err.message : String(err) }),
      );
    }
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    add([...e.dataTransfer.files]);
  };

  return (
    <DemoPage
      title={t`File upload`}
      intro={maxBytes !== null ? t`At most ${MAX_FILES} files at a time, each up to ${limitSize}; they go into the file space.` : t`At most ${MAX_FILES} files at a time; they go into the file space.`}
    >
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <label className="flex items-center gap-2 text-sm text-slate-600">
          {t`Kind`}
          <select className="aw-input w-36" value={kind} onChange={(e) => setKind(e.target.value as DemoKind)}>
            {DEMO_KINDS.map((k) => (
              <option key={k} value={k}>
                {labels[k]}
              </option>
            ))}
          </select>
        </label>
        <p className="text-xs text-slate-500" data-testid="upload-extensions">
          {allowed ? allowed.map((e) => `.${e}`).join(' ') : t`Any file`}
        </p>
      </div>
      <div
        role="button"
        tabIndex={0}
        aria-label={t`Choose files or drop them here`}
        onClick={() => input.current?.click()}
        onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && input.current?.click()}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="upload-drop"
        className={`flex h-32 cursor-pointer flex-col items-center justify-center gap-1 rounded-md border-2 border-dashed text-sm ${over ? 'border-primary bg-primary-light-9 text-primary' : 'border-slate-300 text-slate-500 hover:border-primary hover:text-primary'}`}
      >
        <Icon name="folder" className="size-6" />
        {t`Choose files or drop them here`}
      </div>
      <input
        ref={input}
        type="file"
        hidden
        multiple
        accept={acceptOf(kind)}
        data-testid="upload-input"
        onChange={(e) => {
          add([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      {notice && (
        <p role="alert" className="mt-2 text-sm text-amber-700">
          {notice}
        </p>
      )}
      <ul className="mt-4 flex flex-wrap gap-3" aria-label={t`Files`}>
        {items.map((i) => (
          <li key={i.key} className="flex flex-col gap-1" style={{ width: THUMB }} data-testid="upload-item" data-state={i.state}>
            <div className="flex items-center justify-center overflow-hidden rounded-md border border-slate-200 bg-slate-50" style={{ width: THUMB, height: THUMB }}>
              {i.preview ? <img src={i.preview} alt="" className="size-full object-cover" /> : <span className="font-mono text-xs text-slate-500 uppercase">{extensionOf(i.name) || '—'}</span>}
            </div>
            <span className="truncate text-xs text-slate-700" title={i.name}>
              {i.name}
            </span>
            <span className="text-[11px] text-slate-400">{formatSize(i.size)}</span>
            <div role="progressbar" aria-label={i.name} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(i.progress * 100)} className="h-1.5 overflow-hidden rounded bg-slate-100">
              <div className={`h-full ${i.state === 'failed' ? 'bg-red-500' : i.state === 'done' ? 'bg-green-600' : 'bg-primary'}`} style={{ width: `${i.state === 'failed' ? 100 : Math.round(i.progress * 100)}%` }} />
            </div>
            <span className={`text-[11px] ${i.state === 'failed' ? 'text-red-600' : 'text-slate-500'}`}>
              {i.state === 'done' ? t`Uploaded` : i.state === 'failed' ? i.error : `${Math.round(i.progress * 100)} %`}
            </span>
          </li>
        ))}
      </ul>
    </DemoPage>
  );
}
