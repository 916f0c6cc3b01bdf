// When an opened order becomes usable, as performance marks on the page's timeline (devtools'
// Performance panel, and the browser bench test/bench/browser/editor-perf.ts reads them):
//   editor:models-shown   every model of the order is drawn (the first frame with all of them)
//   editor:interactive    ... and every model's BVH exists in the worker, so a pick answers at
//                         once; set after the next frame drawn once the BVHs are built
//   analysis:direction    an insertion direction change was committed (analysis.ts)
//   analysis:painted      a heatmap's colours were drawn (the frame after they were set)
// The BVHs are built after the first frame, not before: the models show as soon as they are
// parsed, and a pick issued meanwhile waits in the worker behind its mesh's BVH build (calls on
// one handle run in order), so picking is never wrong, at most late.
import type { MeshHandle, BvhInfo, BvhBuildOptions, JobCallOptions } from '../geometry/client.ts';

export const PERF_MARKS = {
  shown: 'editor:models-shown',
  interactive: 'editor:interactive',
  direction: 'analysis:direction',
  painted: 'analysis:painted',
} as const;

export function perfMark(name: string): void {
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function') performance.mark(name);
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
