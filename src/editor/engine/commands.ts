// One undo stack for every design change (ARCHITECTURE rule 4). A command knows how to do and
// undo itself; the stack runs it, keeps it, and says when it changed (the toolbar's undo/redo
// buttons and the autosave listen). Marks name a point in the history so that a tool can undo
// back to it (the straightening's "reset").
import { Observable } from '@babylonjs/core/Misc/observable';

export interface Command {
  /** An action id or a short name, for diagnostics and the undo button's tooltip. */
  readonly label: string;
  do(): void;
  undo(): void;
}

export type UndoMark = number;

/**
 * A change between two snapshots (documents are small): do applies `next`, undo `before`. An
 * effect outside the snapshot (the worker's mesh) is done and undone with it, first.
 */
export function snapshotCommand<T>(label: string, before: T, next: T, apply: (value: T) => void, effect?: { do(): void; undo(): void }): Command {
  return {
    label,
    do: () => {
      effect?.do();
      apply(next);
    },
    undo: () => {
      effect?.undo();
      apply(before);
    },
  };
}

export class CommandStack {
  /** After every execute, undo, redo, undoTo or clear. */
  readonly onChanged = new Observable<CommandStack>();
  private readonly done: Command[] = [];
  private readonly undone: Command[] = [];
  /** Counts commands ever executed, so marks stay valid across undo and redo. */
  private serial = 0;
  private readonly serials: number[] = [];

  get canUndo(): boolean {
    return this.done.length > 0;
  }
  get canRedo(): boolean {
    return this.undone.length > 0;
  }
  get undoLabel(): string | null {
    return this.done.at(-1)?.label ?? null;
  }
  get redoLabel(): string | null {
    return this.undone.at(-1)?.label ?? null;
  }
  /** Number of commands that can be undone. */
  get depth(): number {
    return this.done.length;
  }

  execute(command: Command): void {
    command.do();
    this.done.push(command);
    this.serials.push(++this.serial);
    this.undone.length = 0;
    this.onChanged.notifyObservers(this);
  }

  undo(): boolean {
    const command = this.done.pop();
    if (!command) return false;
    this.serials.pop();
    command.undo();
    this.undone.push(command);
    this.onChanged.notifyObservers(this);
    return true;
  }

  redo(): boolean {
    const command = this.undone.pop();
    if (!command) return false;
    command.do();
    this.done.push(command);
    this.serials.push(++this.serial);
    this.onChanged.notifyObservers(this);
    return true;
  }

  /** The current point in the history. */
  mark(): UndoMark {
    return this.serials.at(-1) ?? 0;
  }

  /** Undoes every command executed after `mark`; false when the mark is no longer in the history. */
  undoTo(mark: UndoMark): boolean {
    if (mark !== 0 && !this.serials.includes(mark)) return false;
    let changed = false;
    while ((this.serials.at(-1) ?? 0) > mark) {
      const command = this.done.pop()!;
      this.serials.pop();
      command.undo();
      this.undone.push(command);
      changed = true;
    }
    if (changed) this.onChanged.notifyObservers(this);
    return true;
  }

  /** Forgets the history (a document loaded from the server starts a new one). */
  clear(): void {
    this.done.length = 0;
    this.undone.length = 0;
    this.serials.length = 0;
    this.onChanged.notifyObservers(this);
  }
}
