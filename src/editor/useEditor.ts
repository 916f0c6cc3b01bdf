import { useCallback, useEffect, useState } from 'react';
import type { AutosaveState } from './engine/autosave.ts';
import { EditorEngine, type EditorState } from './engine/EditorEngine.ts';
import { mm } from './engine/units.ts';
import { initialEditorState } from './engine/state.ts';
import { openOrder, type OpenedOrder } from './order/openOrder.ts';
import type { OrderInfo } from './order/orderSource.ts';
import { useEngineStore } from './ui/useEngineStore.ts';

// No view and no clipping range until the engine exists.
const BEFORE_MOUNT: EditorState = { ...initialEditorState(), view: null, clipping: { enabled: false, offset: mm(0), min: mm(0), max: mm(0) } };
const NO_SAVE: AutosaveState = { status: 'idle', version: 0, message: null, savedAt: null };

export type OrderLoad =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'ready'; order: OrderInfo }
  | { status: 'failed'; message: string };

export interface UseEditor {
  /** Put on the <canvas>: the engine lives as long as the canvas is mounted. */
  canvasRef: (canvas: HTMLCanvasElement | null) => (() => void) | undefined;
  /** Put on a positioned element over the canvas: measurement labels go there. */
  overlayRef: (element: HTMLElement | null) => void;
  /** Null until the canvas is mounted. */
  engine: EditorEngine | null;
  state: EditorState;
  order: OrderLoad;
  save: AutosaveState;
  /** Saves now (the "retry" of a failed save). */
  saveNow(): void;
}

/**
 * The one way React talks to the editor engine (ARCHITECTURE rule 4). With an order id it opens
 * the order's models and design and autosaves; without one the page opens local files.
 */
export function useEditor(orderId: number | null = null): UseEditor {
  const [engine, setEngine] = useState<EditorEngine | null>(null);
  const [overlay, setOverlay] = useState<HTMLElement | null>(null);
  const [order, setOrder] = useState<OrderLoad>({ status: orderId ? 'loading' : 'none' });
  const [opened, setOpened] = useState<OpenedOrder | null>(null);

  const canvasRef = useCallback((canvas: HTMLCanvasElement | null) => {
    if (!canvas) return undefined;
    const created = new EditorEngine(canvas);
    setEngine(created);
    return () => {
      created.dispose();
      setEngine((current) => (current === created ? null : current));
    };
  }, []);
  const overlayRef = useCallback((element: HTMLElement | null) => setOverlay(element), []);

  useEffect(() => {
    engine?.attachOverlay(overlay);
  }, [engine, overlay]);

  useEffect(() => {
    if (!engine || !orderId || !engine.getState().viewportReady) return undefined;
    let live = true;
    let result: OpenedOrder | null = null;
    const abort = new AbortController();
    setOrder({ status: 'loading' });
    openOrder(engine, orderId, abort.signal).then(
      (value) => {
        result = value;
        if (!live) {
          value.close();
          value.autosave.dispose();
          return;
        }
        setOpened(value);
        setOrder({ status: 'ready', order: value.order });
      },
      (e: unknown) => {
        if (live) setOrder({ status: 'failed', message: e instanceof Error ? e.message : String(e) });
      },
    );
    return () => {
      live = false;
      abort.abort();
      if (result) {
        result.close();
        void result.autosave.close();
      }
      setOpened(null);
    };
  }, [engine, orderId]);

  // Unsaved changes: the browser asks before the tab is closed.
  useEffect(() => {
    if (!opened) return undefined;
    const onBeforeUnload = (e: BeforeUnloadEvent): void => {
      if (opened.autosave.dirty) {
        void opened.autosave.flush();
        e.preventDefault();
      }
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [opened]);

  const state = useEngineStore(engine, (s) => s, BEFORE_MOUNT);
  const autosave = opened?.autosave;
  const save = useEngineStore(autosave, (s) => s, NO_SAVE);
  const saveNow = useCallback(() => void autosave?.flush(), [autosave]);
  return { canvasRef, overlayRef, engine, state, order, save, saveNow };
}
