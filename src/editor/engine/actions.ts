// User actions as objects (excalidraw's model): each feature exports its actions (id, keys,
// label, icon, enabled, run) next to its tool and panel, and the toolbar, the shortcuts and the
// tests all run them by id through one registry, so a shortcut can never do something else than
// its button. An action reaches the editor only through the small host type it names (what it
// needs of the engine); the engine satisfies every host, which the compiler checks where the
// registry is built. The list of all actions is actionList.ts; the keys are documented in
// docs/editor.md.
import type { MessageDescriptor } from '@lingui/core';
import type { EditorIconName } from '../ui/icons.tsx';
import type { EditorState } from './state.ts';
import type { Tool, ToolId } from './tools/tool.ts';

/**
 * One user action. `H` is what it needs of the editor; the methods are properties so that an
 * action asking for more than the engine has does not compile.
 */
export interface EditorAction<H = ActionHost, Id extends string = string> {
  readonly id: Id;
  /** Shortcuts: "mod" is Ctrl (or Cmd on a Mac); keys as in KeyboardEvent.key, lower case. */
  readonly keys: readonly string[];
  /** The toolbar's tooltip (translated where shown). */
  readonly label: MessageDescriptor;
  readonly icon: EditorIconName;
  readonly run: (editor: H) => void;
  readonly enabled?: (editor: H) => boolean;
  /** For toggles: whether it is on now. */
  readonly active?: (editor: H) => boolean;
}

/** What the registry needs of an action: the label and the icon are the toolbar's. */
export type ActionBinding<H, Id extends string = string> = Omit<EditorAction<H, Id>, 'label' | 'icon'> &
  Partial<Pick<EditorAction<H, Id>, 'label' | 'icon'>>;

/** What every action may use of the editor. */
export interface ActionHost {
  getState(): EditorState;
  setTool(id: ToolId | null): void;
  readonly activeTool: Tool | null;
}

/** A model is ready. */
export const hasModel = (editor: ActionHost): boolean => editor.getState().models.some((m) => m.status === 'ready');

/** A jaw (upper or lower) is ready. */
export const hasJaw = (editor: ActionHost): boolean =>
  editor.getState().models.some((m) => (m.role === 'upper' || m.role === 'lower') && m.status === 'ready');

/** The run and active of an action that switches a tool on and off. */
export function toolToggle(id: ToolId): Required<Pick<EditorAction, 'run' | 'active'>> {
  return {
    run: (editor) => editor.setTool(editor.getState().tool === id ? null : id),
    active: (editor) => editor.getState().tool === id,
  };
}

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** "mod+shift+z" for an event. */
function chordOf(e: KeyLike): string {
  const parts: string[] = [];
  if (e.ctrlKey || e.metaKey) parts.push('mod');
  if (e.altKey) parts.push('alt');
  if (e.shiftKey) parts.push('shift');
  parts.push(e.key.toLowerCase());
  return parts.join('+');
}

/** The actions bound to one editor: run, enabled and active by id; the shortcut of a key event. */
export class ActionRegistry<H = unknown, Id extends string = string> {
  private readonly byId = new Map<string, ActionBinding<H, Id>>();
  private readonly byChord = new Map<string, ActionBinding<H, Id>>();

  constructor(
    private readonly host?: H,
    actions: readonly ActionBinding<H, Id>[] = [],
  ) {
    for (const action of actions) this.register(action);
  }

  register(action: ActionBinding<H, Id>): void {
    this.byId.set(action.id, action);
    for (const key of action.keys) this.byChord.set(key, action);
  }

  get(id: Id): ActionBinding<H, Id> {
    const action = this.byId.get(id);
    if (!action) throw new Error(`unknown action ${id}`);
    return action;
  }
  list(): ActionBinding<H, Id>[] {
    return [...this.byId.values()];
  }
  enabled(id: Id): boolean {
    return this.get(id).enabled?.(this.host as H) ?? true;
  }
  active(id: Id): boolean {
    return this.get(id).active?.(this.host as H) ?? false;
  }
  /** Runs an action if it is enabled; false otherwise. */
  run(id: Id): boolean {
    if (!this.enabled(id)) return false;
    this.get(id).run(this.host as H);
    return true;
  }
  match(e: KeyLike): ActionBinding<H, Id> | undefined {
    return this.byChord.get(chordOf(e));
  }
}
