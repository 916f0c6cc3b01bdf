// The smoothing brush tool: a left press on a model starts a stroke (the camera is held while
// it lasts), dragging dabs along the surface, the release ends it as one undoable command.
// Hovering shows the brush ring on the surface under the cursor. A press beside the models
// still orbits the camera.
//
//   idle --press on a model--> dragging (dabs) --release--> busy (last dabs) --> idle
import type { SmoothFeature } from '../smoothing.ts';
import type { Tool, ToolContext, ToolPhase, ToolPointerEvent } from './tool.ts';

export interface SmoothToolHost {
  feature: SmoothFeature;
  /** Stops (true) or restores (false) the camera's pointer navigation. */
  holdCamera(on: boolean): void;
}

export class SmoothTool implements Tool {
  readonly id = 'smooth' as const;
  private down = false;
  private stroking = false;
  private finishing = false;
  /** Picks run one at a time, for the latest pointer position. */
  private latest: { x: number; y: number; drag: boolean } | null = null;
  /** The pointer left the viewport (no ring until it comes back). */
  private outside = false;
  private picking: Promise<void> | null = null;
  private starting: Promise<void> | null = null;

  constructor(
    private readonly ctx: ToolContext,
    private readonly host: SmoothToolHost,
  ) {}

  get phase(): ToolPhase {
    return this.finishing ? 'busy' : this.stroking ? 'dragging' : 'idle';
  }
  get hint(): string {
    return this.stroking ? 'smooth.stroke' : 'smooth.idle';
  }

  pointerDown(e: ToolPointerEvent): void {
    if (e.button !== 0 || e.shiftKey || e.ctrlKey || e.altKey) return;
    this.down = true;
    this.starting = (async () => {
      const hit = await this.ctx.pickAt(e.x, e.y);
      if (!hit || !this.down) return;
      if (!this.host.feature.begin(hit)) return;
      this.stroking = true;
      this.host.holdCamera(true);
      this.host.feature.showCursor(hit);
      this.ctx.notify();
    })();
  }

  pointerMove(e: ToolPointerEvent): void {
    this.outside = false;
    this.latest = { x: e.x, y: e.y, drag: this.down };
    this.picking ??= this.follow();
  }

  private async follow(): Promise<void> {
    try {
      while (this.latest) {
        const { x, y, drag } = this.latest;
        this.latest = null;
        const hit = await this.ctx.pickAt(x, y);
        this.host.feature.showCursor(hit);
        if (drag && hit && this.stroking) this.host.feature.dab(hit);
      }
    } finally {
      this.picking = null;
    }
  }

  /** The ring goes with the pointer, once a pick still under way has landed (a stroke keeps it). */
  pointerLeave(): void {
    if (this.down || this.stroking) return;
    this.outside = true;
    this.latest = null;
    void this.settled().then(() => this.outside && this.host.feature.showCursor(null));
  }

  /** Resolves when the hover ring has caught up with the pointer (tests). */
  settled(): Promise<void> {
    return this.picking ?? Promise.resolve();
  }

  async pointerUp(_e: ToolPointerEvent): Promise<void> {
    this.down = false;
    await this.starting;
    await this.picking;
    if (!this.stroking) return;
    this.stroking = false;
    this.finishing = true;
    this.ctx.notify();
    try {
      await this.host.feature.end();
    } finally {
      this.finishing = false;
      this.host.holdCamera(false);
      this.ctx.notify();
    }
  }

  key(): boolean {
    return false;
  }

  cancel(): void {
    this.latest = null;
    this.host.feature.showCursor(null);
    if (this.stroking) {
      // A stroke cut short is still one command (its dabs are in the mesh already).
      this.stroking = false;
      this.down = false;
      void this.host.feature.end().finally(() => this.host.holdCamera(false));
    }
  }
}
