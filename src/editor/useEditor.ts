import { useCallback, useState, useSyncExternalStore } from 'react';
import { EditorEngine, type EditorState } from './engine/EditorEngine.ts';

const BEFORE_MOUNT: EditorState = { viewportReady: false, loading: null, error: null, model: null };
const getBeforeMount = (): EditorState => BEFORE_MOUNT;
const subscribeNothing = (): (() => void) => () => {};

export interface UseEditor {
  /** Put on the <canvas>: the engine lives as long as the canvas is mounted. */
  canvasRef: (canvas: HTMLCanvasElement | null) => (() => void) | undefined;
  /** Null until the canvas is mounted. */
  engine: EditorEngine | null;
  state: EditorState;
}

/** The one way React talks to the editor engine (ARCHITECTURE rule 4). */
export function useEditor(): UseEditor {
  const [engine, setEngine] = useState<EditorEngine | null>(null);
  const canvasRef = useCallback((canvas: HTMLCanvasElement | null) => {
    if (!canvas) return undefined;
    const created = new EditorEngine(canvas);
    setEngine(created);
    return () => {
      created.dispose();
      setEngine((current) => (current === created ? null : current));
    };
  }, []);
  const state = useSyncExternalStore(engine?.subscribe ?? subscribeNothing, engine?.getState ?? getBeforeMount);
  return { canvasRef, engine, state };
}
