// Which tool class each tool id is, and what each is given of the engine besides its ToolContext
// (engine.setTool calls this). A new tool gets its case here.
import type { ModelRole } from '../engine/document.ts';
import type { SmoothFeature } from './smooth/feature.ts';
import type { BaseFeature } from './base/feature.ts';
import type { AnalysisController } from './analysis/feature.ts';
import type { WireFeature } from './wires/feature.ts';
import type { StraighteningController } from './straighten/feature.ts';
import type { CameraHold } from '../engine/cameraHold.ts';
import type { Xyz } from '../engine/pose.ts';
import { BaseTool } from './base/tool.ts';
import { SmoothTool } from './smooth/tool.ts';
import { MeasureTool } from './measure/tool.ts';
import { DirectionTool } from './analysis/tool.ts';
import { WireTool } from './wires/tool.ts';
import { BiteAlignTool } from './bite/tool.ts';
import type { BiteFeature } from './bite/feature.ts';
import type { TeethFeature } from './teeth/feature.ts';
import { TeethTool } from './teeth/tool.ts';
import { StraightenTool, type StraightenToolHost } from './straighten/tool.ts';
import type { Tool, ToolContext, ToolId } from '../engine/tools/tool.ts';

/** What the tools need of the engine. */
export interface ToolDeps {
  readonly smoothing: SmoothFeature;
  readonly base: BaseFeature;
  readonly analysis: AnalysisController;
  readonly wires: WireFeature;
  readonly straightening: StraighteningController;
  readonly bite: BiteFeature;
  readonly teeth: TeethFeature;
  cameraHold(): CameraHold | null;
  mayHitModel(x: number, y: number): boolean;
  /** Model point → canvas CSS pixel. */
  project(model: ModelRole, p: Xyz): { x: number; y: number } | null;
  /** World point → canvas CSS pixel. */
  projectWorld(p: Xyz): { x: number; y: number } | null;
  /** The shown models' box as drawn. */
  bounds(): { min: Xyz; max: Xyz } | null;
  setCursor(cursor: string): void;
}

export function createTool(id: ToolId, ctx: ToolContext, deps: ToolDeps): Tool {
  const holdCamera = (on: boolean): void => void (on ? deps.cameraHold()?.hold() : deps.cameraHold()?.release());
  switch (id) {
    case 'straighten':
      return new StraightenTool(ctx, straightenToolHost(deps, holdCamera));
    case 'measure':
      return new MeasureTool(ctx);
    case 'smooth':
      return new SmoothTool(ctx, {
        feature: deps.smoothing,
        mayHitModel: (x, y) => deps.mayHitModel(x, y),
        camera: { hold: () => deps.cameraHold()?.hold(), release: (resume) => deps.cameraHold()?.release(resume) },
      });
    case 'base':
      return new BaseTool(ctx, {
        project: (jaw, p) => deps.project(jaw, p),
        jaw: () => deps.base.jaw,
        setJaw: (jaw) => deps.base.setJaw(jaw),
        watch: (listener) => deps.base.subscribe(listener),
      });
    case 'direction':
      return new DirectionTool(ctx, deps.analysis);
    case 'wire':
      return new WireTool(ctx, { feature: deps.wires, holdCamera, setCursor: (cursor) => deps.setCursor(cursor) });
    case 'bite': {
      const bite = deps.bite;
      return new BiteAlignTool(ctx, {
        addPair: (pair) => bite.addPair(pair),
        removeLastPair: () => bite.removeLastPair(),
        canAlign: () => bite.canAlign(),
        align: () => bite.align(),
        pairs: () => bite.getState().pairs,
        watch: (listener) => bite.subscribe(listener),
      });
    }
    case 'teeth': {
      const teeth = deps.teeth;
      return new TeethTool(ctx, {
        mode: () => teeth.getState().mode,
        selected: () => teeth.getState().selected,
        toothAt: (hit) => (hit.model === 'upper' || hit.model === 'lower' ? teeth.toothAt(hit.model, hit.pick) : null),
        select: (selected) => teeth.select(selected),
        assignRegion: (jaw, polygon, to) => teeth.assignRegion(jaw, polygon, to),
        splitTooth: (jaw, number, a, b, other) => teeth.splitTooth(jaw, number, a, b, other),
        splitTarget: () => teeth.splitTarget(),
        holdCamera,
        showStroke: (points, closed) => teeth.showStroke(points, closed),
      });
    }
  }
}

/** What the straightening tool needs: handles drawn in the scene, projection, a still camera. */
function straightenToolHost(deps: ToolDeps, holdCamera: (on: boolean) => void): StraightenToolHost {
  return {
    controller: deps.straightening,
    layout: () => {
      const box = deps.bounds();
      if (!box) return null;
      const center: Xyz = [(box.min[0] + box.max[0]) / 2, (box.min[1] + box.max[1]) / 2, (box.min[2] + box.max[2]) / 2];
      return { center, radius: 0.3 * Math.hypot(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]) };
    },
    project: (p) => deps.projectWorld(p),
    showHandles: (layout, hot) => deps.straightening.showHandles(layout, hot),
    holdCamera,
  };
}
