// The base outline tool: click points on a jaw (snapped to the surface through the worker's
// pick), Backspace removes the last one, Enter or a double click closes the outline; a point
// can be dragged to another place on the surface. Every change is one document command, and
// any change of the outline drops that jaw's generated base (generate again). The tool works on
// the base feature's jaw; a click on the other jaw's model switches to it, except while an
// outline is being drawn (a stray click there is ignored).
//
//   idle --click--> pointing (outline open) --Enter / double click--> idle (closed)
//                   pointing --press on a point, drag, release--> one move command
import { withBase, type BaseDesign, type Jaw, type SurfacePick } from '../../engine/document.ts';
import { mm } from '../../engine/units.ts';
import { ClickTracker, type ModelHit, type Tool, type ToolContext, type ToolPhase, type ToolPointerEvent } from '../../engine/tools/tool.ts';

/** Two clicks closer than this in time (and in pixels, CLICK_SLOP_PX) are a double click. */
const DOUBLE_CLICK_MS = 400;
/** A press this close to a drawn point grabs it. */
const GRAB_PX = 8;

export interface BaseToolHost {
  /** Canvas pixel of an outline point, for grabbing (null behind the camera). */
  project(jaw: Jaw, p: SurfacePick['point']): { x: number; y: number } | null;
  /** The jaw whose base is drawn (the base feature's), and switching it. */
  jaw(): Jaw;
  setJaw(jaw: Jaw): void;
  /** Calls `listener` when the jaw may have changed; returns what unsubscribes. */
  watch(listener: () => void): () => void;
}

function defaultBase(jaw: Jaw): BaseDesign {
  return { jaw, outline: [], closed: false, thickness: mm(2), height: mm(2), generated: false };
}

export class BaseTool implements Tool {
  readonly id = 'base' as const;
  private busy = false;
  private readonly clicks = new ClickTracker();
  private lastClick: { x: number; y: number; at: number } | null = null;
  private drag: { index: number; moved: boolean } | null = null;
  private readonly unwatch: () => void;

  constructor(
    private readonly ctx: ToolContext,
    private readonly host: BaseToolHost,
  ) {
    // Phase and hint follow the jaw worked on.
    let jaw = host.jaw();
    this.unwatch = host.watch(() => {
      if (host.jaw() === jaw) return;
      jaw = host.jaw();
      ctx.notify();
    });
  }

  /** The base of the jaw worked on, or undefined. */
  private current(): BaseDesign | undefined {
    return this.ctx.document().bases?.[this.host.jaw()];
  }

  get phase(): ToolPhase {
    if (this.busy) return 'busy';
    if (this.drag?.moved) return 'dragging';
    const base = this.current();
    return base && base.outline.length > 0 && !base.closed ? 'pointing' : 'idle';
  }
  get hint(): string {
    const base = this.current();
    if (base?.closed) return 'base.closed';
    return base && base.outline.length > 0 ? 'base.next' : 'base.first';
  }

  /** Drawing an outline that is not closed yet (measuring is refused meanwhile). */
  get drawing(): boolean {
    const base = this.current();
    return !!base && base.outline.length > 0 && !base.closed;
  }

  pointerDown(e: ToolPointerEvent): void {
    this.clicks.press(e);
    const base = this.current();
    if (e.button !== 0 || !base) return;
    const index = base.outline.findIndex((p) => {
      const s = this.host.project(base.jaw, p.point);
      return !!s && Math.hypot(s.x - e.x, s.y - e.y) <= GRAB_PX;
    });
    if (index >= 0) this.drag = { index, moved: false };
  }

  pointerMove(e: ToolPointerEvent): void {
    const beyond = this.clicks.move(e);
    if (this.drag && beyond && !this.drag.moved) {
      this.drag.moved = true;
      this.ctx.notify();
    }
  }

  async pointerUp(e: ToolPointerEvent): Promise<void> {
    const click = this.clicks.release(e);
    const drag = this.drag;
    this.drag = null;
    if (drag?.moved) {
      await this.withPick(e, (hit, base) => {
        if (hit.model !== base.jaw) return;
        const outline = base.outline.map((p, i) => (i === drag.index ? hit.pick : p));
        this.commit('base.move', { ...base, outline });
      });
      return;
    }
    if (!click) return;
    const now = Date.now();
    const last = this.lastClick;
    this.lastClick = { x: e.x, y: e.y, at: now };
    if (last && now - last.at < DOUBLE_CLICK_MS && Math.hypot(e.x - last.x, e.y - last.y) <= 5) {
      // The first click of the pair added a point already: the second closes.
      this.lastClick = null;
      this.close();
      return;
    }
    await this.addAt(e);
  }

  /**
   * Adds the surface point under a canvas pixel to the outline of the jaw clicked (what a click
   * does); the jaw becomes the one worked on, unless the current jaw's outline is still open.
   */
  async addAt(e: { x: number; y: number }): Promise<void> {
    await this.withPick(e, (hit) => {
      if (hit.model !== this.host.jaw() && this.drawing) return;
      const jaw = hit.model as Jaw;
      this.host.setJaw(jaw);
      const base = this.ctx.document().bases?.[jaw] ?? defaultBase(jaw);
      if (base.closed) return;
      this.commit('base.point', { ...base, outline: [...base.outline, hit.pick] });
    });
  }

  /** Picks the model under a pixel; `then` gets the hit and the base of the jaw worked on (a new one when it has none). */
  private async withPick(e: { x: number; y: number }, then: (hit: ModelHit, base: BaseDesign) => void): Promise<void> {
    this.busy = true;
    this.ctx.notify();
    try {
      const hit = await this.ctx.pickAt(e.x, e.y);
      if (!hit || hit.model === 'occlusion') return;
      then(hit, this.current() ?? defaultBase(this.host.jaw()));
    } finally {
      this.busy = false;
      this.ctx.notify();
    }
  }

  private commit(label: string, base: BaseDesign): void {
    this.ctx.change(label, withBase(this.ctx.document(), base.jaw, { ...base, generated: false }));
    this.ctx.notify();
  }

  /** Closes the outline (Enter, double click). */
  close(): boolean {
    const base = this.current();
    if (!base || base.closed || base.outline.length < 3) return false;
    this.commit('base.close', { ...base, closed: true });
    return true;
  }

  /** Removes the last point (Backspace); a closed outline opens again. */
  removeLast(): boolean {
    const base = this.current();
    if (!base || base.outline.length === 0) return false;
    this.commit('base.remove', { ...base, closed: false, outline: base.outline.slice(0, -1) });
    return true;
  }

  /** Removes one point (the side panel's list). */
  removeAt(index: number): void {
    const base = this.current();
    if (!base || !base.outline[index]) return;
    this.commit('base.remove', { ...base, outline: base.outline.filter((_, i) => i !== index) });
  }

  readonly takesDoubleClick = true;

  wantsKey(key: string): boolean {
    return key === 'Backspace' || key === 'Delete' || key === 'Enter';
  }

  key(key: string): boolean {
    if (key === 'Backspace' || key === 'Delete') return this.removeLast();
    if (key === 'Enter') return this.close();
    return false;
  }

  cancel(): void {
    this.drag = null;
    this.lastClick = null;
  }

  dispose(): void {
    this.unwatch();
  }
}
