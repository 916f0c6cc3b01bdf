// The bending machines' action: the panel of devices, queue, Bend and the simulation.
import { msg } from '@lingui/core/macro';
import type { ActionHost, EditorAction } from '../engine/actions.ts';

export interface DeviceActionHost extends ActionHost {
  readonly devices: { toggle(): void; getState(): { open: boolean } };
}

export const deviceActions = [
  {
    id: 'devices.toggle',
    keys: ['d'],
    label: msg`Bending machines and queue`,
    icon: 'device',
    run: (editor) => editor.devices.toggle(),
    active: (editor) => editor.devices.getState().open,
  },
] as const satisfies readonly EditorAction<DeviceActionHost>[];
