// The status bar: what the active tool expects next, the save state of the design, the model
// totals and the navigation hint.
import { useLingui } from '@lingui/react/macro';
import type { AutosaveState } from '../engine/autosave.ts';
import type { EditorEngine, EditorState } from '../engine/EditorEngine.ts';
import { useBaseView } from '../features/base/BasePanel.tsx';
import { EditorIcon } from './icons.tsx';
import { wirePlaceHint } from '../features/wires/messages.ts';
import { formatCount } from '../../i18n/format.ts';

export function StatusBar({ engine, state, save, saving, onRetry }: { engine: EditorEngine | null; state: EditorState; save: AutosaveState; saving: boolean; onRetry: () => void }) {
  const { t, i18n } = useLingui();
  const base = useBaseView(engine).status;
  const hint = (() => {
    switch (state.toolHint) {
      case 'measure.first':
        return t`Measure: click the first point on a model.`;
      case 'measure.second':
        return t`Measure: click the second point on the same model (Esc cancels).`;
      case 'measure.busy':
        return t`Measuring along the surface…`;
      case 'smooth.idle':
        return t`Smoothing brush: drag over a model to smooth it; drag beside the models to turn the view.`;
      case 'smooth.stroke':
        return t`Smoothing…`;
      case 'base.first':
        return t`Base: click the first point of the outline on a jaw.`;
      case 'base.next':
        return t`Base: click the next point; Enter or double-click closes the outline, Backspace removes the last point, drag a point to move it.`;
      case 'base.closed':
        // The next step follows the base: generate it, wait for it, or change and regenerate it.
        if (base === 'generating') return t`Base: generating the base…`;
        if (base === 'ready') return t`Base: generated. Drag a point to change the outline and Generate again, or export the base.`;
        return t`Base: outline closed; drag a point to move it, then Generate in the side panel.`;
      case 'direction.aim':
        return t`Insertion direction: turn the view to look along it, then click the model (Esc leaves).`;
      case 'straighten.idle':
        return t`Straighten: drag a ring to turn the models, an arrow to move them; or use the buttons in the side panel, or the arrow keys (Shift: move).`;
      case 'straighten.rotating':
        return t`Straighten: turning the models (Esc cancels).`;
      case 'straighten.moving':
        return t`Straighten: moving the models (Esc cancels).`;
      case 'straighten.busy':
        return t`Straightening the models…`;
      case 'bite.jaw':
        return t`Bite: click a point on a jaw, then the same point on the bite scan (O shows the scan; Backspace removes the last pair).`;
      case 'bite.scan':
        return t`Bite: now click the same point on the bite scan (Esc cancels).`;
      case 'bite.ready':
        return t`Bite: Enter or Align aligns the jaws with the picked pairs; or pick more pairs.`;
      case 'bite.busy':
        return t`Bite: aligning…`;
      case 'teeth.pick':
        return t`Teeth: click a tooth to renumber or merge it in the side panel; or choose Add region, Remove region or Split.`;
      case 'teeth.picked':
        return t`Teeth: pick its number in the side panel (a number on another tooth swaps with it), or click another tooth (Esc: none).`;
      case 'teeth.pickFirst':
        return t`Teeth: pick a tooth first (mode Pick), then draw on the model.`;
      case 'teeth.add':
        return t`Teeth: drag a loop round the surface to add it to the picked tooth.`;
      case 'teeth.remove':
        return t`Teeth: drag a loop round the surface that is gum, not tooth.`;
      case 'teeth.split':
        return t`Teeth: drag a line across the picked tooth; the part left of the line keeps its number.`;
      case 'wire.edit':
        return t`Wire: drag a corner to move it, double-click a segment to insert a corner, Delete removes the selected corner; click beside the wire or press Esc to place a new one.`;
      case 'wire.drag':
        return t`Wire: moving the corner; release to place it (Esc cancels).`;
      case 'wire.busy':
        return t`Wire: fitting the wire to the teeth…`;
      default:
        if (state.toolHint?.startsWith('wire.place.')) return t(wirePlaceHint(state.toolHint));
        return t`Left drag: rotate · Right drag or Shift+drag: pan · Wheel: zoom · F or double-click: fit all · 1–6: views`;
    }
  })();
  const ready = state.models.filter((m) => m.status === 'ready');
  const total = formatCount(ready.reduce((n, m) => n + m.triangles, 0), i18n.locale);
  const count = ready.length;
  const message = save.message ?? '';
  return (
    <footer className="flex h-8 shrink-0 items-center gap-4 border-t border-slate-200 bg-white px-3 text-xs text-slate-600" aria-label={t`Status bar`}>
      <p className="min-w-0 flex-1 truncate" data-testid="tool-hint">
        {hint}
      </p>
      {count > 0 && <p className="tabular-nums">{t`${count} models, ${total} triangles`}</p>}
      {saving && (
        <p role="status" className="flex items-center gap-1.5" data-testid="save-status" data-status={save.status}>
          {save.status === 'saved' && (
            <>
              <EditorIcon name="check" className="size-3.5 text-emerald-600" />
              {t`All changes saved`}
            </>
          )}
          {(save.status === 'saving' || save.status === 'pending') && (
            <>
              <EditorIcon name="cloud" className="size-3.5 animate-pulse text-primary" />
              {t`Saving…`}
            </>
          )}
          {save.status === 'idle' && (
            <>
              <EditorIcon name="cloud" className="size-3.5 text-slate-400" />
              {t`No changes yet`}
            </>
          )}
          {save.status === 'failed' && (
            <>
              <EditorIcon name="alert" className="size-3.5 text-red-600" />
              <span className="max-w-96 truncate text-red-700" title={message}>
                {t`Save failed: ${message}`}
              </span>
              <button type="button" className="rounded px-1.5 font-medium text-primary hover:bg-primary-light-9" onClick={onRetry}>
                {t`Retry`}
              </button>
            </>
          )}
          {save.status === 'conflict' && (
            <>
              <EditorIcon name="alert" className="size-3.5 text-amber-600" />
              <span className="max-w-96 truncate text-amber-800" title={message}>
                {t`Not saved: this design was changed in another tab or by another user.`}
              </span>
              <button type="button" className="rounded px-1.5 font-medium text-primary hover:bg-primary-light-9" onClick={() => window.location.reload()}>
                {t`Reload`}
              </button>
            </>
          )}
        </p>
      )}
    </footer>
  );
}
