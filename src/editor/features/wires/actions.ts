// The wire tool's action.
import { msg } from '@lingui/core/macro';
import { hasJaw, toolToggle, type ActionHost, type EditorAction } from '../../engine/actions.ts';

export const wireActions = [
  { id: 'tool.wire', keys: ['w'], label: msg`Design wires`, icon: 'wire', ...toolToggle('wire'), enabled: hasJaw },
] as const satisfies readonly EditorAction<ActionHost>[];
