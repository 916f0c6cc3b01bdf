// The engine's Babylon engine and scene, and its on-demand render loop: a frame is drawn for every
// request not yet answered (frames.ts), while an animation runs and while shaders compile, never
// while an order's models are held back (models.ts); an empty scene draws one frame of background
// per canvas size.
import { Engine } from '@babylonjs/core/Engines/engine';
import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine';
import { Scene } from '@babylonjs/core/scene';
import { Color4 } from '@babylonjs/core/Maths/math.color';
import type { FrameClock, FrameSummary } from './frames.ts';

const BACKGROUND = new Color4(0.925, 0.933, 0.945, 1);

/** The given engine (a NullEngine in tests), or a WebGL engine on the canvas; null when WebGL cannot start. */
export function createRenderEngine(canvas: HTMLCanvasElement | null, given?: AbstractEngine): AbstractEngine | null {
  try {
    if (given) return given;
    if (canvas)
      return new Engine(
        canvas,
        true,
        { preserveDrawingBuffer: true, stencil: false, antialias: true, powerPreference: 'high-performance', doNotHandleContextLost: false },
        true,
      );
    throw new Error('no canvas');
  } catch {
    return null;
  }
}

/** A right-handed scene (z up, as the STL) without Babylon's pointer picking. */
export function createScene(engine: AbstractEngine): Scene {
  const scene = new Scene(engine);
  scene.useRightHandedSystem = true;
  scene.clearColor = BACKGROUND;
  // Picking goes through the worker's BVH: Babylon's CPU picking would walk big meshes.
  scene.skipPointerMovePicking = true;
  scene.skipPointerDownPicking = true;
  scene.skipPointerUpPicking = true;
  return scene;
}

/** What the render loop asks of the engine. */
export interface FrameHost {
  /** No frame before this time (performance.now()). */
  heldUntil(): number;
  /** The requests owed and the frames that answer them. */
  clock: FrameClock;
  /** What the frame about to be drawn shows. */
  summarize(): FrameSummary;
}

export function runFrames(engine: AbstractEngine, scene: Scene, host: FrameHost): void {
  /** Size of the last frame drawn with an empty scene ('' after a frame with meshes). */
  let emptyFrame = '';
  const { clock } = host;
  engine.runRenderLoop(() => {
    const now = performance.now();
    if (now < host.heldUntil()) return;
    const ready = scene.isReady();
    if (ready && !clock.owed(now)) return clock.idle();
    // Nothing in the scene yet (the models downloading): one frame of background per canvas size
    // is enough. More would spend, with a software renderer, the CPU the downloads and the
    // worker need (browser bench: about a second later on screen with 30 such frames).
    const empty = scene.meshes.length === 0 ? `${engine.getRenderWidth()}x${engine.getRenderHeight()}` : '';
    if (empty && empty === emptyFrame) return clock.skip();
    emptyFrame = empty;
    // A frame begun while shaders compile may leave meshes out: it does not answer the requests.
    clock.begin();
    scene.render();
    clock.end(ready ? host.summarize() : null);
  });
}
