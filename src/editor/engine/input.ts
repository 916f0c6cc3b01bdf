// The canvas's and the window's input for the engine: pointer events to the active tool (in
// canvas CSS pixels), keys to the tool or to the action registry (the shortcuts), and the
// wake-ups of on-demand rendering. Returns what removes the listeners again.
import type { KeyLike } from './actions.ts';
import { offersKey, type Tool, type ToolPointerEvent } from './tools/tool.ts';

/** What the input needs of the engine. */
export interface InputHost {
  tool(): Tool | null;
  pointer(type: 'down' | 'move' | 'up', e: ToolPointerEvent): Promise<void>;
  /** The shortcuts (the engine's ActionRegistry). */
  readonly actions: {
    match(e: KeyLike): { readonly id: string } | undefined;
    enabled(id: string): boolean;
    run(id: string): boolean;
  };
  fitToView(): void;
  requestRender(): void;
  /** The canvas changed size. */
  resize(): void;
}

function isEditableTarget(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

export function listenInput(canvas: HTMLCanvasElement, host: InputHost): (() => void)[] {
  const cleanups: (() => void)[] = [];
  const on = <K extends keyof HTMLElementEventMap>(type: K, fn: (e: HTMLElementEventMap[K]) => void): void => {
    canvas.addEventListener(type, fn);
    cleanups.push(() => canvas.removeEventListener(type, fn));
  };
  const wake = (): void => host.requestRender();
  const local = (e: PointerEvent): ToolPointerEvent => {
    const rect = canvas.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top, button: e.button, buttons: e.buttons, shiftKey: e.shiftKey, ctrlKey: e.ctrlKey, altKey: e.altKey };
  };
  on('pointerdown', (e) => {
    wake();
    void host.pointer('down', local(e));
  });
  on('pointerup', (e) => {
    wake();
    void host.pointer('up', local(e));
  });
  on('pointerleave', () => host.tool()?.pointerLeave?.());
  on('wheel', wake);
  on('keydown', wake);
  on('pointermove', (e) => {
    if (e.buttons !== 0) host.requestRender();
    if (host.tool()) void host.pointer('move', local(e));
  });
  on('dblclick', () => !host.tool()?.takesDoubleClick && host.fitToView()); // unless the tool reads it (the base tool closes its outline)
  on('contextmenu', (e) => e.preventDefault());

  const onKey = (e: KeyboardEvent): void => {
    if (isEditableTarget(e.target)) return;
    const tool = host.tool();
    if (offersKey(tool, e.key) && tool?.key(e.key, e)) {
      e.preventDefault();
      return;
    }
    const action = host.actions.match(e);
    if (!action || !host.actions.enabled(action.id)) return;
    e.preventDefault();
    host.actions.run(action.id);
  };
  window.addEventListener('keydown', onKey);
  cleanups.push(() => window.removeEventListener('keydown', onKey));

  const resize = new ResizeObserver(() => host.resize());
  resize.observe(canvas);
  cleanups.push(() => resize.disconnect());
  return cleanups;
}
