// The actions every feature stands on: history (the command stack), the camera's views, the bite,
// the clipping plane and leaving a tool.
import { msg } from '@lingui/core/macro';
import type { EditorIconName } from '../ui/icons.tsx';
import { hasModel, type ActionHost, type EditorAction } from './actions.ts';
import { VIEW_PRESETS, type ViewPreset } from './views.ts';

export interface CoreActionHost extends ActionHost {
  undo(): void;
  redo(): void;
  fitToView(): void;
  setView(view: ViewPreset): void;
  setBiteOpen(open: boolean): void;
  setClipping(enabled: boolean): void;
}

const VIEW_KEYS: Record<ViewPreset, string> = { front: '1', back: '2', left: '3', right: '4', top: '5', bottom: '6' };

const VIEW_LABELS = {
  front: { label: msg`Front view`, icon: 'front' },
  back: { label: msg`Back view`, icon: 'back' },
  left: { label: msg`Left view`, icon: 'left' },
  right: { label: msg`Right view`, icon: 'right' },
  top: { label: msg`Occlusal view (top)`, icon: 'top' },
  bottom: { label: msg`Bottom view`, icon: 'bottom' },
} satisfies Record<ViewPreset, { label: EditorAction['label']; icon: EditorIconName }>;

const viewActions = VIEW_PRESETS.map(
  (view): EditorAction<CoreActionHost, `view.${ViewPreset}`> => ({
    id: `view.${view}`,
    keys: [VIEW_KEYS[view]],
    ...VIEW_LABELS[view],
    run: (editor) => editor.setView(view),
    enabled: hasModel,
    active: (editor) => editor.getState().view === view,
  }),
);

export const coreActions = [
  {
    id: 'undo',
    keys: ['mod+z'],
    label: msg`Undo`,
    icon: 'undo',
    run: (editor) => editor.undo(),
    enabled: (editor) => editor.getState().canUndo,
  },
  {
    id: 'redo',
    keys: ['mod+shift+z', 'mod+y'],
    label: msg`Redo`,
    icon: 'redo',
    run: (editor) => editor.redo(),
    enabled: (editor) => editor.getState().canRedo,
  },
  { id: 'fit', keys: ['f'], label: msg`Fit all`, icon: 'fit', run: (editor) => editor.fitToView(), enabled: hasModel },
  ...viewActions,
  {
    id: 'bite.toggle',
    keys: ['b'],
    label: msg`Open or close the bite`,
    icon: 'bite',
    run: (editor) => editor.setBiteOpen(!editor.getState().biteOpen),
    enabled: (editor) => editor.getState().models.some((m) => m.role === 'lower' && m.status === 'ready'),
    active: (editor) => editor.getState().biteOpen,
  },
  {
    id: 'clip.toggle',
    keys: ['c'],
    label: msg`Clipping plane`,
    icon: 'clip',
    run: (editor) => editor.setClipping(!editor.getState().clipping.enabled),
    enabled: hasModel,
    active: (editor) => editor.getState().clipping.enabled,
  },
  {
    id: 'tool.cancel',
    keys: ['escape'],
    label: msg`Cancel the tool`,
    icon: 'x',
    run: (editor) => editor.setTool(null),
    enabled: (editor) => editor.getState().tool !== null,
  },
] as const satisfies readonly EditorAction<CoreActionHost>[];
