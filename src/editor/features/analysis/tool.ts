// The insertion direction tool ("aim"): a click on a model sets the insertion direction along
// the current view, towards the viewer (look at the jaw from where the appliance comes, click).
// One undoable change per click; a left drag still orbits the camera to choose the view.
import type { AnalysisController } from './feature.ts';
import { ClickTracker, type Tool, type ToolContext, type ToolPhase, type ToolPointerEvent } from '../../engine/tools/tool.ts';

export class DirectionTool implements Tool {
  readonly id = 'direction' as const;
  private busy = false;
  private readonly clicks = new ClickTracker();

  constructor(
    private readonly ctx: ToolContext,
    private readonly analysis: AnalysisController,
  ) {}

  get phase(): ToolPhase {
    return this.busy ? 'busy' : 'idle';
  }
  get hint(): string {
    return 'direction.aim';
  }

  pointerDown(e: ToolPointerEvent): void {
    this.clicks.press(e);
  }
  pointerMove(e: ToolPointerEvent): void {
    this.clicks.move(e);
  }
  async pointerUp(e: ToolPointerEvent): Promise<void> {
    if (!this.clicks.release(e) || this.busy) return;
    this.busy = true;
    this.ctx.notify();
    try {
      const hit = await this.ctx.pickAt(e.x, e.y);
      if (hit && (hit.model === 'upper' || hit.model === 'lower')) this.analysis.aimAlongView();
    } finally {
      this.busy = false;
      this.ctx.notify();
    }
  }
  key(): boolean {
    return false;
  }
  cancel(): void {
    this.clicks.release({ x: 0, y: 0, button: -1 });
  }
}
