// From canvas pixels to the models and back: picking through the worker's BVH (never Babylon's
// CPU picking, which would walk big meshes), viewing rays carried into a model's frame
// (straightening and bite undone: pose.ts), model points projected to pixels, geodesic paths.
import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine';
import type { Scene } from '@babylonjs/core/scene';
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector';

import type { Vec3 } from '../../geometry/client.ts';
import type { ModelRole } from './document.ts';
import { rayMeetsBox } from './cameraHold.ts';
import { PickMemory } from './footprint.ts';
import type { GeometryPort, ModelSlots } from './models.ts';
import type { ModelHit, SurfacePath } from './tools/tool.ts';
import { mm } from './units.ts';
import { modelToWorldMatrix, rayToModel, transformPoint, type Xyz } from './pose.ts';

/** What picking needs of the engine (the scene's parts are null without WebGL). */
export interface PickHost {
  scene(): Scene | null;
  engine(): AbstractEngine | null;
  camera(): ArcRotateCamera | null;
  /** The clipping plane (state.clipping): y < offset is cut away. */
  clipping(): { enabled: boolean; offset: number };
}

export class Picking {
  /** The last pick's answer, for a press at the same pixel in the same view (footprint.ts). */
  private readonly lastPick = new PickMemory();

  constructor(
    private readonly host: PickHost,
    private readonly models: ModelSlots,
    private readonly geometry: GeometryPort,
  ) {}

  /**
   * The first visible model surface under a canvas pixel (CSS pixels), through the worker's BVH
   * (never Babylon's CPU picking). The clipped-away part of a model is not hit.
   */
  async pickAt(x: number, y: number): Promise<ModelHit | null> {
    const scene = this.host.scene();
    const camera = this.host.camera();
    if (!scene || !camera) return null;
    const ray = scene.createPickingRay(x, y, Matrix.Identity(), camera);
    const view = this.viewKey();
    const clip = this.host.clipping();
    const pose = this.models.pose;
    let best: (ModelHit & { t: number }) | null = null;
    const picks = [...this.models.entries.values()]
      .filter((e) => e.handle !== null && e.view.visible && e.view.status === 'ready')
      .map(async (e) => {
        // The ray in the model's frame (straightening and bite undone; rigid, so t is unchanged).
        const { origin, direction: dir } = rayToModel(pose, e.offset, [ray.origin.x, ray.origin.y, ray.origin.z], [ray.direction.x, ray.direction.y, ray.direction.z], this.models.biteOf(e.role));
        const range: { tMin?: number; tMax?: number } = {};
        if (clip.enabled) {
          // The ray's part with y < offset is cut away (world y).
          const y0 = ray.origin.y;
          const dy = ray.direction.y;
          if (y0 < clip.offset) {
            if (dy <= 0) return;
            range.tMin = (clip.offset - y0) / dy;
          } else if (dy < 0) {
            range.tMax = (clip.offset - y0) / dy;
          }
        }
        try {
          const hit = await this.geometry.pick(e.handle!, origin as Vec3, dir as Vec3, range);
          if (hit && (!best || hit.t < best.t)) {
            best = { t: hit.t, model: e.role, pick: { point: [...hit.point] as unknown as ModelHit['pick']['point'], triangle: hit.triangle } };
          }
        } catch (err) {
          console.error('Picking failed', err);
        }
      });
    await Promise.all(picks);
    const found = best as (ModelHit & { t: number }) | null;
    this.lastPick.note(x, y, view, found !== null);
    return found ? { model: found.model, pick: found.pick } : null;
  }

  /** What a pick at a pixel depends on besides the pixel: camera, canvas size, models' poses and visibility, clipping. */
  private viewKey(): string {
    const c = this.host.camera();
    const engine = this.host.engine();
    const models = [...this.models.entries.values()].map((e) => `${e.role}:${e.handle}:${e.view.visible}:${e.view.status}:${e.offset}:${Array.from(this.models.biteOf(e.role) ?? []).join(',')}`);
    const { enabled, offset } = this.host.clipping();
    return c && engine ? [c.alpha, c.beta, c.radius, c.target, c.fov, engine.getRenderWidth(), engine.getRenderHeight(), this.models.pose, enabled && offset, ...models].join('|') : '';
  }

  /** Canvas CSS pixel of a point of a model (tests, labels), or null when behind the camera. */
  projectModelPoint(model: ModelRole, p: Xyz): { x: number; y: number } | null {
    const scene = this.host.scene();
    const engine = this.host.engine();
    const camera = this.host.camera();
    const entry = this.models.get(model);
    if (!scene || !engine || !camera || !entry) return null;
    const world = Vector3.FromArray(transformPoint(modelToWorldMatrix(this.models.pose, entry.offset, this.models.biteOf(model)), p));
    return projectWorld(scene, engine, camera, world);
  }

  /**
   * Canvas CSS pixels of many points of a model (xyz per point, model frame): x, y per point, NaN
   * where projectModelPoint gives null. One matrix for all (a lasso over a whole jaw).
   */
  projectModelPoints(model: ModelRole, points: ArrayLike<number>): Float32Array | null {
    const scene = this.host.scene();
    const engine = this.host.engine();
    const camera = this.host.camera();
    const entry = this.models.get(model);
    if (!scene || !engine || !camera || !entry) return null;
    const scale = engine.getHardwareScalingLevel();
    const viewport = camera.viewport.toGlobal(engine.getRenderWidth() * scale, engine.getRenderHeight() * scale);
    const m = Matrix.FromArray(modelToWorldMatrix(this.models.pose, entry.offset, this.models.biteOf(model))).multiply(scene.getTransformMatrix()).m;
    const n = Math.floor(points.length / 3);
    const out = new Float32Array(2 * n);
    for (let i = 0; i < n; i++) {
      const x = points[3 * i]!, y = points[3 * i + 1]!, z = points[3 * i + 2]!;
      const w = m[3]! * x + m[7]! * y + m[11]! * z + m[15]!;
      const depth = (m[2]! * x + m[6]! * y + m[10]! * z + m[14]!) / w;
      if (!(w > 0) || depth < -1 || depth > 1) {
        out[2 * i] = out[2 * i + 1] = NaN;
        continue;
      }
      out[2 * i] = viewport.x + (((m[0]! * x + m[4]! * y + m[8]! * z + m[12]!) / w + 1) * viewport.width) / 2;
      out[2 * i + 1] = viewport.y + ((1 - (m[1]! * x + m[5]! * y + m[9]! * z + m[13]!) / w) * viewport.height) / 2;
    }
    return out;
  }

  /** Canvas CSS pixel of a world point (the straightening handles), or null when behind the camera. */
  projectWorldPoint(p: Xyz): { x: number; y: number } | null {
    const scene = this.host.scene();
    const engine = this.host.engine();
    const camera = this.host.camera();
    if (!scene || !engine || !camera) return null;
    return projectWorld(scene, engine, camera, Vector3.FromArray(p));
  }

  /**
   * Whether a press at a canvas pixel may be on a model, synchronous and cheap so that a press
   * can hold the camera before the worker's pick answers: the last pick's answer when it was at
   * this pixel in this view, else whether the pixel's ray meets a shown model's box (grown by
   * 1 mm: a brush may have pushed the surface out a little; a slab test per model).
   */
  mayHitModel(x: number, y: number): boolean {
    // The hover's pick at this pixel in this view knows exactly (the brush picks while hovering).
    const known = this.lastPick.answer(x, y, this.viewKey());
    if (known !== null) return known;
    for (const e of this.models.entries.values()) {
      if (!e.info || !e.view.visible || e.view.status !== 'ready') continue;
      const ray = this.modelRayAt(e.role, x, y);
      if (ray && rayMeetsBox(ray, e.info.bounds, 1)) return true;
    }
    return false;
  }

  /** The viewing ray under a canvas pixel in a model's frame (straightening and bite undone), or null. */
  modelRayAt(model: ModelRole, x: number, y: number): { origin: Xyz; direction: Xyz } | null {
    const scene = this.host.scene();
    const camera = this.host.camera();
    const entry = this.models.get(model);
    if (!scene || !camera || !entry) return null;
    const ray = scene.createPickingRay(x, y, Matrix.Identity(), camera);
    return rayToModel(this.models.pose, entry.offset, [ray.origin.x, ray.origin.y, ray.origin.z], [ray.direction.x, ray.direction.y, ray.direction.z], this.models.biteOf(model));
  }

  /** The camera's viewing direction in a model's frame, or null. */
  viewAxis(model: ModelRole): Xyz | null {
    const camera = this.host.camera();
    const entry = this.models.get(model);
    if (!camera || !entry) return null;
    const p = camera.position, d = camera.target.subtract(camera.position);
    return rayToModel(this.models.pose, entry.offset, [p.x, p.y, p.z], [d.x, d.y, d.z], this.models.biteOf(model)).direction;
  }

  /** The geodesic path between two picks on a model (the measure tool), or null when the worker cannot. */
  async geodesic(model: ModelRole, a: ModelHit['pick'], b: ModelHit['pick']): Promise<SurfacePath | null> {
    const handle = this.models.get(model)?.handle ?? null;
    if (handle === null) return null;
    try {
      const result = await this.geometry.geodesic(
        handle,
        { triangle: a.triangle, point: [...a.point] as Vec3 },
        { triangle: b.triangle, point: [...b.point] as Vec3 },
      );
      return { length: mm(result.length), straight: mm(result.straight), path: result.path };
    } catch (err) {
      console.error('Geodesic distance failed', err);
      return null;
    }
  }
}

/** Canvas CSS pixel of a world point, or null when outside the depth range (behind the camera). */
export function projectWorld(scene: Scene, engine: AbstractEngine, camera: ArcRotateCamera, world: Vector3): { x: number; y: number } | null {
  const scale = engine.getHardwareScalingLevel();
  const width = engine.getRenderWidth() * scale;
  const height = engine.getRenderHeight() * scale;
  const projected = Vector3.Project(world, Matrix.Identity(), scene.getTransformMatrix(), camera.viewport.toGlobal(width, height));
  if (projected.z < 0 || projected.z > 1) return null;
  return { x: projected.x, y: projected.y };
}
