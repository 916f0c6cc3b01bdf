// The teeth's actions: the Teeth display (tinted teeth, their numbers and gum lines) and the
// correction tool (the toolbar, the teeth panel and the keys run the same objects).
import { msg } from '@lingui/core/macro';
import { toolToggle, type ActionHost, type EditorAction } from '../../engine/actions.ts';

export interface TeethActionHost extends ActionHost {
  readonly teeth: { setShown(shown: boolean): Promise<void> };
}

const jawReady = (editor: ActionHost): boolean => editor.getState().models.some((m) => (m.role === 'upper' || m.role === 'lower') && m.status === 'ready');

export const teethActions = [
  {
    id: 'teeth.toggle',
    keys: ['n'],
    label: msg`Show the teeth and their numbers`,
    icon: 'teeth',
    run: (editor) => void editor.teeth.setShown(!editor.getState().teethShown),
    active: (editor) => editor.getState().teethShown,
    enabled: jawReady,
  },
  {
    id: 'tool.teeth',
    keys: ['shift+n'],
    label: msg`Correct the teeth`,
    icon: 'teethEdit',
    ...toolToggle('teeth'),
    enabled: (editor) => jawReady(editor) && editor.getState().teethShown,
  },
] as const satisfies readonly EditorAction<TeethActionHost>[];
