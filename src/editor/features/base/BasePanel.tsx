// The base tool's side panel section: the jaw worked on (each jaw has its own base), its
// outline, thickness and height, generation (progress, cancel), the rules' messages, the
// semi-transparent option and the STL export.
import { useLingui } from '@lingui/react/macro';
import { NO_BASE_VIEW, type BaseView } from './feature.ts';
import { JAWS } from '../../engine/document.ts';
import type { EditorEngine, EditorState } from '../../engine/EditorEngine.ts';
import { mm } from '../../engine/units.ts';
import { baseProblemMessage } from './messages.ts';
import { MmField } from '../../ui/MmField.tsx';
import { useEngineStore } from '../../ui/useEngineStore.ts';
import { formatCount } from '../../../i18n/format.ts';
import type { BaseStorageView } from '../../order/orderFiles.ts';

const NOT_STORED: BaseStorageView = { orderId: null, status: 'none', file: null, error: null };

/** The order's stored base: "stored on the server" with its download link, storing, or why storing failed. */
function BaseStored({ engine }: { engine: EditorEngine | null }) {
  const { t } = useLingui();
  const stored = useEngineStore(engine?.baseFile, (v) => v, NOT_STORED);
  if (stored.orderId === null) return null;
  const file = stored.file;
  return (
    <div className="mt-2 text-xs" data-testid="base-stored" data-status={stored.status}>
      {stored.status === 'storing' && <p className="text-slate-500">{t`Storing the base on the server…`}</p>}
      {stored.status === 'failed' && (
        <div role="alert" className="rounded-md bg-red-50 px-2 py-1.5 text-red-700" data-testid="base-store-error">
          <p>{t`The base could not be stored on the server: ${stored.error ?? ''}`}</p>
          <p className="mt-0.5 text-red-600">{t`The base in the editor is kept.`}</p>
          <button type="button" className="mt-1 underline hover:no-underline" onClick={() => void engine?.baseFile.store()} data-testid="base-store-retry">
            {t`Store again`}
          </button>
        </div>
      )}
      {file && stored.status !== 'storing' && (
        <p className="text-emerald-700">
          {stored.status === 'failed' ? t`The server keeps the base stored before:` : t`Stored on the server:`}{' '}
          <a
            href={file.url}
            className="text-primary underline hover:no-underline"
            data-testid="base-stored-link"
            onClick={(e) => {
              e.preventDefault();
              // The file URL needs the token: fetched with it (the order form's download), loaded on first use.
              void import('../../../modules/order/upload.ts').then((m) => m.downloadFile(file.url, file.name)).catch(() => {});
            }}
          >
            {file.name}
          </a>
        </p>
      )}
    </div>
  );
}

/** The base feature's view (generation status, problem), following the engine. */
export function useBaseView(engine: EditorEngine | null): BaseView {
  return useEngineStore(engine?.base, (view) => view, NO_BASE_VIEW);
}

/** Saves bytes as a file through a temporary link. */
function download(bytes: Uint8Array, name: string): void {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'model/stl' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function basePanelFileName(caseNo: string | undefined, jaw: 'upper' | 'lower'): string {
  const safe = (caseNo ?? '').replace(/[^\p{L}\p{N}._-]+/gu, '_');
  return `${safe || 'design'}-${jaw}-base.stl`;
}

const BUTTON = 'inline-flex h-7 items-center rounded-md border px-2.5 text-xs font-medium disabled:cursor-not-allowed disabled:opacity-50';

export function BasePanel({ engine, state, caseNo }: { engine: EditorEngine | null; state: EditorState; caseNo?: string | undefined }) {
  const { t, i18n } = useLingui();
  const view = useBaseView(engine);
  const bases = state.document.bases;
  const base = bases?.[view.jaw];
  if (state.tool !== 'base' && !bases && !view.problem) return null;
  const points = base?.outline.length ?? 0;
  const percent = Math.round((view.progress ?? 0) * 100);
  const generating = view.status === 'generating';
  const problem = view.problem;
  const triangles = formatCount(view.triangles, i18n.locale);
  return (
    <section className="border-b border-slate-200 px-3 py-3" data-testid="base-panel" aria-label={t`Base`}>
      <h2 className="mb-2 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{t`Base`}</h2>
      <div className="mb-2 flex gap-1" role="group">
        {JAWS.map((jaw) => (
          <button
            key={jaw}
            type="button"
            aria-pressed={view.jaw === jaw}
            className={`${BUTTON} ${view.jaw === jaw ? 'border-primary bg-primary/10 text-primary' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-100'}`}
            onClick={() => engine?.base.setJaw(jaw)}
            data-testid={`base-jaw-${jaw}`}
            data-outline={bases?.[jaw] ? 'true' : 'false'}
            data-status={view.jaws[jaw].status}
          >
            {jaw === 'upper' ? t`Upper jaw` : t`Lower jaw`}
          </button>
        ))}
      </div>
      <p className="text-xs text-slate-600" data-testid="base-outline" data-points={points} data-closed={base?.closed ? 'true' : 'false'}>
        {points === 0
          ? t`Click points around the area of the base on a jaw.`
          : base?.closed
            ? t`Outline closed: ${points} points.`
            : t`Outline: ${points} points (Enter or double-click closes, Backspace removes the last).`}
      </p>
      {base && (
        <div className="mt-2 grid grid-cols-2 gap-2">
          <MmField label={t`Thickness (mm)`} min={0.5} max={6} step={0.1} value={base.thickness} onValue={(v) => engine?.base.setSettings({ thickness: mm(v) })} testId="base-thickness" />
          <MmField label={t`Height (mm)`} min={0} max={10} step={0.1} value={base.height} onValue={(v) => engine?.base.setSettings({ height: mm(v) })} testId="base-height" />
        </div>
      )}
      {generating && (
        <div className="mt-2">
          <div role="progressbar" aria-label={t`Generating the base`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-1.5 overflow-hidden rounded-full bg-slate-200">
            <div className="h-full rounded-full bg-primary transition-[width] duration-100" style={{ width: `${percent}%` }} />
          </div>
          <p className="mt-1 text-xs text-slate-500 tabular-nums">{t`Generating the base… ${percent}%`}</p>
        </div>
      )}
      {problem && (
        <p role="alert" className="mt-2 rounded-md bg-red-50 px-2 py-1.5 text-xs text-red-700" data-testid="base-problem" data-code={problem.code}>
          {t(baseProblemMessage(problem.code))}
          {problem.code === 'GENERATION_FAILED' && problem.detail ? `: ${problem.detail}` : ''}
        </p>
      )}
      {view.status === 'ready' && <p className="mt-2 text-xs text-emerald-700" data-testid="base-ready">{t`Base generated (${triangles} triangles).`}</p>}
      <BaseStored engine={engine} />
      <div className="mt-2 flex flex-wrap gap-1.5">
        {generating ? (
          <button type="button" className={`${BUTTON} border-slate-300 bg-white text-slate-700 hover:bg-slate-100`} onClick={() => engine?.base.cancel()}>
            {t`Cancel`}
          </button>
        ) : (
          <button type="button" className={`${BUTTON} border-primary bg-primary text-white hover:opacity-90`} disabled={!engine} onClick={() => void engine?.base.generate()} data-testid="base-generate">
            {t`Generate`}
          </button>
        )}
        <button
          type="button"
          className={`${BUTTON} border-slate-300 bg-white text-slate-700 hover:bg-slate-100`}
          disabled={view.status !== 'ready'}
          data-testid="base-export"
          onClick={async () => {
            const bytes = await engine?.base.exportStl();
            if (bytes) download(bytes, basePanelFileName(caseNo, view.jaw));
          }}
        >
          {t`Export base`}
        </button>
        {base && (
          <button type="button" className={`${BUTTON} border-slate-300 bg-white text-slate-700 hover:bg-red-50 hover:text-red-700`} onClick={() => engine?.base.clear()}>
            {t`Remove outline`}
          </button>
        )}
      </div>
      {view.status === 'ready' && (
        <label className="mt-2 flex items-center justify-between text-xs text-slate-600">
          {t`Semi-transparent base`}
          <input type="checkbox" className="size-4 accent-primary" checked={view.transparent} onChange={(e) => engine?.base.setTransparent(e.target.checked)} />
        </label>
      )}
    </section>
  );
}
