// The teeth tool: corrections of the Teeth display by pointer (the feature's mode says which).
//
//   pick:   a click on a tooth picks it (the panel then renumbers or merges it); on the gum, none
//   add:    press, drag a lasso, release: the surface inside joins the picked tooth
//   remove: the same, and the surface inside becomes gum (on the picked tooth's jaw, else the one under the press)
//   split:  press, drag a line across the picked tooth, release: the part left of the line keeps
//           its number, the other part gets the chosen free number
//
// While a lasso or a line is drawn the camera is held; Escape drops it.
import { ClickTracker, type KeyModifiers, type ModelHit, type Tool, type ToolContext, type ToolPhase, type ToolPointerEvent } from '../../engine/tools/tool.ts';
import type { Jaw, TeethMode } from './feature.ts';

/** What the tool needs of the teeth feature. */
export interface TeethToolHost {
  mode(): TeethMode;
  selected(): { jaw: Jaw; number: number } | null;
  /** The tooth at a picked surface point (0: gum; null: no teeth shown on that model). */
  toothAt(hit: ModelHit): number | null;
  select(selected: { jaw: Jaw; number: number } | null): void;
  assignRegion(jaw: Jaw, polygon: { x: number; y: number }[], to: number): boolean;
  splitTooth(jaw: Jaw, number: number, a: { x: number; y: number }, b: { x: number; y: number }, other: number | null): boolean;
  splitTarget(): number | null;
  holdCamera(on: boolean): void;
  /** Draws the lasso (closed) or the line being drawn; null takes it away. */
  showStroke(points: readonly Point[] | null, closed: boolean): void;
}

type Point = { x: number; y: number };
type State = { phase: 'idle' } | { phase: 'dragging'; points: Point[] } | { phase: 'busy' };

export class TeethTool implements Tool {
  readonly id = 'teeth' as const;
  private state: State = { phase: 'idle' };
  private readonly clicks = new ClickTracker();
  private generation = 0;

  constructor(
    private readonly ctx: ToolContext,
    private readonly host: TeethToolHost,
  ) {}

  get phase(): ToolPhase {
    return this.state.phase;
  }

  get hint(): string {
    const mode = this.host.mode();
    if (mode === 'pick') return this.host.selected() ? 'teeth.picked' : 'teeth.pick';
    if (mode === 'remove') return 'teeth.remove';
    return this.host.selected() ? `teeth.${mode}` : 'teeth.pickFirst';
  }

  /** The lasso or line drawn so far (tests). */
  get stroke(): readonly Point[] {
    return this.state.phase === 'dragging' ? this.state.points : [];
  }

  pointerDown(e: ToolPointerEvent): void {
    if (this.host.mode() === 'pick' || e.button !== 0 || this.state.phase === 'busy') {
      this.clicks.press(e);
      return;
    }
    this.host.holdCamera(true);
    this.state = { phase: 'dragging', points: [{ x: e.x, y: e.y }] };
    this.ctx.notify();
  }

  pointerMove(e: ToolPointerEvent): void {
    if (this.state.phase !== 'dragging') {
      this.clicks.move(e);
      return;
    }
    const last = this.state.points[this.state.points.length - 1]!;
    if (Math.hypot(e.x - last.x, e.y - last.y) < 2) return;
    this.state.points.push({ x: e.x, y: e.y });
    this.host.showStroke(this.state.points, this.host.mode() !== 'split');
  }

  async pointerUp(e: ToolPointerEvent): Promise<void> {
    if (this.state.phase === 'dragging') {
      const points = [...this.state.points, { x: e.x, y: e.y }];
      this.host.holdCamera(false);
      this.host.showStroke(null, false);
      await this.finish(points);
      return;
    }
    if (!this.clicks.release(e) || this.state.phase === 'busy' || this.host.mode() !== 'pick') return;
    const generation = this.generation;
    const hit = await this.ctx.pickAt(e.x, e.y);
    if (generation !== this.generation) return;
    this.click(hit);
  }

  /** A click in pick mode (pointerUp's pick; headless tests call it with a hit). */
  click(hit: ModelHit | null): void {
    const jaw = hit && (hit.model === 'upper' || hit.model === 'lower') ? hit.model : null;
    const number = jaw && hit ? this.host.toothAt(hit) : null;
    this.host.select(jaw && number ? { jaw, number } : null);
    this.ctx.notify();
  }

  private async finish(points: Point[]): Promise<void> {
    const mode = this.host.mode();
    const selected = this.host.selected();
    this.state = { phase: 'busy' };
    this.ctx.notify();
    try {
      if (mode === 'split') {
        const other = this.host.splitTarget();
        if (selected && points.length >= 2) this.host.splitTooth(selected.jaw, selected.number, points[0]!, points[points.length - 1]!, other);
      } else if (mode === 'add') {
        if (selected) this.host.assignRegion(selected.jaw, points, selected.number);
      } else if (mode === 'remove') {
        const generation = this.generation;
        const hit = selected ? null : await this.ctx.pickAt(points[0]!.x, points[0]!.y);
        if (generation !== this.generation) return;
        const jaw = selected?.jaw ?? (hit?.model === 'upper' || hit?.model === 'lower' ? hit.model : null);
        if (jaw) this.host.assignRegion(jaw, points, 0);
      }
    } finally {
      this.state = { phase: 'idle' };
      this.ctx.notify();
    }
  }

  key(key: string, _modifiers?: KeyModifiers): boolean {
    if (key !== 'Escape') return false;
    if (this.state.phase === 'dragging') {
      this.cancel();
      return true;
    }
    if (this.host.selected()) {
      this.host.select(null);
      this.ctx.notify();
      return true;
    }
    return false;
  }

  cancel(): void {
    this.generation++;
    if (this.state.phase === 'dragging') this.host.holdCamera(false);
    this.host.showStroke(null, false);
    this.state = { phase: 'idle' };
    this.ctx.notify();
  }

  dispose(): void {
    if (this.state.phase === 'dragging') this.host.holdCamera(false);
    this.host.showStroke(null, false);
  }
}
