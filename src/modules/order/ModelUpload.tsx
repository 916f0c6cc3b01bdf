/**
 * One model slot of the order form (upper, lower or occlusion): picks an .stl file, uploads it at
 * once with a progress bar, and holds the file id. While the upload runs the value is a pending
 * token; `settleModels` waits for every pending upload before the order is saved.
 *
 * A file over the server's upload limit is not sent (it would only fail after a long upload): the
 * slot says the model is too large and offers to simplify it here (simplify.ts), then uploads the
 * simplified copy the normal way. A failed or cancelled simplification leaves the slot as it was.
 *
 * An uploaded model whose health report shows damage (modelHealth.ts: holes beyond a scan's rim,
 * loose shells, non-manifold or flipped edges, degenerate triangles) gets a warning; the user keeps
 * it or removes it.
 */
import { useEffect, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { toast } from '../../ui/toast.tsx';
import { Icon } from '../../ui/icons.tsx';
import { healthIssues, healthWarning, type HealthIssues } from './modelHealth.ts';
import { convertToBinaryStl, simplifyErrorMessage, simplifyModel, type SimplifyStage } from './simplify.ts';
import { downloadFile, formatSize, uploadFiles, uploadLimit, UploadError } from './upload.ts';
import { formatCount } from '../../i18n/format.ts';
import { mergeBinaryStl, mergedName, stlKind, StlMergeError } from '../../geometry/stlMerge.ts';

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

/** A pending token for a file id still to come. */
function track(fileId: Promise<number>): string {
  const token = `pending:${++counter}`;
  // Saving awaits this and reports a failure; until then nobody does, and a rejected file must not
  // also surface as an uncaught error (the slot's message already tells the user).
  fileId.catch(() => undefined);
  pending.set(token, fileId);
  return token;
}

interface ModelFile {
  name: string;
  size: number;
  url?: string;
}

/** A chosen file over the upload limit, waiting for the user to simplify it. */
interface Oversize {
  file: File;
  maxBytes: number;
}

/** A simplification under way; `shown` is what the slot showed before it, shown until it succeeds. */
interface Work {
  stage: SimplifyStage | 'upload';
  fraction: number | null;
  shown: ModelFile | null;
}

export interface ModelUploadProps {
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
  disabled: boolean;
  invalid: boolean;
  /** The stored file of the record being edited (`upperFile` etc. from info). */
  file?: ModelFile | null;
  /**
   * The occlusion slot: one or two bite scans (left and right), kept as ONE model: two STL files
   * are merged here into one binary STL (stlMerge.ts) before the upload; an ASCII scan among them
   * is converted to binary first (`toBinary`).
   */
  pair?: boolean;
  /** ASCII STL → binary STL (default: through the geometry worker, simplify.ts); tests inject one. */
  toBinary?: (file: File, options: { signal?: AbortSignal }) => Promise<Uint8Array>;
}

export function ModelUpload({ id, value, onChange, disabled, invalid, file, pair = false, toBinary = convertToBinaryStl }: ModelUploadProps) {
  const { t, i18n } = useLingui();
  const input = useRef<HTMLInputElement>(null);
  const [current, setCurrent] = useState<ModelFile | null>(file ?? null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [oversize, setOversize] = useState<Oversize | null>(null);
  const [work, setWork] = useState<Work | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [damage, setDamage] = useState<HealthIssues | null>(null);
  const abort = useRef<AbortController | null>(null);
  const shown = work ? work.shown : value ? current : null;

  // Asked before a file is chosen, so that one over the limit is never sent.
  useEffect(() => void uploadLimit(), []);
  // Closing the form stops a simplification under way (which terminates its worker).
  useEffect(() => () => abort.current?.abort(), []);

  const count = (n: number) => formatCount(n, i18n.locale);

  /** Uploads `f` at once; resolves with its file id (the slot's value then). */
  const upload = (f: File): Promise<number> => {
    setCurrent({ name: f.name, size: f.size });
    setProgress(0);
    const job = uploadFiles([f], { kind: 'model', onProgress: setProgress }).then(([row]) => {
      if (!row) throw new Error(t`Upload failed, please try again`);
      return row;
    });
    const fileId = job.then((row) => row.id);
    onChange(track(fileId));
    job.then(
      (row) => {
        setProgress(null);
        setCurrent({ name: row.name, size: row.size, url: row.url });
        setDamage(healthIssues(row.health));
        onChange(row.id);
      },
      (err: unknown) => {
        setProgress(null);
        setCurrent(null);
        onChange(null);
        // The limit was not known beforehand (or changed): offer simplification after all.
        if (err instanceof UploadError && err.status === 413) {
          void uploadLimit(true).then((limit) => {
            if (limit && f.size > limit.maxBytes) setOversize({ file: f, maxBytes: limit.maxBytes });
          });
        }
        const message = err instanceof Error ? err.message : String(err);
        setError(message);
        toast.error(message);
      },
    );
    return fileId;
  };

  /**
   * Two bite scans → one binary STL file (or a message, and null). An ASCII scan is converted to
   * binary STL in the geometry worker first; a file that is no STL is refused, naming it.
   */
  const merge = async (files: File[]): Promise<File | null> => {
    const converted: string[] = [];
    const controller = new AbortController();
    abort.current = controller;
    try {
      const read = await Promise.all(files.map(async (f) => ({ file: f, name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
      const parts: { name: string; bytes: Uint8Array }[] = [];
      for (const p of read) {
        const kind = stlKind(p.bytes);
        if (kind === 'invalid') throw new StlMergeError({ code: 'STL_MERGE_INVALID', name: p.name });
        if (kind === 'binary') {
          parts.push(p);
          continue;
        }
        const name = p.name;
        setNote(t`Converting ${name} from ASCII to binary STL…`);
        let bytes: Uint8Array;
        try {
          bytes = await toBinary(p.file, { signal: controller.signal });
        } catch (e) {
          const reason = simplifyErrorMessage(e);
          // A cancel (the form closed) says nothing.
          if (reason === null) return null;
          const why = i18n._(reason);
          setNote(null);
          setError(t`${name} could not be converted to binary STL: ${why}`);
          return null;
        }
        if (stlKind(bytes) !== 'binary') throw new StlMergeError({ code: 'STL_MERGE_INVALID', name });
        converted.push(name);
        parts.push({ name, bytes });
      }
      const bytes = mergeBinaryStl(parts);
      const name = mergedName(files.map((f) => f.name));
      const names = converted.join(', ');
      setNote(converted.length ? t`${files.length} bite scans combined into one occlusion model (${names} converted from ASCII STL)` : t`${files.length} bite scans combined into one occlusion model`);
      return new File([bytes.buffer as ArrayBuffer], name, { type: 'model/stl' });
    } catch (e) {
      setNote(null);
      if (e instanceof StlMergeError && (e.detail.code === 'STL_MERGE_INVALID' || e.detail.code === 'STL_MERGE_ASCII')) {
        const name = e.detail.name;
        setError(t`${name} is not a valid STL file`);
      } else setError(e instanceof Error ? e.message : String(e));
      return null;
    } finally {
      if (abort.current === controller) abort.current = null;
    }
  };

  const pick = async (chosen: File[]) => {
    if (chosen.length === 0) return;
    setError(null);
    setNote(null);
    setOversize(null);
    setDamage(null);
    if (chosen.some((c) => !/\.stl$/i.test(c.name))) {
      setError(t`Only STL files are accepted`);
      return;
    }
    if (chosen.length > (pair ? 2 : 1)) {
      setError(pair ? t`Choose one or two bite scans` : t`Choose one file`);
      return;
    }
    if (chosen.length > 1) {
      // Merging (and converting an ASCII scan in the worker) takes a moment: the value is pending
      // meanwhile, so that saving the order waits for the merged model instead of leaving it out.
      const before = value;
      let settle!: (fileId: Promise<number>) => void;
      onChange(track(new Promise<number>((resolve, reject) => (settle = (fileId) => void fileId.then(resolve, reject)))));
      const merged = await merge(chosen);
      const limit = merged ? await uploadLimit() : null;
      if (!merged || (limit && merged.size > limit.maxBytes)) {
        settle(Promise.reject(new Error(t`Upload failed, please try again`)));
        onChange(before);
        if (merged && limit) setOversize({ file: merged, maxBytes: limit.maxBytes });
        return;
      }
      settle(upload(merged));
      return;
    }
    const f = chosen[0]!;
    const limit = await uploadLimit();
    if (limit && f.size > limit.maxBytes) {
      setOversize({ file: f, maxBytes: limit.maxBytes });
      return;
    }
    upload(f);
  };

  const simplify = () => {
    if (!oversize || work) return;
    const { file: big, maxBytes } = oversize;
    const before = value;
    const controller = new AbortController();
    abort.current = controller;
    const { signal } = controller;
    setError(null);
    setNote(null);
    setWork({ stage: 'open', fraction: 0, shown });
    const report = (stage: Work['stage'], fraction: number | null) => setWork((w) => (w ? { ...w, stage, fraction } : w));
    let sending = false;
    const job = (async () => {
      const model = await simplifyModel(big, maxBytes, { signal, onProgress: report });
      sending = true;
      report('upload', 0);
      const [row] = await uploadFiles([model.file], { kind: 'model', signal, onProgress: (f) => report('upload', f) });
      if (!row) throw new Error(t`Upload failed, please try again`);
      return { row, model };
    })();
    onChange(track(job.then(({ row }) => row.id)));
    job.then(
      ({ row, model }) => {
        abort.current = null;
        setWork(null);
        setOversize(null);
        setCurrent({ name: row.name, size: row.size, url: row.url });
        const from = count(model.trianglesBefore);
        const to = count(model.trianglesAfter);
        setNote(t`Simplified from ${from} to ${to} triangles`);
        setDamage(healthIssues(row.health));
        onChange(row.id);
      },
      (err: unknown) => {
        abort.current = null;
        setWork(null);
        onChange(before);
        if (signal.aborted) {
          setError(t`Simplification cancelled`);
          return;
        }
        const reason = simplifyErrorMessage(err);
        if (sending && err instanceof Error) setError(err.message);
        else setError(reason ? t(reason) : t`Simplification cancelled`);
      },
    );
  };

  const uploading = progress !== null;
  const busy = uploading || work !== null;
  const stageText: Record<Work['stage'], string> = {
    open: t`Reading the model`,
    simplify: t`Simplifying`,
    export: t`Writing the simplified model`,
    upload: t`Uploading the simplified model`,
  };
  const tooLargeName = oversize?.file.name ?? '';
  const tooLargeSize = oversize ? formatSize(oversize.file.size) : '';
  const limitSize = oversize ? formatSize(oversize.maxBytes) : '';
  const percent = work?.fraction == null ? null : Math.round(work.fraction * 100);
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={input}
          id={id}
          type="file"
          accept=".stl"
          multiple={pair}
          className="sr-only"
          disabled={disabled || busy}
          aria-invalid={invalid || undefined}
          onChange={(e) => {
            void pick(Array.from(e.target.files ?? []));
            e.target.value = '';
          }}
        />
        <button type="button" className="aw-btn-default" disabled={disabled || busy} onClick={() => input.current?.click()}>
          <Icon name="file" className="size-4" />
          {shown ? t`Replace` : pair ? t`Choose one or two STL files` : t`Choose STL file`}
        </button>
        {shown && (
          <span className="flex min-w-0 items-center gap-2 text-sm text-slate-700">
            <span className="truncate" title={shown.name}>{shown.name}</span>
            <span className="text-xs text-slate-500">{formatSize(shown.size)}</span>
            {shown.url && !busy && (
              <button
                type="button"
                className="text-xs text-primary hover:underline"
                onClick={() => downloadFile(shown.url!, shown.name).catch((e: Error) => toast.error(e.message))}
              >
                {t`Download`}
              </button>
            )}
            {!disabled && !busy && (
              <button
                type="button"
                className="aw-btn-icon size-6"
                aria-label={t`Remove`}
                onClick={() => {
                  setDamage(null);
                  onChange(null);
                }}
              >
                <Icon name="x" className="size-3.5" />
              </button>
            )}
          </span>
        )}
        {!shown && !busy && <span className="text-xs text-slate-500">{t`No file`}</span>}
      </div>
      {uploading && (
        <div className="flex items-center gap-2" role="progressbar" aria-label={t`Upload progress`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(progress * 100)}>
          <div className="h-1.5 flex-1 overflow-hidden rounded-full bg-slate-200">
            <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${Math.round(progress * 100)}%` }} />
          </div>
          <span className="w-10 text-right text-xs text-slate-600 tabular-nums">{Math.round(progress * 100)}%</span>
        </div>
      )}
      {oversize && (
        <div className="flex flex-col gap-1.5 rounded-md border border-amber-200 bg-amber-50 px-2.5 py-2 text-xs text-amber-800" data-testid="model-too-large">
          <div className="flex flex-wrap items-center gap-2">
            <Icon name="alert" className="size-4 shrink-0" />
            <span className="min-w-0 flex-1">
              {t`Model too large: ${tooLargeName} is ${tooLargeSize}, the upload limit is ${limitSize}. Please simplify it.`}
            </span>
            {!work && (
              <button type="button" className="aw-btn-primary" disabled={disabled} onClick={simplify}>
                <Icon name="sparkles" className="size-4" />
                {t`Simplify`}
              </button>
            )}
          </div>
          {work && (
            <div className="flex items-center gap-2">
              <span className="w-52 shrink-0 text-slate-700" aria-live="polite">
                {stageText[work.stage]}…
              </span>
              <div
                className="flex flex-1 items-center"
                role="progressbar"
                aria-label={t`Simplification progress`}
                aria-valuetext={percent === null ? stageText[work.stage] : `${stageText[work.stage]}: ${percent}%`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent ?? undefined}
              >
                <div className="h-1.5 flex-1 overflow-hidden rounded-full bg-amber-100">
                  <div
                    className={`h-full rounded-full bg-primary transition-[width] ${percent === null ? 'animate-pulse' : ''}`}
                    style={{ width: `${percent ?? 100}%` }}
                  />
                </div>
              </div>
              <span className="w-10 text-right text-slate-600 tabular-nums">{percent === null ? '' : `${percent}%`}</span>
              <button type="button" className="aw-btn-default" onClick={() => abort.current?.abort()}>
                {t`Cancel`}
              </button>
            </div>
          )}
        </div>
      )}
      {damage !== null && Boolean(value) && !busy && (
        <div className="flex flex-wrap items-center gap-2 rounded-md border border-amber-200 bg-amber-50 px-2.5 py-2 text-xs text-amber-800" role="alert" data-testid="model-health">
          <Icon name="alert" className="size-4 shrink-0" />
          <span className="min-w-0 flex-1">{healthWarning(damage, i18n.locale || 'en')}</span>
          <button type="button" className="aw-btn-default" onClick={() => setDamage(null)}>
            {t`Keep it`}
          </button>
          {!disabled && (
            <button
              type="button"
              className="aw-btn-default"
              onClick={() => {
                setDamage(null);
                onChange(null);
              }}
            >
              {t`Remove`}
            </button>
          )}
        </div>
      )}
      {note && <p className="text-xs text-slate-600">{note}</p>}
      {error && <p className="text-xs text-red-600">{error}</p>}
    </div>
  );
}
