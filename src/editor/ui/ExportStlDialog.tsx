// The "Export STL" dialog (action export.stl): which parts (bases, wires as solid tubes, models
// as straightened) and whether in one file or one file each; each file is downloaded.
import { useState } from 'react';
import { Dialog } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import type { EditorEngine } from '../engine/EditorEngine.ts';
import type { StlExportChoice, StlFile } from '../features/export/stlExport.ts';
import { useEngineStore } from './useEngineStore.ts';

function download(file: StlFile): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: 'model/stl' }));
  a.download = file.name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function ExportStlDialog({ engine }: { engine: EditorEngine | null }) {
  const { t } = useLingui();
  const view = useEngineStore(engine?.stlExport.store, (s) => s, { open: false, busy: false, error: null, made: [] });
  const [choice, setChoice] = useState<StlExportChoice>({ bases: true, wires: true, models: false, together: true });
  if (!engine) return null;
  const available = view.open ? engine.stlExport.available() : { bases: 0, wires: 0, models: 0 };
  const parts = [
    { key: 'bases' as const, label: t`Bases`, count: available.bases },
    { key: 'wires' as const, label: t`Wires (solid tubes of their diameter)`, count: available.wires },
    { key: 'models' as const, label: t`Models (as straightened)`, count: available.models },
  ];
  const nothing = !parts.some((p) => choice[p.key] && p.count > 0);
  return (
    <Dialog.Root open={view.open} onOpenChange={(o) => !o && engine.stlExport.close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
        <Dialog.Content
          className="fixed top-1/2 left-1/2 z-50 w-[min(94vw,440px)] -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-5 shadow-2xl"
          data-testid="export-stl-dialog"
          aria-busy={view.busy}
        >
          <Dialog.Title className="mb-1 font-semibold text-slate-800">{t`Export STL`}</Dialog.Title>
          <Dialog.Description className="mb-3 text-sm text-slate-500">{t`Each part is exported as a closed mesh, in the straightened position.`}</Dialog.Description>
          <fieldset className="mb-3 flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-slate-700">{t`Parts`}</legend>
            {parts.map((p) => (
              <label key={p.key} className="flex items-center gap-2 text-sm text-slate-700">
                <input type="checkbox" checked={choice[p.key] && p.count > 0} disabled={p.count === 0} onChange={(e) => setChoice({ ...choice, [p.key]: e.target.checked })} />
                {p.label} <span className="text-slate-400 tabular-nums">({p.count})</span>
              </label>
            ))}
          </fieldset>
          <fieldset className="mb-4 flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-slate-700">{t`Files`}</legend>
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input type="radio" name="stl-files" checked={choice.together} onChange={() => setChoice({ ...choice, together: true })} />
              {t`All parts in one file`}
            </label>
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input type="radio" name="stl-files" checked={!choice.together} onChange={() => setChoice({ ...choice, together: false })} />
              {t`One file per part`}
            </label>
          </fieldset>
          {view.error && (
            <p role="alert" className="mb-3 text-sm text-red-600">
              {t`The export failed: ${view.error}`}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Dialog.Close className="aw-btn-default" disabled={view.busy}>
              {t`Close`}
            </Dialog.Close>
            <button
              type="button"
              className="aw-btn-primary"
              disabled={view.busy || nothing}
              onClick={() =>
                void engine.stlExport.run(
                  { ...choice, bases: choice.bases && available.bases > 0, wires: choice.wires && available.wires > 0, models: choice.models && available.models > 0 },
                  download,
                )
              }
            >
              {view.busy ? t`Exporting…` : t`Export`}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
