// Looking at the models: the camera and its lights, fitting the models into view, the view
// presets (views.ts has their angles), the bite's opening animation and the clipping plane's
// range. Functions of the camera and the models' box; the engine (EditorEngine.ts) calls them.
import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine';
import type { Scene } from '@babylonjs/core/scene';
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Color3 } from '@babylonjs/core/Maths/math.color';

import { mm, type Millimetres } from './units.ts';
import type { Xyz } from './pose.ts';
import { presetAngles, type ViewPreset } from './views.ts';

/** How far the lower jaw moves down when the bite is opened. */
export const BITE_OPENING: Millimetres = mm(12);
const BITE_ANIMATION_MS = 350;
/** Pan and rotation inertia: low, so that the model stops where it is let go. */
const INERTIA = 0.6;

type Box = { min: Xyz; max: Xyz };

/** The orbiting camera, z up, looking from the front; with a canvas, its pointer navigation. */
export function createCamera(scene: Scene, canvas: HTMLCanvasElement | null): ArcRotateCamera {
  const angles = presetAngles('front');
  const camera = new ArcRotateCamera('camera', angles.alpha, angles.beta - 0.3, 100, Vector3.Zero(), scene);
  camera.upVector = new Vector3(0, 0, 1);
  camera.inertia = INERTIA;
  camera.panningInertia = INERTIA;
  camera.wheelDeltaPercentage = 0.04; // wheel zoom proportional to the distance (about 10 % a notch)
  camera.zoomToMouseLocation = true;
  camera.useInputToRestoreState = false;
  camera.lowerBetaLimit = null;
  camera.upperBetaLimit = null;
  camera.minZ = 0.1;
  camera.maxZ = 10000;
  if (canvas) {
    // Pan: right button and ctrl+left are Babylon's defaults; shift+left too.
    camera.movement.input.addEntry({ source: 'pointer', button: 0, modifiers: { shift: true }, interaction: 'pan' });
    camera.attachControl(); // and preventDefault: the wheel must not scroll the page
  }
  return camera;
}

/** A soft sky light and a headlight (aimed by followCamera); returns the headlight. */
export function createLights(scene: Scene): DirectionalLight {
  const sky = new HemisphericLight('sky', new Vector3(0, 0, 1), scene);
  sky.intensity = 0.45;
  sky.diffuse = new Color3(1, 1, 1);
  sky.groundColor = new Color3(0.45, 0.45, 0.5);
  sky.specular = Color3.Black();
  const headlight = new DirectionalLight('headlight', new Vector3(0, 1, 0), scene);
  headlight.intensity = 0.6;
  headlight.specular = new Color3(0.5, 0.5, 0.5);
  return headlight;
}

/** Before each frame: the headlight and the pan speed follow the camera. */
export function followCamera(camera: ArcRotateCamera, engine: AbstractEngine, headlight: DirectionalLight): void {
  // Headlight: light comes from the viewer, slightly from above.
  const dir = camera.target.subtract(camera.position);
  const len = dir.length();
  if (len > 0) {
    dir.scaleInPlace(1 / len);
    const up = camera.upVector;
    headlight.direction = new Vector3(dir.x - up.x * 0.25, dir.y - up.y * 0.25, dir.z - up.z * 0.25);
  }
  // Pan speed follows the zoom: a pixel of drag moves the model about a pixel.
  const height = engine.getRenderHeight(true) || 1;
  const worldPerPixel = (2 * camera.radius * Math.tan(camera.fov / 2)) / height;
  camera.panningSensibility = 1 / ((1 - INERTIA) * worldPerPixel);
}

/** Frames a box: keeps the viewing direction, moves the target and distance. */
export function fitCamera(camera: ArcRotateCamera, engine: AbstractEngine, box: Box): void {
  const { min, max } = box;
  const center = new Vector3((min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2);
  const radius = Math.max(1e-3, Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2);
  const aspect = engine.getAspectRatio(camera) || 1;
  const tanY = Math.tan(camera.fov / 2);
  const tanX = tanY * aspect;

  // Distance at which all eight box corners fit, seen from the current direction.
  const toCamera = camera.position.subtract(camera.target);
  let distance = radius / Math.sin(Math.atan(Math.min(tanX, tanY))); // bounding sphere: fallback
  if (toCamera.lengthSquared() > 0) {
    const back = toCamera.normalize();
    const right = Vector3.Cross(camera.upVector, back);
    if (right.lengthSquared() > 1e-12) {
      right.normalize();
      const up = Vector3.Cross(back, right);
      distance = 0;
      for (let i = 0; i < 8; i++) {
        const corner = new Vector3(i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]).subtractInPlace(center);
        const depth = Vector3.Dot(corner, back);
        distance = Math.max(distance, Math.abs(Vector3.Dot(corner, right)) / tanX + depth, Math.abs(Vector3.Dot(corner, up)) / tanY + depth);
      }
    }
  }
  distance = Math.max(distance * 1.08, radius * 0.2);

  camera.inertialAlphaOffset = 0;
  camera.inertialBetaOffset = 0;
  camera.inertialRadiusOffset = 0;
  camera.inertialPanningX = 0;
  camera.inertialPanningY = 0;
  // Keep alpha/beta: without cloneAlphaBetaRadius Babylon re-aims from the old position, and the
  // distance computed above (for the current direction) would frame the model off-centre.
  camera.setTarget(center, false, true, true);
  camera.lowerRadiusLimit = radius * 0.05;
  camera.upperRadiusLimit = radius * 30;
  camera.radius = distance;
  camera.minZ = radius * 0.01;
  camera.maxZ = radius * 200;
}

/** Turns the camera to a preset direction (framing is the caller's: fitCamera). */
export function aimCamera(camera: ArcRotateCamera, view: ViewPreset): void {
  const { alpha, beta } = presetAngles(view);
  camera.alpha = alpha;
  camera.beta = beta;
  // The camera's position follows alpha/beta only when its view matrix is rebuilt; the fit
  // measures from that position, so rebuild it now.
  camera.getViewMatrix(true);
}

/** The bite opening or closing: the lower jaw's height over time. */
export interface BiteAnimation {
  from: number;
  to: number;
  start: number;
}

/** The lower jaw's height at `now` (smoothstep), and whether the animation is over. */
export function biteHeight(bite: BiteAnimation, now: number): { z: number; done: boolean } {
  const k = Math.min(1, (now - bite.start) / BITE_ANIMATION_MS);
  const eased = k * k * (3 - 2 * k);
  return { z: bite.from + (bite.to - bite.from) * eased, done: k >= 1 };
}

/** The clipping plane's range across the arch (y) for the models' box, and its middle. */
export function clipRange(box: Box): { min: Millimetres; max: Millimetres; offset: Millimetres } {
  const min = mm(Math.floor(box.min[1]));
  const max = mm(Math.ceil(box.max[1]));
  return { min, max, offset: mm(Math.round((min + max) / 2)) };
}
