// The straightening tool's action.
import { msg } from '@lingui/core/macro';
import { hasJaw, toolToggle, type ActionHost, type EditorAction } from '../../engine/actions.ts';

export const straightenActions = [
  { id: 'tool.straighten', keys: ['t'], label: msg`Straighten the models`, icon: 'straighten', ...toolToggle('straighten'), enabled: hasJaw },
] as const satisfies readonly EditorAction<ActionHost>[];
