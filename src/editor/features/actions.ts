// Every action of the editor: the engine's own (coreActions.ts) and each feature's. A new action
// of a feature goes into that feature's actions.ts only; a new feature adds its list here.
import type { EditorAction } from '../engine/actions.ts';
import { coreActions } from '../engine/coreActions.ts';
import { measureActions } from './measure/actions.ts';
import { baseActions } from './base/actions.ts';
import { smoothActions } from './smooth/actions.ts';
import { analysisActions } from './analysis/actions.ts';
import { straightenActions } from './straighten/actions.ts';
import { slotActions } from './slots/actions.ts';
import { wireActions } from './wires/actions.ts';
import { deviceActions } from '../device/actions.ts';
import { biteActions } from './bite/actions.ts';
import { teethActions } from './teeth/actions.ts';
import { orderActions } from '../order/actions.ts';
import { exportActions } from './export/actions.ts';

export const EDITOR_ACTIONS = [
  ...coreActions,
  ...measureActions,
  ...baseActions,
  ...smoothActions,
  ...analysisActions,
  ...straightenActions,
  ...slotActions,
  ...deviceActions,
  ...wireActions,
  ...biteActions,
  ...teethActions,
  ...orderActions,
  ...exportActions,
] as const;

export type ActionId = (typeof EDITOR_ACTIONS)[number]['id'];

const BY_ID = new Map<string, EditorAction<never>>(EDITOR_ACTIONS.map((a) => [a.id, a]));

/** An action's description (label, icon, keys) without an editor: the toolbar before the engine starts. */
export function describeAction(id: ActionId): Pick<EditorAction, 'id' | 'keys' | 'label' | 'icon'> & { toggle: boolean } {
  const a = BY_ID.get(id);
  if (!a) throw new Error(`unknown action ${id}`);
  return { id: a.id, keys: a.keys, label: a.label, icon: a.icon, toggle: !!a.active };
}
