// Names and icons of the tools to come, for the toolbar's tooltips (translated where shown), and
// how a shortcut is written. The actions' own labels and icons are in each feature's actions.ts.
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { EditorIconName } from './icons.tsx';

/** Tools of later work: shown disabled so that the toolbar's layout is final. */
export const LATER_TOOLS: { id: string; label: MessageDescriptor; icon: EditorIconName }[] = [];

/** "Ctrl+Shift+Z" for a registry chord. */
export function keyName(chord: string): string {
  return chord
    .split('+')
    .map((part) => (part === 'mod' ? 'Ctrl' : part === 'shift' ? 'Shift' : part === 'alt' ? 'Alt' : part === 'escape' ? 'Esc' : part.toUpperCase()))
    .join('+');
}
