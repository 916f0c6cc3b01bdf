// The smoothing brush's action.
import { msg } from '@lingui/core/macro';
import { hasModel, toolToggle, type ActionHost, type EditorAction } from '../../engine/actions.ts';

export const smoothActions = [
  { id: 'tool.smooth', keys: ['s'], label: msg`Smoothing brush`, icon: 'smooth', ...toolToggle('smooth'), enabled: hasModel },
] as const satisfies readonly EditorAction<ActionHost>[];
