// The simulation view: the selected wire's program played on a simple model of the bending head
// (its own small Babylon scene): each step feeds the wire out of the die, turns the bend plane
// and wraps the wire round the die, then shows the kernel's state (the spring back included).
// Play, pause, one step, restart, and the step table (feed, rotate, bend); a step whose path
// collides with the head is highlighted, and so is the wire while that step plays.
import { useEffect, useRef, useState } from 'react';
import { useEngineStore } from '../ui/useEngineStore.ts';
import { useLingui } from '@lingui/react/macro';
import { Engine } from '@babylonjs/core/Engines/engine';
import { Scene } from '@babylonjs/core/scene';
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateCylinder } from '@babylonjs/core/Meshes/Builders/cylinderBuilder';
import { CreateTube } from '@babylonjs/core/Meshes/Builders/tubeBuilder';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { HeadBox } from '../../../common/bend-program.ts';
import type { DeviceController, SimulationData } from './DeviceController.ts';
import { positionAt, timeline, wireDuring, type SimPhase } from './simulation.ts';
import { issueMessage } from './messages.ts';
import { EditorIcon } from '../ui/icons.tsx';
import { formatNumber } from '../../i18n/format.ts';

interface Frame {
  /** Step index (0-based) being played or last done; -1 before the first. */
  step: number;
  phase: SimPhase | null;
  t: number;
}

/** The wire's centreline at a frame (head frame, mm). */
function wireAt(data: SimulationData, frame: Frame): Float64Array {
  const { step, phase, t } = frame;
  if (step < 0) return new Float64Array([0, 0, 0]);
  if (phase === null) return data.states[step]!.points;
  const before = step === 0 ? new Float64Array([0, 0, 0]) : data.states[step - 1]!.points;
  return wireDuring(before, data.steps[step]!, phase, t, data.radius);
}

function pathOf(points: Float64Array): Vector3[] {
  const path: Vector3[] = [];
  for (let i = 0; i < points.length; i += 3) {
    const p = new Vector3(points[i]!, points[i + 1]!, points[i + 2]!);
    const last = path[path.length - 1];
    if (!last || Vector3.DistanceSquared(last, p) > 1e-8) path.push(p);
  }
  return path;
}

/** Half-extents (mm) of the part of the head drawn round the die: x along the feed, then y, z. */
const VIEW_WINDOW = [120, 30, 30] as const;

/** The little scene: head boxes, die, bending pin and the wire tube. */
class HeadScene {
  private readonly engine: Engine;
  private readonly scene: Scene;
  private wire: Mesh | null = null;
  private readonly pin: Mesh;
  /** The head frame (z = the die's axis) turned so that the die's axis is the view's up. */
  private readonly root: TransformNode;
  private readonly camera: ArcRotateCamera;
  private readonly wireMat: StandardMaterial;
  private readonly hitMat: StandardMaterial;
  private dirty = true;
  private readonly diameter: number;
  private readonly unlisten: () => void;

  constructor(canvas: HTMLCanvasElement, radius: number, diameter: number, head: readonly HeadBox[]) {
    this.diameter = diameter;
    this.engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: false, antialias: true }, true);
    const scene = new Scene(this.engine);
    this.scene = scene;
    scene.useRightHandedSystem = true;
    scene.clearColor = new Color4(0.96, 0.97, 0.98, 1);
    this.root = new TransformNode('sim-head-frame', scene);
    this.root.rotation.x = -Math.PI / 2; // head z -> up; seen from above, the bend plane is the screen
    const camera = new ArcRotateCamera('sim-camera', Math.PI / 2, 0.55, 60, Vector3.Zero(), scene);
    this.camera = camera;
    camera.attachControl(true);
    camera.wheelPrecision = 8;
    camera.lowerRadiusLimit = 15;
    camera.upperRadiusLimit = 400;
    camera.minZ = 0.5;
    new HemisphericLight('sim-sky', new Vector3(0.2, 0.3, 1), scene).intensity = 0.75;
    new DirectionalLight('sim-sun', new Vector3(-0.4, -0.6, -1), scene).intensity = 0.6;
    const mat = (name: string, color: Color3, alpha = 1): StandardMaterial => {
      const m = new StandardMaterial(name, scene);
      m.diffuseColor = color;
      m.specularColor = new Color3(0.2, 0.2, 0.2);
      m.alpha = alpha;
      return m;
    };
    const headMat = mat('sim-head', new Color3(0.55, 0.6, 0.68), 0.55);
    head.forEach((b, i) => {
      // Shown within a window round the die (a machine body is 200 mm wide, far behind): what
      // lies outside it is cut off, and a box wholly outside is not drawn.
      const min = b.min.map((v, k) => Math.max(v, -VIEW_WINDOW[k]!));
      const max = b.max.map((v, k) => Math.min(v, VIEW_WINDOW[k]!));
      if (min.some((v, k) => v >= max[k]!)) return;
      const box = CreateBox(`sim-head-${i}`, { width: max[0]! - min[0]!, height: max[1]! - min[1]!, depth: max[2]! - min[2]! }, scene);
      box.position = new Vector3((min[0]! + max[0]!) / 2, (min[1]! + max[1]!) / 2, (min[2]! + max[2]!) / 2);
      box.material = headMat;
      box.parent = this.root;
    });
    const die = CreateCylinder('sim-die', { diameter: Math.max(0.2, 2 * radius - diameter), height: 6, tessellation: 32 }, scene);
    die.rotation.x = Math.PI / 2; // axis along Z
    die.position = new Vector3(0, radius, 0);
    die.material = mat('sim-die', new Color3(0.35, 0.4, 0.48));
    die.parent = this.root;
    this.pin = CreateCylinder('sim-pin', { diameter: 1.2, height: 6, tessellation: 16 }, scene);
    this.pin.rotation.x = Math.PI / 2;
    this.pin.material = mat('sim-pin', new Color3(0.85, 0.55, 0.2));
    this.pin.parent = this.root;
    this.wireMat = mat('sim-wire', new Color3(0.78, 0.8, 0.84));
    this.wireMat.specularColor = new Color3(0.9, 0.9, 0.9);
    this.hitMat = mat('sim-hit', new Color3(0.9, 0.15, 0.15));
    // Renders only after a change or while the designer turns the view (the CPU is shared).
    let activeUntil = 0;
    const wake = (): void => void (activeUntil = performance.now() + 1500);
    const types = ['pointerdown', 'pointermove', 'wheel'] as const;
    for (const type of types) canvas.addEventListener(type, wake, { passive: true });
    this.unlisten = () => types.forEach((type) => canvas.removeEventListener(type, wake));
    this.engine.runRenderLoop(() => {
      if (!this.dirty && performance.now() > activeUntil) return;
      this.dirty = false;
      scene.render();
    });
    this.placePin(0, radius, 1);
  }

  /** The bending pin outside the wire, just past the wrapped arc of angle `angle` (deg). */
  placePin(angle: number, radius: number, sign: number): void {
    const th = (Math.abs(angle) * Math.PI) / 180;
    const ax = radius * Math.sin(th);
    const ay = radius * (1 - Math.cos(th));
    const off = this.diameter / 2 + 0.6;
    const x = ax + 1.5 * Math.cos(th) + off * Math.sin(th);
    const y = ay + 1.5 * Math.sin(th) - off * Math.cos(th);
    this.pin.position = new Vector3(x, sign * y, 0);
    this.dirty = true;
  }

  showWire(points: Float64Array, hit: boolean): void {
    this.wire?.dispose();
    this.wire = null;
    const path = pathOf(points);
    if (path.length >= 2) {
      this.wire = CreateTube('sim-wire', { path, radius: this.diameter / 2, tessellation: 12, cap: 3 }, this.scene);
      this.wire.material = hit ? this.hitMat : this.wireMat;
      this.wire.parent = this.root;
    }
    this.dirty = true;
  }

  /** Aims the camera at the die and every state of the wire (head frame points). */
  frame(states: Float64Array[]): void {
    const min = [-4, -4, -4];
    const max = [4, 4, 4];
    for (const p of states) {
      for (let i = 0; i < p.length; i += 3) {
        for (let k = 0; k < 3; k++) {
          min[k] = Math.min(min[k]!, p[i + k]!);
          max[k] = Math.max(max[k]!, p[i + k]!);
        }
      }
    }
    const c = [(min[0]! + max[0]!) / 2, (min[1]! + max[1]!) / 2, (min[2]! + max[2]!) / 2];
    const extent = Math.max(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!);
    // Head (x, y, z) is drawn at (x, z, -y).
    this.camera.target = new Vector3(c[0]!, c[2]!, -c[1]!);
    this.camera.radius = Math.max(25, extent * 1.7);
    this.dirty = true;
  }

  resize(): void {
    this.engine.resize();
    this.dirty = true;
  }

  dispose(): void {
    this.unlisten();
    this.engine.stopRenderLoop();
    this.scene.dispose();
    this.engine.dispose();
  }
}

export function BendSimulation({ devices }: { devices: DeviceController }) {
  const { t, i18n } = useLingui();
  const view = useEngineStore(devices, (v) => v, devices.getState());
  const data = view.simulation.status === 'ready' ? view.simulation.data : null;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const sceneRef = useRef<HeadScene | null>(null);
  const [frame, setFrame] = useState<Frame>({ step: -1, phase: null, t: 1 });
  const [playing, setPlaying] = useState(true);
  const timeRef = useRef(0);
  const line = data ? timeline(data.steps) : null;

  // The scene lives as long as this program is shown.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!data || !canvas) return undefined;
    let scene: HeadScene;
    try {
      scene = new HeadScene(canvas, data.radius, data.diameter, data.head);
    } catch {
      return undefined; // no WebGL: the step table still shows the program
    }
    sceneRef.current = scene;
    scene.frame(data.states.map((s) => s.points));
    const resize = new ResizeObserver(() => scene.resize());
    resize.observe(canvas);
    timeRef.current = 0;
    setFrame({ step: -1, phase: null, t: 1 });
    setPlaying(true);
    return () => {
      resize.disconnect();
      scene.dispose();
      sceneRef.current = null;
    };
  }, [data]);

  // Playing: the clock moves the frame.
  useEffect(() => {
    if (!data || !line || !playing) return undefined;
    let last = performance.now();
    let raf = 0;
    const tick = (now: number) => {
      timeRef.current = Math.min(line.total, timeRef.current + (now - last));
      last = now;
      setFrame(positionAt(line, timeRef.current));
      if (timeRef.current >= line.total) {
        setPlaying(false);
        return;
      }
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [data, playing]);

  // Draw the frame.
  useEffect(() => {
    const scene = sceneRef.current;
    if (!data || !scene) return;
    const hit = data.collisionStep !== null && frame.step === data.collisionStep && frame.phase !== null;
    scene.showWire(wireAt(data, frame), hit);
    const s = frame.step >= 0 ? data.steps[frame.step] : undefined;
    const bendAngle = s && frame.phase === 'bend' ? s.bend * frame.t : 0;
    scene.placePin(bendAngle, data.radius, bendAngle < 0 ? -1 : 1);
  }, [data, frame]);

  if (view.simulation.status === 'none' || view.simulation.status === 'failed') return null;
  if (!data || !line) {
    return (
      <div className="absolute bottom-3 left-3 rounded-lg bg-white/95 px-3 py-2 text-sm text-slate-600 shadow" role="status">
        {t`Computing the bending program…`}
      </div>
    );
  }

  const steps = data.steps.length;
  const current = Math.max(0, frame.step + 1);
  const phaseName = frame.phase === 'feed' ? t`feed` : frame.phase === 'rotate' ? t`rotate` : frame.phase === 'bend' ? t`bend` : '';
  const finished = !playing && timeRef.current >= line.total;
  const stepOnce = () => {
    setPlaying(false);
    // To the end of the current step (or of the next one when between steps).
    const next = frame.phase === null ? frame.step + 1 : frame.step;
    if (next >= steps) return;
    const end = next + 1 < steps ? line.stepStart[next + 1]! - 1 : line.total;
    timeRef.current = end;
    setFrame({ step: next, phase: null, t: 1 });
  };
  const restart = () => {
    timeRef.current = 0;
    setFrame({ step: -1, phase: null, t: 1 });
    setPlaying(true);
  };
  const collision = data.issues.find((i) => i.code === 'COLLISION');
  const fmt = (v: number) => formatNumber(v, { fixed: 2 }, i18n.locale);

  return (
    <div
      className="absolute bottom-3 left-3 z-10 flex h-[22rem] w-[min(44rem,calc(100%-1.5rem))] overflow-hidden rounded-lg border border-slate-200 bg-white shadow-lg"
      role="region"
      aria-label={t`Bending simulation`}
      data-testid="bend-simulation"
      data-step={frame.step + 1}
      data-phase={frame.phase ?? ''}
      data-playing={playing ? 'true' : 'false'}
    >
      <div className="relative min-w-0 flex-1">
        <canvas ref={canvasRef} className="block h-full w-full touch-none outline-none" aria-label={t`Bending head and wire`} data-testid="bend-simulation-canvas" />
        <p className="pointer-events-none absolute top-2 left-2 rounded bg-white/85 px-2 py-0.5 text-xs text-slate-700 tabular-nums" data-testid="sim-progress">
          {t`Step ${current} of ${steps}`}
          {phaseName && ` · ${phaseName}`}
        </p>
        <div className="absolute bottom-2 left-2 flex gap-1">
          <button
            type="button"
            className="inline-flex size-8 items-center justify-center rounded-md bg-white/90 text-slate-700 shadow hover:bg-white"
            onClick={() => (finished ? restart() : setPlaying(!playing))}
            aria-label={playing ? t`Pause` : t`Play`}
            title={playing ? t`Pause` : t`Play`}
            data-testid="sim-play"
          >
            <EditorIcon name={playing ? 'pause' : 'play'} className="size-4" />
          </button>
          <button
            type="button"
            className="inline-flex size-8 items-center justify-center rounded-md bg-white/90 text-slate-700 shadow hover:bg-white disabled:opacity-40"
            onClick={stepOnce}
            disabled={frame.step >= steps - 1 && frame.phase === null}
            aria-label={t`Next step`}
            title={t`Next step`}
            data-testid="sim-step"
          >
            <EditorIcon name="step" className="size-4" />
          </button>
          <button
            type="button"
            className="inline-flex size-8 items-center justify-center rounded-md bg-white/90 text-slate-700 shadow hover:bg-white"
            onClick={restart}
            aria-label={t`Restart`}
            title={t`Restart`}
            data-testid="sim-restart"
          >
            <EditorIcon name="restart" className="size-4" />
          </button>
        </div>
      </div>
      <div className="flex w-64 shrink-0 flex-col border-l border-slate-200">
        <div className="flex items-center justify-between border-b border-slate-200 px-2 py-1.5">
          <h3 className="text-xs font-semibold text-slate-700">{t`Bending program`}</h3>
          <button
            type="button"
            className="inline-flex size-6 items-center justify-center rounded text-slate-500 hover:bg-slate-100"
            onClick={() => devices.closeSimulation()}
            aria-label={t`Close the simulation`}
            title={t`Close the simulation`}
          >
            <EditorIcon name="x" className="size-3.5" />
          </button>
        </div>
        {collision && (
          <p className="border-b border-red-200 bg-red-50 px-2 py-1 text-xs text-red-800" role="alert" data-testid="sim-collision">
            {issueMessage(i18n, collision)}
          </p>
        )}
        <div className="min-h-0 flex-1 overflow-y-auto">
          <table className="w-full text-xs tabular-nums" data-testid="sim-steps">
            <thead className="sticky top-0 bg-slate-50 text-slate-500">
              <tr>
                <th className="px-2 py-1 text-left font-medium">#</th>
                <th className="px-2 py-1 text-right font-medium">{t`Feed (mm)`}</th>
                <th className="px-2 py-1 text-right font-medium">{t`Rotate (°)`}</th>
                <th className="px-2 py-1 text-right font-medium">{t`Bend (°)`}</th>
              </tr>
            </thead>
            <tbody>
              {data.steps.map((s, i) => {
                const hit = i === data.collisionStep;
                const active = i === frame.step;
                return (
                  <tr
                    key={i}
                    className={`border-t border-slate-100 ${hit ? 'bg-red-50 text-red-800' : active ? 'bg-primary-light-9 text-slate-900' : 'text-slate-700'}`}
                    data-testid="sim-step-row"
                    data-collision={hit ? 'true' : undefined}
                    aria-current={active ? 'step' : undefined}
                  >
                    <td className="px-2 py-0.5">{i + 1}</td>
                    <td className="px-2 py-0.5 text-right">{fmt(s.feed)}</td>
                    <td className="px-2 py-0.5 text-right">{fmt(s.rotate)}</td>
                    <td className="px-2 py-0.5 text-right">{fmt(s.bend)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}
