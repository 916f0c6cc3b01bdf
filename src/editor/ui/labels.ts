// Names and icons of the editor's actions and of the tools to come, for the toolbar's tooltips
// (translated where shown). Shortcuts come from the action registry.
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { ActionId } from '../engine/actions.ts';
import type { EditorIconName } from './icons.tsx';

export const ACTION_LABELS: Record<ActionId, { label: MessageDescriptor; icon: EditorIconName }> = {
  undo: { label: msg`Undo`, icon: 'undo' },
  redo: { label: msg`Redo`, icon: 'redo' },
  fit: { label: msg`Fit all`, icon: 'fit' },
  'view.front': { label: msg`Front view`, icon: 'front' },
  'view.back': { label: msg`Back view`, icon: 'back' },
  'view.left': { label: msg`Left view`, icon: 'left' },
  'view.right': { label: msg`Right view`, icon: 'right' },
  'view.top': { label: msg`Occlusal view (top)`, icon: 'top' },
  'view.bottom': { label: msg`Bottom view`, icon: 'bottom' },
  'bite.toggle': { label: msg`Open or close the bite`, icon: 'bite' },
  'clip.toggle': { label: msg`Clipping plane`, icon: 'clip' },
  'tool.measure': { label: msg`Measure distance`, icon: 'measure' },
  'tool.base': { label: msg`Draw and generate the base`, icon: 'base' },
  'tool.smooth': { label: msg`Smoothing brush`, icon: 'smooth' },
  'tool.direction': { label: msg`Aim the insertion direction along the view (click a model)`, icon: 'undercut' },
  'heatmap.undercut': { label: msg`Undercut heatmap`, icon: 'heatmap' },
  'tool.straighten': { label: msg`Straighten the models`, icon: 'straighten' },
  'slot.cut': { label: msg`Slot the selected wire into the base`, icon: 'slot' },
  'tool.cancel': { label: msg`Cancel the tool`, icon: 'x' },
  'tool.wire': { label: msg`Design wires`, icon: 'wire' },
  'devices.toggle': { label: msg`Bending machines and queue`, icon: 'device' },
};

/** Tools of later work: shown disabled so that the toolbar's layout is final. */
export const LATER_TOOLS: { id: string; label: MessageDescriptor; icon: EditorIconName }[] = [
  { id: 'export', label: msg`Export STL`, icon: 'export' },
];

/** "Ctrl+Shift+Z" for a registry chord. */
export function keyName(chord: string): string {
  return chord
    .split('+')
    .map((part) => (part === 'mod' ? 'Ctrl' : part === 'shift' ? 'Shift' : part === 'alt' ? 'Alt' : part === 'escape' ? 'Esc' : part.toUpperCase()))
    .join('+');
}
