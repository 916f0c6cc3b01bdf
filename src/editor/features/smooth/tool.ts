// The smoothing brush tool: a left press on a model starts a stroke (the camera is held while
// it lasts), dragging dabs along the surface, the release ends it as one undoable command.
// Hovering shows the brush ring on the surface under the cursor. A press beside the models
// still orbits the camera.
//
// Whether a press is on a model is decided at once, before the pointer can move (the host's
// mayHitModel): a press where the hover's pick just found no surface, or whose viewing ray misses
// every model's box, orbits as usual; any other press holds the camera while the worker's pick
// answers. A hit starts the stroke; a miss (between the teeth, inside the arch) lets the camera
// go with the drag still under way, so the view turns from the press on.
//
//   idle --press near a model--> pending (camera held) --hit--> dragging (dabs) --release--> busy --> idle
//                                        \--miss--> idle (camera back, the drag orbits)
import type { SmoothFeature } from './feature.ts';
import { distance } from '../../engine/units.ts';
import type { Xyz } from '../../engine/pose.ts';
import type { ModelHit, Tool, ToolContext, ToolPhase, ToolPointerEvent } from '../../engine/tools/tool.ts';

export interface SmoothToolHost {
  feature: SmoothFeature;
  /** Whether a press at a canvas pixel may be on a model (synchronous; for a yes the worker's pick decides). */
  mayHitModel(x: number, y: number): boolean;
  /** The camera's pointer navigation: held, or released (`resumeDrag`: the button still down turns the view). */
  camera: { hold(): void; release(resumeDrag?: boolean): void };
}

/** Dabs at most this share of the radius apart: a fast drag gets dabs between its picks. */
const DAB_SPACING = 0.5;
/** At most this many dabs filled in between two picks (a jump across the view is not a stroke). */
const MAX_FILL = 8;

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
  /** Counts presses, so that only the latest one's pick decides. */
  private presses = 0;
  /** The stroke's last dab: its canvas pixel and its point on the model. */
  private lastDab: { x: number; y: number; point: Xyz; model: ModelHit['model'] } | null = null;

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
    // Beside every model: an ordinary orbit, decided before the pointer can move.
    if (!this.host.mayHitModel(e.x, e.y)) return;
    this.down = true;
    this.host.camera.hold();
    const press = ++this.presses;
    this.starting = (async () => {
      const hit = await this.ctx.pickAt(e.x, e.y);
      if (press !== this.presses) return; // a newer press (a double click) decides instead
      if (hit && this.down && this.host.feature.begin(hit)) {
        this.stroking = true;
        this.lastDab = { x: e.x, y: e.y, point: hit.pick.point, model: hit.model };
        this.host.feature.showCursor(hit);
        this.ctx.notify();
        return;
      }
      // Not on a model after all: the camera takes the drag over (or the click is over).
      this.host.camera.release(this.down);
      this.down = false;
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
        // A drag that began before the press was decided dabs once the stroke has started.
        if (drag && hit) await this.starting;
        if (drag && hit && this.stroking) await this.dabTo(x, y, hit);
      }
    } finally {
      this.picking = null;
    }
  }

  /**
   * A dab at a pick, with dabs filled in along the way from the last one when the pointer moved
   * farther than the spacing (picked at pixels in between, so they lie on the surface).
   */
  private async dabTo(x: number, y: number, hit: ModelHit): Promise<void> {
    const last = this.lastDab;
    if (!last || hit.model !== last.model) return; // the stroke stays on its model
    const spacing = this.host.feature.view.radius * DAB_SPACING;
    const fill = Math.min(MAX_FILL, Math.ceil(distance(last.point, hit.pick.point) / spacing) - 1);
    for (let k = 1; k <= fill; k++) {
      const f = k / (fill + 1);
      const between = await this.ctx.pickAt(last.x + (x - last.x) * f, last.y + (y - last.y) * f);
      if (!this.stroking) return;
      if (between) this.host.feature.dab(between);
    }
    this.host.feature.dab(hit);
    this.lastDab = { x, y, point: hit.pick.point, model: hit.model };
  }

  /** The ring goes with the pointer, once a pick still under way has landed (a stroke keeps it). */
  pointerLeave(): void {
    if (this.down || this.stroking) return;
    this.outside = true;
    this.latest = null;
    void this.settled().then(() => this.outside && this.host.feature.showCursor(null));
  }

  /** Resolves when the press has been decided and the hover ring has caught up with the pointer (tests). */
  async settled(): Promise<void> {
    await this.starting;
    await this.picking;
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
      this.host.camera.release();
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
      void this.host.feature.end().finally(() => this.host.camera.release());
    } else if (this.down) {
      this.down = false;
      this.host.camera.release();
    }
  }
}
