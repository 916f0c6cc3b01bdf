// The straightening section of the side panel: the automatic straightening, the state of the
// models' pose, nudge buttons (rotation about and moves along the three axes) and the reset.
// Shown while the tool is active or once the models are straightened.
import { useLingui } from '@lingui/react/macro';
import type { EditorEngine, EditorState } from '../../engine/EditorEngine.ts';
import { MOVE_STEP_MM, ROTATE_STEP_DEGREES, type Axis } from './feature.ts';
import { formatNumber } from '../../../i18n/format.ts';

const BUTTON = 'inline-flex h-7 items-center justify-center rounded-md border px-2.5 text-xs font-medium disabled:cursor-not-allowed disabled:opacity-50';
const NUDGE = 'inline-flex h-6 min-w-9 items-center justify-center rounded border border-slate-300 bg-white px-1.5 text-xs tabular-nums text-slate-700 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-50';
const AXIS_NAMES = ['X', 'Y', 'Z'] as const;
const AXIS_COLORS = ['text-red-600', 'text-green-700', 'text-blue-600'] as const;

export function StraightenPanel({ engine, state }: { engine: EditorEngine | null; state: EditorState }) {
  const { t, i18n } = useLingui();
  const straightening = state.document.straightening;
  const status = state.straighten;
  if (state.tool !== 'straighten' && !straightening && !status.error) return null;
  const hasJaw = state.models.some((m) => (m.role === 'upper' || m.role === 'lower') && m.status === 'ready');
  const busy = status.busy;
  const controller = engine?.straightening;
  const fmt = (v: number) => formatNumber(v, { max: 1 }, i18n.locale);
  const degrees = fmt(ROTATE_STEP_DEGREES);
  const millimetres = fmt(MOVE_STEP_MM);
  const error =
    status.error === null
      ? null
      : status.error === 'NO_MODEL'
        ? t`Open an upper or lower jaw first.`
        : status.error === 'OUT_OF_MEMORY'
          ? t`The models are too large to straighten in this browser. Please straighten them by hand.`
          : t`The models could not be straightened automatically. Please try again or straighten them by hand.`;
  return (
    <section className="border-b border-slate-200 px-3 py-3" data-testid="straighten-panel" aria-label={t`Straightening`}>
      <h2 className="mb-2 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{t`Straightening`}</h2>
      <p className="text-xs text-slate-600" data-testid="straighten-state" data-straightened={straightening ? 'true' : 'false'}>
        {busy ? t`Straightening the models…` : straightening ? t`The models are straightened.` : t`The models are as scanned.`}
      </p>
      {status.method === 'box' && !error && (
        <p className="mt-1 text-xs text-amber-700">{t`No dental arch was recognised: the models were aligned with their main faces. Check the result and adjust it by hand.`}</p>
      )}
      {error && (
        <p role="alert" className="mt-1 text-xs text-red-700" data-error-code={status.error}>
          {error}
        </p>
      )}
      <div className="mt-2 flex flex-wrap gap-2">
        <button
          type="button"
          className={`${BUTTON} border-primary bg-primary text-white hover:bg-primary/90`}
          disabled={!hasJaw || busy}
          onClick={() => void controller?.auto()}
        >
          {t`Straighten automatically`}
        </button>
        <button
          type="button"
          className={`${BUTTON} border-slate-300 bg-white text-slate-700 hover:bg-slate-100`}
          disabled={!straightening || busy}
          onClick={() => controller?.reset()}
        >
          {t`Reset to the scanned position`}
        </button>
      </div>
      {state.tool === 'straighten' && hasJaw && (
        <table className="mt-3 w-full text-xs text-slate-600">
          <thead>
            <tr className="text-left text-[11px] text-slate-500">
              <th className="pb-1 font-medium">{t`Axis`}</th>
              <th className="pb-1 font-medium">{t`Turn (${degrees}°)`}</th>
              <th className="pb-1 font-medium">{t`Move (${millimetres} mm)`}</th>
            </tr>
          </thead>
          <tbody>
            {([0, 1, 2] as Axis[]).map((axis) => {
              const name = AXIS_NAMES[axis];
              return (
                <tr key={axis}>
                  <td className={`py-0.5 font-semibold ${AXIS_COLORS[axis]}`}>{name}</td>
                  <td className="py-0.5">
                    <span className="inline-flex gap-1">
                      <button type="button" className={NUDGE} disabled={busy} aria-label={t`Turn about ${name} by −${degrees}°`} title={t`Turn about ${name} by −${degrees}°`} onClick={() => controller?.rotate(axis, -ROTATE_STEP_DEGREES)}>
                        ↺
                      </button>
                      <button type="button" className={NUDGE} disabled={busy} aria-label={t`Turn about ${name} by +${degrees}°`} title={t`Turn about ${name} by +${degrees}°`} onClick={() => controller?.rotate(axis, ROTATE_STEP_DEGREES)}>
                        ↻
                      </button>
                    </span>
                  </td>
                  <td className="py-0.5">
                    <span className="inline-flex gap-1">
                      <button type="button" className={NUDGE} disabled={busy} aria-label={t`Move along ${name} by −${millimetres} mm`} title={t`Move along ${name} by −${millimetres} mm`} onClick={() => controller?.move(axis, -MOVE_STEP_MM)}>
                        −
                      </button>
                      <button type="button" className={NUDGE} disabled={busy} aria-label={t`Move along ${name} by +${millimetres} mm`} title={t`Move along ${name} by +${millimetres} mm`} onClick={() => controller?.move(axis, MOVE_STEP_MM)}>
                        +
                      </button>
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
