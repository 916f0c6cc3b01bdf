// When an opened order becomes usable, as performance marks on the page's timeline (devtools'
// Performance panel, and the browser bench test/bench/browser/editor-perf.ts reads them):
//   editor:engine, editor:opening, editor:parsed:<role>, editor:built:<role>   steps on the way
//   editor:models-shown   a frame that drew every model is done (it began with the scene ready:
//                         shaders compiled, nothing skipped; its pixels read back, see finishFrame)
//   editor:interactive    ... and every model's BVH exists in the worker, so a pick answers at once
//   analysis:direction    an insertion direction change was committed (features/analysis/feature.ts)
//   analysis:computed     the worker's undercut map of that direction arrived (features/analysis/feature.ts)
//   analysis:painted      the frame with a heatmap's new colours is done (features/analysis/feature.ts)
// The models of an order are drawn together, once all are parsed (the engine holds frames until
// then). The BVHs are built in the worker after that first frame: built during it, they took
// the CPU a software renderer needs for it (browser bench: shown about 0.3 s later). A pick
// issued before waits in the worker behind its mesh's BVH build (calls on one handle run in
// order), so picking is never wrong, at most late.
import type { Scene } from '@babylonjs/core/scene';
import type { MeshHandle, BvhInfo, BvhBuildOptions, JobCallOptions } from '../../geometry/client.ts';

export const PERF_MARKS = {
  /** Steps on the way (for the bench's trace and devtools): the engine made, openModels called. */
  engine: 'editor:engine',
  opening: 'editor:opening',
  shown: 'editor:models-shown',
  interactive: 'editor:interactive',
  direction: 'analysis:direction',
  computed: 'analysis:computed',
  painted: 'analysis:painted',
} as const;

export function perfMark(name: string): void {
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function') performance.mark(name);
}

/**
 * Waits until the GPU has finished the frame just rendered: a one-pixel read (a synchronous
 * round trip). Without it the page's timeline says when the frame was sent, not when it was
 * drawn: a software renderer (SwiftShader in headless Chromium) takes a second or more for
 * large models after the draw calls return. A headless engine without WebGL has nothing to wait for.
 */
function finishFrame(scene: Scene): void {
  try {
    void scene.getEngine().readPixels(0, 0, 1, 1).catch(() => {});
  } catch {
    // NullEngine: no GL context
  }
}

/**
 * Resolves when a frame that began with the scene ready (shaders compiled: every mesh drawn) has
 * been drawn, its pixels done (finishFrame). At most `timeoutMs`.
 */
export function whenDrawn(scene: Scene, requestRender: () => void, timeoutMs = 10_000): Promise<void> {
  return new Promise<void>((resolve) => {
    let ready = false;
    const stop = (): void => {
      clearTimeout(timer);
      scene.onBeforeRenderObservable.remove(before);
      scene.onAfterRenderObservable.remove(after);
      resolve();
    };
    const timer = setTimeout(stop, timeoutMs);
    const before = scene.onBeforeRenderObservable.add(() => {
      ready = scene.isReady();
    });
    const after = scene.onAfterRenderObservable.add(() => {
      if (!ready) return requestRender(); // shaders still compiling: frames until they are
      finishFrame(scene);
      stop();
    });
    requestRender();
  });
}

/** Marks `name` when the scene's next frame has been drawn (finishFrame). */
export function markAfterNextFrame(scene: Scene, name: string): void {
  scene.onAfterRenderObservable.addOnce(() => {
    finishFrame(scene);
    perfMark(name);
  });
}

type BvhBuilder = { buildBvh?(handle: MeshHandle, build?: BvhBuildOptions, options?: JobCallOptions): Promise<BvhInfo> };

/** Builds the BVH of each model in the worker (in order, one worker); failures leave it to the first pick. */
export async function buildPickingBvhs(geometry: BvhBuilder, handles: MeshHandle[], signal: AbortSignal): Promise<boolean> {
  if (!geometry.buildBvh) return false;
  for (const handle of handles) {
    if (signal.aborted) return false;
    try {
      await geometry.buildBvh(handle, {}, { signal });
    } catch {
      if (signal.aborted) return false;
    }
  }
  return !signal.aborted;
}
