// Tools are small state machines that receive pointer and key events (ARCHITECTURE rule 4).
// The engine forwards the canvas's events; a headless test calls the same methods with
// canvas pixel coordinates. A tool acts on clicks only (a press and release within a few
// pixels): dragging with the left button still orbits the camera.
import type { Command } from '../commands.ts';
import type { DesignDocument, ModelRole, SurfacePick } from '../document.ts';
import type { Millimetres } from '../units.ts';

export type ToolId = 'measure' | 'base' | 'smooth' | 'direction' | 'straighten' | 'wire' | 'bite' | 'teeth';

/** Where a tool is: idle (nothing started), pointing (collecting points), dragging, busy (waiting for the worker). */
export type ToolPhase = 'idle' | 'pointing' | 'dragging' | 'busy';

export interface ToolPointerEvent {
  /** Canvas CSS pixels from the top left. */
  x: number;
  y: number;
  button: number;
  /** Buttons held (PointerEvent.buttons); 0 for a hover. */
  buttons?: number;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  altKey?: boolean;
}

export interface KeyModifiers {
  shiftKey?: boolean;
  ctrlKey?: boolean;
  altKey?: boolean;
  metaKey?: boolean;
}

export interface ModelHit {
  model: ModelRole;
  pick: SurfacePick;
}

export interface SurfacePath {
  length: Millimetres;
  straight: Millimetres;
  path: Float32Array;
}

/** What a tool may use of the engine. */
export interface ToolContext {
  /** The first model surface under a canvas pixel (through the worker's BVH), or null. */
  pickAt(x: number, y: number): Promise<ModelHit | null>;
  /** Geodesic distance and path along a model; null when the worker cannot compute it. */
  geodesic(model: ModelRole, a: SurfacePick, b: SurfacePick): Promise<SurfacePath | null>;
  document(): DesignDocument;
  execute(command: Command): void;
  /** Makes a document change undoable: before/after snapshots. */
  change(label: string, next: DesignDocument): void;
  /** Marks the points a tool has collected so far (drawn by the engine); [] clears. */
  showPending(points: ModelHit[]): void;
  /** A rubber band from a collected point to the surface under the cursor; null clears it. */
  showPreview(from: ModelHit | null, to: ModelHit | null): void;
  /**
   * Tool state changed (the UI re-reads it). A tool whose phase or hint reads a feature's store
   * subscribes to it and calls this itself (unsubscribing in dispose()): the engine knows no tool.
   */
  notify(): void;
}

export interface Tool {
  readonly id: ToolId;
  readonly phase: ToolPhase;
  /** A short machine-readable hint for the status bar: the UI translates it. */
  readonly hint: string;
  pointerDown(e: ToolPointerEvent): void;
  pointerMove(e: ToolPointerEvent): void;
  /** Resolves when the tool has finished reacting (picking and computing in the worker). */
  pointerUp(e: ToolPointerEvent): Promise<void>;
  /** Escape and friends (KeyboardEvent.key and its modifiers); true when the key was used. */
  key(key: string, modifiers?: KeyModifiers): boolean;
  /** Back to idle, forgetting unfinished work. */
  cancel(): void;
  /** The pointer left the viewport: drop hover feedback (a cursor ring, a highlight). */
  pointerLeave?(): void;
  /**
   * Keys offered to the tool before the shortcuts (Escape always is). An arrow key the tool
   * wants no longer orbits the camera.
   */
  wantsKey?(key: string): boolean;
  /**
   * An accessory is half drawn (the base tool's outline, not closed yet): the measure tool is
   * refused meanwhile ("measuring is not allowed while making accessories").
   */
  readonly drawing?: boolean;
  /** While the tool is active every measurement is drawn (the measure tool). */
  readonly showsMeasurements?: boolean;
  /** The tool reads double clicks itself (otherwise a double click fits the view). */
  readonly takesDoubleClick?: boolean;
  /** The models' pose changed (straightening): redraw what follows them. */
  poseChanged?(): void;
  /** Leaving the tool (after cancel()): remove what it drew. */
  dispose?(): void;
}

/** Whether a key goes to the tool before the shortcuts. */
export function offersKey(tool: Tool | null, key: string): boolean {
  return key === 'Escape' || (tool?.wantsKey?.(key) ?? false);
}

/** Whether an arrow key belongs to the tool rather than to the camera's orbit. */
export function takesArrow(tool: Tool | null, key: string): boolean {
  return key.startsWith('Arrow') && (tool?.wantsKey?.(key) ?? false);
}

/** A press and release closer than this many pixels is a click, not a camera drag. */
export const CLICK_SLOP_PX = 5;

/** Click detection shared by the tools. */
export class ClickTracker {
  private down: ToolPointerEvent | null = null;
  press(e: ToolPointerEvent): void {
    this.down = e.button === 0 ? e : null;
  }
  move(e: ToolPointerEvent): boolean {
    return !!this.down && Math.hypot(e.x - this.down.x, e.y - this.down.y) > CLICK_SLOP_PX;
  }
  /** True when this release ends a left click. */
  release(e: ToolPointerEvent): boolean {
    const down = this.down;
    this.down = null;
    return !!down && e.button === 0 && Math.hypot(e.x - down.x, e.y - down.y) <= CLICK_SLOP_PX;
  }
}
