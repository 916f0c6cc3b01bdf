// The /bend page: the design editor. For now: open an STL jaw model (button
// or drag and drop), watch it load, look at it (orbit, pan, zoom, fit).
import { useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { Icon } from '../ui/icons.tsx';
import type { EditorError } from './engine/EditorEngine.ts';
import { useEditor } from './useEditor.ts';

/** A sentence for every error the editor can show (translated where it is shown). */
function errorMessage(error: EditorError): MessageDescriptor {
  switch (error.code) {
    case 'STL_NOT_STL':
      return msg`This file is not an STL file.`;
    case 'STL_EMPTY':
      return msg`The STL file is empty.`;
    case 'STL_TOO_SHORT':
      return msg`The STL file is broken: it is too short to hold any triangles.`;
    case 'STL_TRUNCATED':
      return msg`The STL file is broken: it ends before all its triangles.`;
    case 'STL_COUNT_MISMATCH':
      return msg`The STL file is broken: the triangle count in its header does not match its size.`;
    case 'STL_MALFORMED': {
      const line = error.line;
      return line ? msg`The STL file is broken: there is an error in line ${line}.` : msg`The STL file is broken: its text is not valid STL.`;
    }
    case 'STL_NO_TRIANGLES':
      return msg`The STL file contains no triangles.`;
    case 'STL_NON_FINITE':
      return msg`The STL file is broken: some coordinates are not valid numbers.`;
    case 'STL_TOO_LARGE':
    case 'OUT_OF_MEMORY':
      return msg`The STL file is too large to open in this browser.`;
    case 'STL_READ_FAILED':
      return msg`The file could not be read. Please try again.`;
    case 'WEBGL_UNAVAILABLE':
      return msg`3D display is not available: this browser does not support WebGL or has it turned off.`;
    case 'ABORTED':
    case 'BAD_INPUT':
    case 'NO_SUCH_MESH':
    case 'KERNEL_FAILED':
    case 'WORKER_FAILED':
      return msg`The model could not be processed because of an internal error. Please reload the page and try again.`;
  }
}

function hasFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer.types).includes('Files');
}

export default function BendPage() {
  const { t, i18n } = useLingui();
  const { canvasRef, engine, state } = useEditor();
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const { loading, error, model } = state;
  const number = (n: number): string => new Intl.NumberFormat(i18n.locale || undefined).format(n);

  const open = (file: File | undefined): void => {
    if (file && engine) void engine.openStl(file);
  };
  const onFileChosen = (e: ChangeEvent<HTMLInputElement>): void => {
    open(e.target.files?.[0]);
    e.target.value = ''; // choosing the same file again fires change again
  };
  const onDragOver = (e: DragEvent<HTMLElement>): void => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    if (!dragging) setDragging(true);
  };
  const onDragLeave = (e: DragEvent<HTMLElement>): void => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
  };
  const onDrop = (e: DragEvent<HTMLElement>): void => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    setDragging(false);
    open(e.dataTransfer.files[0]);
  };

  const percent = loading ? Math.round(loading.fraction * 100) : 0;
  const loadingName = loading?.fileName ?? '';
  const modelName = model?.name ?? '';
  const triangles = number(model?.triangles ?? 0);
  const vertices = number(model?.vertices ?? 0);

  const button =
    'inline-flex h-8 items-center gap-1.5 rounded-md border px-3 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:cursor-not-allowed disabled:opacity-50';

  return (
    <div className="flex h-screen w-full flex-col bg-slate-100 text-slate-800">
      <div role="toolbar" aria-label={t`Editor toolbar`} className="flex min-h-12 flex-wrap items-center gap-2 border-b border-slate-200 bg-white px-3 py-2">
        <Link
          to="/"
          className="inline-flex size-8 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary"
          aria-label={t`Back to the back office`}
          title={t`Back to the back office`}
        >
          <Icon name="home" className="size-4" />
        </Link>
        <button
          type="button"
          className={`${button} border-primary bg-primary text-white hover:bg-primary-dark`}
          onClick={() => fileInput.current?.click()}
          disabled={!engine || !state.viewportReady}
        >
          {t`Open STL`}
        </button>
        <input ref={fileInput} type="file" accept=".stl,model/stl,application/sla" className="hidden" onChange={onFileChosen} data-testid="open-stl-input" />
        <button
          type="button"
          className={`${button} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`}
          onClick={() => engine?.fitToView()}
          disabled={!model}
          title={t`Fit to view (F or double-click)`}
        >
          {t`Fit to view`}
        </button>

        {loading && (
          <div className="flex items-center gap-2 text-sm text-slate-600">
            <div
              role="progressbar"
              aria-label={t`Loading ${loadingName}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              className="h-2 w-40 overflow-hidden rounded-full bg-slate-200"
            >
              <div className="h-full rounded-full bg-primary transition-[width] duration-100" style={{ width: `${percent}%` }} />
            </div>
            <span className="tabular-nums">
              {loading.stage === 'read' ? t`Reading ${loadingName}…` : t`Processing ${loadingName}…`} {percent}%
            </span>
            <button type="button" className={`${button} h-7 border-slate-300 bg-white px-2 text-slate-600 hover:bg-slate-50`} onClick={() => engine?.cancelLoad()}>
              {t`Cancel`}
            </button>
          </div>
        )}

        <p className="ml-auto truncate text-sm text-slate-600" role="status" data-testid="model-status">
          {model ? t`${modelName}: ${triangles} triangles, ${vertices} vertices` : ''}
        </p>
      </div>

      {error && (
        <div role="alert" className="flex items-start gap-3 border-b border-red-200 bg-red-50 px-4 py-2.5 text-sm text-red-800" data-error-code={error.code}>
          <p className="flex-1">
            {error.fileName && <span className="font-semibold">{error.fileName}: </span>}
            {t(errorMessage(error))}
          </p>
          {error.code !== 'WEBGL_UNAVAILABLE' && (
            <button type="button" className="shrink-0 rounded px-1.5 text-red-700 hover:bg-red-100" onClick={() => engine?.dismissError()} aria-label={t`Dismiss`}>
              ×
            </button>
          )}
        </div>
      )}

      <div
        className="relative min-h-0 flex-1"
        data-testid="viewport"
        data-model-triangles={model ? String(model.triangles) : ''}
        onDragOver={onDragOver}
        onDragEnter={onDragOver}
        onDragLeave={onDragLeave}
        onDrop={onDrop}
      >
        <canvas ref={canvasRef} className="block h-full w-full touch-none outline-none" tabIndex={0} aria-label={t`3D view of the model`} />
        {!model && !loading && state.viewportReady && (
          <div className="pointer-events-none absolute inset-0 flex items-center justify-center p-6">
            <p className="rounded-lg bg-white/80 px-4 py-3 text-center text-sm text-slate-500 shadow-sm">{t`Open an STL file or drop it here.`}</p>
          </div>
        )}
        {dragging && (
          <div className="pointer-events-none absolute inset-3 flex items-center justify-center rounded-xl border-2 border-dashed border-primary bg-primary-light-9/70">
            <p className="text-base font-medium text-primary">{t`Drop the STL file to open it`}</p>
          </div>
        )}
        {model && (
          <p className="pointer-events-none absolute bottom-2 left-3 text-xs text-slate-500">
            {t`Left drag: rotate · Right drag or Shift+drag: pan · Wheel: zoom · Double-click or F: fit to view`}
          </p>
        )}
      </div>
    </div>
  );
}
