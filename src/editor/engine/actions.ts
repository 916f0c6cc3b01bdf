// One registry of user actions: the toolbar's buttons, the keyboard shortcuts and the tests all
// run actions by id, so a shortcut can never do something else than its button. Labels and
// icons live in the UI (src/editor/ui/actionLabels.ts); the keys are documented in docs/editor.md.
import type { EditorEngine } from './EditorEngine.ts';
import { VIEW_PRESETS, type ViewPreset } from './views.ts';

export type ActionId =
  | 'undo'
  | 'redo'
  | 'fit'
  | `view.${ViewPreset}`
  | 'bite.toggle'
  | 'clip.toggle'
  | 'tool.measure'
  | 'tool.base'
  | 'tool.smooth'
  | 'tool.direction'
  | 'heatmap.undercut'
  | 'tool.straighten'
  | 'slot.cut'
  | 'tool.wire'
  | 'tool.cancel'
  | 'devices.toggle';

export interface Action {
  id: ActionId;
  /** Shortcuts: "mod" is Ctrl (or Cmd on a Mac); keys as in KeyboardEvent.key, lower case. */
  keys: string[];
  run(): void;
  enabled?(): boolean;
  /** For toggles: whether it is on now. */
  active?(): boolean;
}

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** "mod+shift+z" for an event. */
export function chordOf(e: KeyLike): string {
  const parts: string[] = [];
  if (e.ctrlKey || e.metaKey) parts.push('mod');
  if (e.altKey) parts.push('alt');
  if (e.shiftKey) parts.push('shift');
  parts.push(e.key.length === 1 ? e.key.toLowerCase() : e.key.toLowerCase());
  return parts.join('+');
}

export class ActionRegistry {
  private readonly byId = new Map<ActionId, Action>();
  private readonly byChord = new Map<string, Action>();

  register(action: Action): void {
    this.byId.set(action.id, action);
    for (const key of action.keys) this.byChord.set(key, action);
  }
  get(id: ActionId): Action {
    const action = this.byId.get(id);
    if (!action) throw new Error(`unknown action ${id}`);
    return action;
  }
  list(): Action[] {
    return [...this.byId.values()];
  }
  enabled(id: ActionId): boolean {
    return this.get(id).enabled?.() ?? true;
  }
  active(id: ActionId): boolean {
    return this.get(id).active?.() ?? false;
  }
  /** Runs an action if it is enabled; false otherwise. */
  run(id: ActionId): boolean {
    if (!this.enabled(id)) return false;
    this.get(id).run();
    return true;
  }
  match(e: KeyLike): Action | undefined {
    return this.byChord.get(chordOf(e));
  }
}

const VIEW_KEYS: Record<ViewPreset, string> = { front: '1', back: '2', left: '3', right: '4', top: '5', bottom: '6' };

export function createActions(engine: EditorEngine): ActionRegistry {
  const registry = new ActionRegistry();
  const s = () => engine.getState();
  const hasModel = () => s().models.some((m) => m.status === 'ready');
  registry.register({ id: 'undo', keys: ['mod+z'], run: () => engine.undo(), enabled: () => s().canUndo });
  registry.register({ id: 'redo', keys: ['mod+shift+z', 'mod+y'], run: () => engine.redo(), enabled: () => s().canRedo });
  registry.register({ id: 'fit', keys: ['f'], run: () => engine.fitToView(), enabled: hasModel });
  for (const view of VIEW_PRESETS) {
    registry.register({ id: `view.${view}`, keys: [VIEW_KEYS[view]], run: () => engine.setView(view), enabled: hasModel, active: () => s().view === view });
  }
  registry.register({
    id: 'bite.toggle',
    keys: ['b'],
    run: () => engine.setBiteOpen(!s().biteOpen),
    enabled: () => s().models.some((m) => m.role === 'lower' && m.status === 'ready'),
    active: () => s().biteOpen,
  });
  registry.register({
    id: 'clip.toggle',
    keys: ['c'],
    run: () => engine.setClipping(!s().clipping.enabled),
    enabled: hasModel,
    active: () => s().clipping.enabled,
  });
  registry.register({
    id: 'tool.measure',
    keys: ['m'],
    run: () => {
      // "Measuring is not allowed while making accessories" (the base outline being drawn).
      const tool = engine.activeTool;
      if (tool?.id === 'base' && (tool as { drawing?: boolean }).drawing) return engine.base.report({ code: 'MEASURE_WHILE_ACCESSORY' });
      engine.setTool(s().tool === 'measure' ? null : 'measure');
    },
    enabled: hasModel,
    active: () => s().tool === 'measure',
  });
  registry.register({
    id: 'tool.base',
    keys: ['a'],
    run: () => engine.setTool(s().tool === 'base' ? null : 'base'),
    enabled: () => s().models.some((m) => (m.role === 'upper' || m.role === 'lower') && m.status === 'ready'),
    active: () => s().tool === 'base',
  });
  registry.register({
    id: 'tool.smooth',
    keys: ['s'],
    run: () => engine.setTool(s().tool === 'smooth' ? null : 'smooth'),
    enabled: hasModel,
    active: () => s().tool === 'smooth',
  });
  // Analysis (analysis.ts): aim the insertion direction along the view; undercut heatmap on/off.
  const hasJaw = () => s().models.some((m) => (m.role === 'upper' || m.role === 'lower') && m.status === 'ready');
  registry.register({
    id: 'tool.direction',
    keys: ['i'],
    run: () => engine.setTool(s().tool === 'direction' ? null : 'direction'),
    enabled: hasJaw,
    active: () => s().tool === 'direction',
  });
  registry.register({
    id: 'heatmap.undercut',
    keys: ['u'],
    run: () => engine.analysis.setMode(engine.analysis.getState().mode === 'undercut' ? 'off' : 'undercut'),
    enabled: hasJaw,
    active: () => engine.analysis.getState().mode === 'undercut',
  });
  registry.register({
    id: 'tool.straighten',
    keys: ['t'],
    run: () => engine.setTool(s().tool === 'straighten' ? null : 'straighten'),
    enabled: () => s().models.some((m) => (m.role === 'upper' || m.role === 'lower') && m.status === 'ready'),
    active: () => s().tool === 'straighten',
  });
  // Slotting (slots.ts): cut the selected wire's tag into the base; the rules answer in the panel.
  registry.register({ id: 'slot.cut', keys: ['l'], run: () => void engine.slots.cut(), enabled: hasJaw });
  // The bending machines' panel (device/DeviceController.ts): devices, queue, Bend, simulation.
  registry.register({ id: 'devices.toggle', keys: ['d'], run: () => engine.devices.toggle(), active: () => engine.devices.getState().open });
  registry.register({
    id: 'tool.wire',
    keys: ['w'],
    run: () => engine.setTool(s().tool === 'wire' ? null : 'wire'),
    enabled: hasJaw,
    active: () => s().tool === 'wire',
  });
  registry.register({ id: 'tool.cancel', keys: ['escape'], run: () => engine.setTool(null), enabled: () => s().tool !== null });
  return registry;
}
