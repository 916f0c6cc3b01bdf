// The order's actions in the editor: submit the design, reopen a submitted one.
import { msg } from '@lingui/core/macro';
import type { ActionHost, EditorAction } from '../engine/actions.ts';

export interface OrderActionHost extends ActionHost {
  readonly order: { submit(): Promise<unknown>; reopen(): Promise<boolean>; canSubmit(): boolean; canReopen(): boolean };
}

export const orderActions = [
  {
    id: 'design.submit',
    keys: ['mod+enter'],
    label: msg`Submit design`,
    icon: 'submit',
    run: (editor) => void editor.order.submit(),
    enabled: (editor) => editor.order.canSubmit(),
  },
  {
    id: 'design.reopen',
    keys: [],
    label: msg`Reopen the design`,
    icon: 'restart',
    run: (editor) => void editor.order.reopen(),
    enabled: (editor) => editor.order.canReopen(),
  },
] as const satisfies readonly EditorAction<OrderActionHost>[];
