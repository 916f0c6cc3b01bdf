// The viewport element mirrors the engine's frame status as data attributes, outside React (a
// frame is no reason to re-render the page): `data-render` is "pending" while a change is not yet
// on screen, and `data-drawn-*` say what the last complete frame showed. Browser tests wait on
// these instead of on time or on pixels standing still.
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { EditorEngine } from '../engine/EditorEngine.ts';
import type { FrameStatus } from '../engine/frames.ts';

function write(element: HTMLElement, status: FrameStatus, engine: EditorEngine): void {
  const data = element.dataset;
  // Where the camera looks (panning moves it), in mm to 0.01.
  data.cameraTarget = engine.cameraTarget?.map((v) => v.toFixed(2)).join(',') ?? '';
  data.render = status.pending ? 'pending' : 'idle';
  data.frames = String(status.frames);
  const drawn = status.drawn;
  if (!drawn) return;
  data.drawnView = drawn.view ?? '';
  data.drawnModels = drawn.models.join(',');
  data.drawnHidden = drawn.hidden.join(',');
  data.drawnHeatmap = drawn.heatmap;
  data.drawnWires = String(drawn.wires);
  data.drawnBases = String(drawn.bases);
  data.drawnHandles = String(drawn.handles);
  data.drawnMeasurements = String(drawn.measurements);
  data.drawnRevision = String(drawn.revision);
}

/** A ref callback for the viewport element: it carries the frame status while mounted. */
export function useFrameAttributes(engine: EditorEngine | null): (element: HTMLElement | null) => void {
  const [element, setElement] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!engine || !element) return;
    write(element, engine.frameStatus, engine);
    const observer = engine.onFrame.add((status) => write(element, status, engine));
    return () => {
      engine.onFrame.remove(observer);
    };
  }, [engine, element]);
  return setElement;
}

const NO_FRAME: FrameStatus = { frames: 0, pending: false, drawn: null };

/** The engine's frame status for a component that shows it (it re-renders on every frame). */
export function useFrameStatus(engine: EditorEngine | null): FrameStatus {
  const subscribe = useCallback(
    (listener: () => void) => {
      const observer = engine?.onFrame.add(listener);
      return () => {
        engine?.onFrame.remove(observer ?? null);
      };
    },
    [engine],
  );
  return useSyncExternalStore(subscribe, () => engine?.frameStatus ?? NO_FRAME);
}
