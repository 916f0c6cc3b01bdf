// The base's action: the tool that draws the outline and generates the base.
import { msg } from '@lingui/core/macro';
import { hasJaw, toolToggle, type ActionHost, type EditorAction } from '../../engine/actions.ts';

export const baseActions = [
  { id: 'tool.base', keys: ['a'], label: msg`Draw and generate the base`, icon: 'base', ...toolToggle('base'), enabled: hasJaw },
] as const satisfies readonly EditorAction<ActionHost>[];
