// Holding the camera while a tool drags (a brush stroke, a wire corner, a straightening ring),
// and letting it go again. A tool that cannot know at once whether a press is its own (the brush
// asks the worker) holds the camera at the press and, if the answer is no while the button is
// still down, lets it go with `resumeDrag`: the camera is handed the press it missed, so the
// drag turns the view from where it began (Babylon's pointer input forgets any press made before
// it is attached: without the press it would ignore the drag until the next one).
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { PointerEventTypes, type PointerInfo } from '@babylonjs/core/Events/pointerEvents';
import type { Observer } from '@babylonjs/core/Misc/observable';
import type { Scene } from '@babylonjs/core/scene';

export class CameraHold {
  private held = false;
  /** The press of the button now down, as the scene's pointer input saw it; null once released. */
  private press: PointerInfo | null = null;
  private readonly observer: Observer<PointerInfo> | null;

  constructor(
    private readonly scene: Scene,
    private readonly camera: ArcRotateCamera,
  ) {
    this.observer = scene.onPointerObservable.add(
      (info) => (this.press = info.type === PointerEventTypes.POINTERDOWN ? info : null),
      PointerEventTypes.POINTERDOWN | PointerEventTypes.POINTERUP,
    );
  }

  get isHeld(): boolean {
    return this.held;
  }

  /** Stops the camera's pointer navigation (nothing to do when it has none: headless). */
  hold(): void {
    if (this.held || !this.camera.inputs.attachedToElement) return;
    this.camera.detachControl();
    this.held = true;
  }

  /** Gives the camera its navigation back; `resumeDrag`: the button still down turns the view. */
  release(resumeDrag = false): void {
    if (!this.held) return;
    this.held = false;
    this.camera.attachControl();
    const press = this.press;
    if (resumeDrag && press) this.scene.onPointerObservable.notifyObservers(press, PointerEventTypes.POINTERDOWN);
  }

  dispose(): void {
    this.scene.onPointerObservable.remove(this.observer);
  }
}

/**
 * Whether a ray meets a box grown by `margin` (slab test): the synchronous, conservative
 * "may this press be on a model" of a tool whose real answer comes from the worker.
 */
export function rayMeetsBox(
  ray: { origin: readonly number[]; direction: readonly number[] },
  box: { min: readonly number[]; max: readonly number[] },
  margin = 0,
): boolean {
  let t0 = 0;
  let t1 = Infinity;
  for (let a = 0; a < 3; a++) {
    const o = ray.origin[a]!, d = ray.direction[a]!;
    const lo = box.min[a]! - margin, hi = box.max[a]! + margin;
    if (Math.abs(d) < 1e-12) {
      if (o < lo || o > hi) return false;
      continue;
    }
    let ta = (lo - o) / d, tb = (hi - o) / d;
    if (ta > tb) [ta, tb] = [tb, ta];
    t0 = Math.max(t0, ta);
    t1 = Math.min(t1, tb);
    if (t0 > t1) return false;
  }
  return true;
}
