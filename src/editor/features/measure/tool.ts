// The measure tool: click a point on a model, then a second point on the same model; the
// straight distance and the distance along the surface (the worker's geodesic) become a
// measurement in the design (one undoable command). Escape forgets the first point.
//
//   idle --click on a model--> pointing(a) --click on the same model--> busy --> idle
//                                  | Escape / click on another model restarts
//                                  | hover: a rubber band from a to the surface under the cursor
import { thinPath, type Measurement } from '../../engine/document.ts';
import { distance, mm } from '../../engine/units.ts';
import { ClickTracker, type ModelHit, type Tool, type ToolContext, type ToolPhase, type ToolPointerEvent } from '../../engine/tools/tool.ts';

let counter = 0;
function newId(): string {
  counter++;
  return `m${Date.now().toString(36)}${counter.toString(36)}`;
}

export class MeasureTool implements Tool {
  readonly id = 'measure' as const;
  /** Every measurement is drawn while measuring. */
  readonly showsMeasurements = true;
  private state: { phase: 'idle' } | { phase: 'pointing'; a: ModelHit } | { phase: 'busy' } = { phase: 'idle' };
  private readonly clicks = new ClickTracker();
  private hover: { x: number; y: number } | null = null;
  private hovering: Promise<void> | null = null;
  /** Bumped by cancel(): an answer of the worker for an older click is dropped. */
  private generation = 0;

  constructor(private readonly ctx: ToolContext) {}

  get phase(): ToolPhase {
    return this.state.phase;
  }
  get hint(): string {
    switch (this.state.phase) {
      case 'idle':
        return 'measure.first';
      case 'pointing':
        return 'measure.second';
      case 'busy':
        return 'measure.busy';
    }
  }

  pointerDown(e: ToolPointerEvent): void {
    this.clicks.press(e);
  }
  pointerMove(e: ToolPointerEvent): void {
    this.clicks.move(e);
    if (this.state.phase !== 'pointing' || (e.buttons ?? 0) !== 0) return;
    // Hover picks one at a time, always for the latest cursor position.
    this.hover = { x: e.x, y: e.y };
    if (!this.hovering) this.hovering = this.followCursor();
  }

  /** Resolves when the rubber band has caught up with the cursor (tests await it). */
  settled(): Promise<void> {
    return this.hovering ?? Promise.resolve();
  }

  private async followCursor(): Promise<void> {
    try {
      while (this.hover) {
        const { x, y } = this.hover;
        this.hover = null;
        const generation = this.generation;
        const hit = await this.ctx.pickAt(x, y);
        const current = this.state;
        if (generation !== this.generation || current.phase !== 'pointing') return;
        this.ctx.showPreview(current.a, hit && hit.model === current.a.model ? hit : null);
      }
    } finally {
      this.hovering = null;
    }
  }

  async pointerUp(e: ToolPointerEvent): Promise<void> {
    if (!this.clicks.release(e) || this.state.phase === 'busy') return;
    const generation = this.generation;
    const hit = await this.ctx.pickAt(e.x, e.y);
    if (generation !== this.generation || !hit) return;
    const current = this.state;
    if (current.phase !== 'pointing' || current.a.model !== hit.model) {
      this.set({ phase: 'pointing', a: hit });
      this.ctx.showPending([hit]);
      return;
    }
    const a = current.a;
    this.ctx.showPreview(null, null);
    this.set({ phase: 'busy' });
    this.ctx.showPending([a, hit]);
    const surface = await this.ctx.geodesic(a.model, a.pick, hit.pick);
    if (generation !== this.generation) return;
    const measurement: Measurement = {
      id: newId(),
      model: a.model,
      a: a.pick,
      b: hit.pick,
      straight: mm(Math.round(distance(a.pick.point, hit.pick.point) * 1000) / 1000),
      geodesic: surface ? mm(Math.round(surface.length * 1000) / 1000) : null,
      path: surface ? thinPath(surface.path) : [...a.pick.point, ...hit.pick.point],
    };
    const doc = this.ctx.document();
    this.ctx.change('measure', { ...doc, measurements: [...doc.measurements, measurement] });
    this.ctx.showPending([]);
    this.set({ phase: 'idle' });
  }

  key(key: string): boolean {
    if (key !== 'Escape' || this.state.phase === 'idle') return false;
    this.cancel();
    return true;
  }

  cancel(): void {
    this.generation++;
    this.hover = null;
    this.ctx.showPreview(null, null);
    this.ctx.showPending([]);
    this.set({ phase: 'idle' });
  }

  private set(state: MeasureTool['state']): void {
    this.state = state;
    this.ctx.notify();
  }
}
