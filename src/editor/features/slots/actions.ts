// Slotting's action: cut the selected wire's tag into the base; the rules answer in the panel.
import { msg } from '@lingui/core/macro';
import { hasJaw, type ActionHost, type EditorAction } from '../../engine/actions.ts';

export interface SlotActionHost extends ActionHost {
  readonly slots: { cut(): Promise<unknown> };
}

export const slotActions = [
  { id: 'slot.cut', keys: ['l'], label: msg`Slot the selected wire into the base`, icon: 'slot', run: (editor) => void editor.slots.cut(), enabled: hasJaw },
] as const satisfies readonly EditorAction<SlotActionHost>[];
