// The measure tool's action.
import { msg } from '@lingui/core/macro';
import { hasModel, toolToggle, type ActionHost, type EditorAction } from '../../engine/actions.ts';
import type { BaseProblem } from '../base/rules.ts';

export interface MeasureActionHost extends ActionHost {
  /** Where the refusal is shown (the base's panel). */
  readonly base: { report(problem: BaseProblem | null): void };
}

export const measureActions = [
  {
    id: 'tool.measure',
    keys: ['m'],
    label: msg`Measure distance`,
    icon: 'measure',
    ...toolToggle('measure'),
    run: (editor) => {
      // "Measuring is not allowed while making accessories" (the base outline being drawn).
      if (editor.activeTool?.drawing) return editor.base.report({ code: 'MEASURE_WHILE_ACCESSORY' });
      editor.setTool(editor.getState().tool === 'measure' ? null : 'measure');
    },
    enabled: hasModel,
  },
] as const satisfies readonly EditorAction<MeasureActionHost>[];
