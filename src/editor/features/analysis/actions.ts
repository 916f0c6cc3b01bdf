// The analysis' actions: aim the insertion direction along the view; the undercut heatmap on/off.
import { msg } from '@lingui/core/macro';
import { hasJaw, toolToggle, type ActionHost, type EditorAction } from '../../engine/actions.ts';
import type { HeatmapMode } from '../../engine/document.ts';

export interface AnalysisActionHost extends ActionHost {
  readonly analysis: { getState(): { mode: HeatmapMode }; setMode(mode: HeatmapMode): void };
}

export const analysisActions = [
  {
    id: 'tool.direction',
    keys: ['i'],
    label: msg`Aim the insertion direction along the view (click a model)`,
    icon: 'undercut',
    ...toolToggle('direction'),
    enabled: hasJaw,
  },
  {
    id: 'heatmap.undercut',
    keys: ['u'],
    label: msg`Undercut heatmap`,
    icon: 'heatmap',
    run: (editor) => editor.analysis.setMode(editor.analysis.getState().mode === 'undercut' ? 'off' : 'undercut'),
    enabled: hasJaw,
    active: (editor) => editor.analysis.getState().mode === 'undercut',
  },
] as const satisfies readonly EditorAction<AnalysisActionHost>[];
