// The one legend of every heatmap (undercut depth, occlusal distance, base thickness): the ramp
// blue → green → yellow → red of workers/kernels/ramp.ts over the map's range, in millimetres.
import { useEngineStore } from '../../ui/useEngineStore.ts';
import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { AnalysisController, HeatmapLegend as Legend } from './feature.ts';
import type { EditorEngine } from '../../engine/EditorEngine.ts';
import { useFrameStatus } from '../../ui/frameAttributes.ts';
import { formatNumber } from '../../../i18n/format.ts';

const TITLES: Record<Legend['mode'], MessageDescriptor> = {
  undercut: msg`Undercut depth`,
  occlusal: msg`Distance to the lower jaw`,
  thickness: msg`Base thickness`,
};

/** The ramp's stops, as in workers/kernels/ramp.ts (RAMP_STOPS). */
const GRADIENT = 'linear-gradient(to right, rgb(0,0,255), rgb(0,255,0) 33.3%, rgb(255,255,0) 66.7%, rgb(255,0,0))';

/** The legend of the map on screen: it comes with the frame that shows the colours, not before. */
export function HeatmapLegend({ analysis, engine }: { analysis: AnalysisController; engine: EditorEngine }) {
  const { t, i18n } = useLingui();
  const state = useEngineStore(analysis, (s) => s, analysis.getState());
  const drawn = useFrameStatus(engine).drawn?.heatmap;
  const legend = state.legend;
  if (!legend || state.mode === 'off' || drawn !== legend.mode) return null;
  const format = (v: number) => formatNumber(v, { min: 1, max: 2 }, i18n.locale);
  const ticks = [0, 1 / 3, 2 / 3, 1].map((k) => legend.min + (legend.max - legend.min) * k);
  const min = format(legend.min);
  const max = format(legend.max);
  return (
    <div
      className="pointer-events-none absolute bottom-3 left-3 w-64 rounded-lg border border-slate-200 bg-white/95 px-3 py-2 text-xs text-slate-700 shadow"
      data-testid="heatmap-legend"
      data-mode={legend.mode}
      data-min={legend.min}
      data-max={legend.max}
      role="img"
      aria-label={t`${t(TITLES[legend.mode])}: ${min} mm to ${max} mm`}
    >
      <p className="mb-1 font-medium text-slate-800">
        {t(TITLES[legend.mode])} <span className="font-normal text-slate-500">(mm)</span>
      </p>
      <div className="h-3 rounded-sm border border-slate-300" style={{ background: GRADIENT }} />
      <div className="mt-0.5 flex justify-between tabular-nums text-slate-600">
        {ticks.map((v, i) => (
          <span key={i}>{format(v)}{i === ticks.length - 1 ? ' mm' : ''}</span>
        ))}
      </div>
      {legend.mode === 'undercut' && <p className="mt-1 text-slate-500">{t`Grey: no undercut. Red: ${max} mm deep or more.`}</p>}
      {legend.mode === 'occlusal' && <p className="mt-1 text-slate-500">{t`Grey: farther than 6 mm. Distances of the closed bite.`}</p>}
    </div>
  );
}
