/**
 * One model slot of the order form (upper, lower or occlusion): picks an .stl file, uploads it at
 * once with a progress bar, and holds the file id. While the upload runs the value is a pending
 * token; `settleModels` waits for every pending upload before the order is saved.
 */
import { useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { toast } from '../../ui/toast';
import { Icon } from '../../ui/icons';
import { downloadFile, formatSize, uploadFiles } from './upload';

const pending = new Map<string, Promise<number>>();
let counter = 0;

export const isPending = (v: unknown): v is string => typeof v === 'string' && pending.has(v);

/** Replaces pending tokens in `data[props]` with the uploaded ids; rejects if one failed. */
export async function settleModels(data: Record<string, unknown>, props: readonly string[]): Promise<Record<string, unknown>> {
  const out = { ...data };
  for (const prop of props) {
    const v = out[prop];
    if (isPending(v)) out[prop] = await pending.get(v)!;
  }
  return out;
}

interface ModelFile {
  name: string;
  size: number;
  url?: string;
}

export interface ModelUploadProps {
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
  disabled: boolean;
  invalid: boolean;
  /** The stored file of the record being edited (`upperFile` etc. from info). */
  file?: ModelFile | null;
}

export function ModelUpload({ id, value, onChange, disabled, invalid, file }: ModelUploadProps) {
  const { t } = useLingui();
  const input = useRef<HTMLInputElement>(null);
  const [current, setCurrent] = useState<ModelFile | null>(file ?? null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = value ? current : null;

  const pick = (f: File | undefined) => {
    if (!f) return;
    setError(null);
    if (!/\.stl$/i.test(f.name)) {
      setError(t`Only STL files are accepted`);
      return;
    }
    const token = `pending:${++counter}`;
    setCurrent({ name: f.name, size: f.size });
    setProgress(0);
    const job = uploadFiles([f], { kind: 'model', onProgress: setProgress }).then(([row]) => {
      if (!row) throw new Error(t`Upload failed, please try again`);
      return row;
    });
    const fileId = job.then((row) => row.id);
    // Saving awaits this and reports a failure; until then nobody does, and a rejected file must not
    // also surface as an uncaught error (the message below already tells the user).
    fileId.catch(() => undefined);
    pending.set(token, fileId);
    onChange(token);
    job.then(
      (row) => {
        setProgress(null);
        setCurrent({ name: row.name, size: row.size, url: row.url });
        onChange(row.id);
      },
      (err: unknown) => {
        setProgress(null);
        setCurrent(null);
        const message = err instanceof Error ? err.message : String(err);
        setError(message);
        toast.error(message);
        onChange(null);
      },
    );
  };

  const uploading = progress !== null;
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={input}
          id={id}
          type="file"
          accept=".stl"
          className="sr-only"
          disabled={disabled || uploading}
          aria-invalid={invalid || undefined}
          onChange={(e) => {
            pick(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <button type="button" className="aw-btn-default" disabled={disabled || uploading} onClick={() => input.current?.click()}>
          <Icon name="file" className="size-4" />
          {shown ? t`Replace` : t`Choose STL file`}
        </button>
        {shown && (
          <span className="flex min-w-0 items-center gap-2 text-sm text-slate-700">
            <span className="truncate" title={shown.name}>{shown.name}</span>
            <span className="text-xs text-slate-500">{formatSize(shown.size)}</span>
            {shown.url && !uploading && (
              <button
                type="button"
                className="text-xs text-primary hover:underline"
                onClick={() => downloadFile(shown.url!, shown.name).catch((e: Error) => toast.error(e.message))}
              >
                {t`Download`}
              </button>
            )}
            {!disabled && !uploading && (
              <button type="button" className="aw-btn-icon size-6" aria-label={t`Remove`} onClick={() => onChange(null)}>
                <Icon name="x" className="size-3.5" />
              </button>
            )}
          </span>
        )}
        {!shown && !uploading && <span className="text-xs text-slate-500">{t`No file`}</span>}
      </div>
      {uploading && (
        <div className="flex items-center gap-2" role="progressbar" aria-label={t`Upload progress`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(progress * 100)}>
          <div className="h-1.5 flex-1 overflow-hidden rounded-full bg-slate-200">
            <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${Math.round(progress * 100)}%` }} />
          </div>
          <span className="w-10 text-right text-xs text-slate-600 tabular-nums">{Math.round(progress * 100)}%</span>
        </div>
      )}
      {error && <p className="text-xs text-red-600">{error}</p>}
    </div>
  );
}
