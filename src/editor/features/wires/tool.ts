// The wire tool: click the teeth a template needs (the hint says which next) and the wire is
// placed and selected; click a wire to select it; press on a corner of the selected wire and
// drag it (the camera holds; surface corners slide over the surface kept off it, free corners
// move in the view plane; the release is one command, Esc cancels); double-click a segment to
// insert a corner; Delete or Backspace removes the selected corner. The logic of each change is
// in engine.wires (feature.ts); this is the pointer and key state machine.
//
//   idle --clicks on teeth--> pointing --last click--> idle (wire placed, selected)
//   idle --press on a handle, drag--> dragging --release--> idle (one move command)
import type { WireFeature } from './feature.ts';
import { ClickTracker, type Tool, type ToolContext, type ToolPhase, type ToolPointerEvent } from '../../engine/tools/tool.ts';

/** Two clicks closer than this in time (and within CLICK_SLOP_PX) are a double click. */
const DOUBLE_CLICK_MS = 400;

export interface WireToolHost {
  feature: WireFeature;
  /** Stops (true) or restores (false) the camera's pointer navigation. */
  holdCamera(on: boolean): void;
  /** The canvas's mouse cursor ('' for the default). */
  setCursor?(cursor: string): void;
}

export class WireTool implements Tool {
  readonly id = 'wire' as const;
  private readonly clicks = new ClickTracker();
  private lastClick: { x: number; y: number; at: number } | null = null;
  private drag: { id: string; corner: number; surface: boolean; moved: boolean } | null = null;
  private latest: { x: number; y: number } | null = null;
  private following: Promise<void> | null = null;
  private busy = false;

  /** Stops following the feature (the tool is left). */
  private readonly unfollow: () => void;

  constructor(
    private readonly ctx: ToolContext,
    private readonly host: WireToolHost,
  ) {
    // Phase and hint read the feature (selection, anchors, busy): every change of it is the tool's too.
    this.unfollow = host.feature.subscribe(() => ctx.notify());
  }

  private get feature(): WireFeature {
    return this.host.feature;
  }

  get phase(): ToolPhase {
    if (this.drag?.moved) return 'dragging';
    if (this.busy || this.feature.getState().busy) return 'busy';
    return this.feature.getState().anchors > 0 ? 'pointing' : 'idle';
  }

  get hint(): string {
    if (this.drag?.moved) return 'wire.drag';
    const s = this.feature.getState();
    if (s.busy) return 'wire.busy';
    if (s.selectedId && s.anchors === 0) return 'wire.edit';
    return `wire.place.${s.type}.${s.anchors}.${s.needed}`;
  }

  pointerDown(e: ToolPointerEvent): void {
    this.clicks.press(e);
    if (e.button !== 0 || e.shiftKey || e.ctrlKey || e.altKey) return;
    const hit = this.feature.hitTest(e.x, e.y);
    if (!hit || hit.corner === null) return;
    const wire = this.feature.selected();
    const point = wire?.points[hit.corner];
    if (!wire || !point) return;
    this.drag = { id: wire.id, corner: hit.corner, surface: !!point.surface, moved: false };
    this.host.holdCamera(true);
    this.host.setCursor?.('grabbing');
  }

  pointerMove(e: ToolPointerEvent): void {
    const drag = this.drag;
    if (!drag) {
      if (e.buttons) return;
      // Hover: the wire under the pointer shows lighter, a corner of the selected one orange.
      const hit = this.feature.hitTest(e.x, e.y);
      this.feature.setHover(hit);
      this.host.setCursor?.(hit?.corner !== null && hit?.corner !== undefined ? 'grab' : hit ? 'pointer' : '');
      return;
    }
    if (!drag.moved) {
      if (!this.clicks.move(e)) return;
      drag.moved = true;
      this.ctx.notify();
    }
    this.latest = { x: e.x, y: e.y };
    void this.follow();
  }

  /** Moves the dragged corner to the latest pointer position, one pick at a time. */
  private async followLoop(): Promise<void> {
    try {
      while (this.latest && this.drag) {
        const { x, y } = this.latest;
        this.latest = null;
        const drag = this.drag;
        if (drag.surface) {
          const hit = await this.ctx.pickAt(x, y);
          const wire = this.feature.selected();
          if (!hit || !wire || hit.model !== wire.jaw || this.drag !== drag) continue;
          const point = await this.feature.surfacePoint(drag.id, hit.pick);
          if (point && this.drag === drag) this.feature.previewCorner(drag.id, drag.corner, point);
        } else {
          const point = this.feature.planePoint(drag.id, drag.corner, x, y);
          if (point) this.feature.previewCorner(drag.id, drag.corner, point);
        }
      }
    } catch (e) {
      console.error('Dragging a wire corner failed', e);
    }
  }

  /**
   * Follows the pointer unless already following. Cleared in a `finally` callback (always
   * asynchronous): a free corner's loop has no await, so clearing inside it would run before the
   * assignment and leave a settled promise behind, and the next drag would never follow.
   */
  private follow(): Promise<void> {
    if (!this.following) {
      const run: Promise<void> = this.followLoop().finally(() => {
        if (this.following === run) this.following = null;
      });
      this.following = run;
    }
    return this.following;
  }

  /** Resolves when the dragged corner has caught up with the pointer (tests). */
  settled(): Promise<void> {
    return this.following ?? Promise.resolve();
  }

  async pointerUp(e: ToolPointerEvent): Promise<void> {
    const click = this.clicks.release(e);
    const drag = this.drag;
    if (drag) {
      if (drag.moved) {
        this.latest = { x: e.x, y: e.y };
        // A run that is just ending may not take this position: run again until it is taken.
        while (this.latest && this.drag === drag) await this.follow();
      }
      if (this.drag !== drag) return; // cancelled meanwhile
      this.drag = null;
      this.host.holdCamera(false);
      this.host.setCursor?.('grab');
      if (drag.moved) this.feature.commitPreview();
      else this.feature.select(drag.id, drag.corner);
      this.ctx.notify();
      return;
    }
    if (!click) return;
    const now = Date.now();
    const last = this.lastClick;
    this.lastClick = { x: e.x, y: e.y, at: now };
    const hit = this.feature.hitTest(e.x, e.y);
    if (last && now - last.at < DOUBLE_CLICK_MS && Math.hypot(e.x - last.x, e.y - last.y) <= 5 && hit && hit.segment !== null && hit.id === this.feature.selectedId) {
      this.lastClick = null;
      await this.run(() => this.feature.insertCorner(hit.id, hit.segment!));
      return;
    }
    if (hit) {
      this.feature.select(hit.id, hit.corner);
      this.ctx.notify();
      return;
    }
    if (this.feature.selectedId && this.feature.getState().anchors === 0) {
      // A click beside the selected wire lets it go; the next click on a tooth starts a new one.
      this.feature.select(null);
      this.ctx.notify();
      return;
    }
    await this.run(async () => {
      const pick = await this.ctx.pickAt(e.x, e.y);
      if (!pick || pick.model === 'occlusion') return;
      const jaw = pick.model;
      const placing = this.feature.addAnchor(jaw, pick.pick);
      this.showAnchors();
      await placing;
      this.showAnchors();
    });
  }

  private showAnchors(): void {
    const jaw = this.feature.getState().anchorJaw;
    this.ctx.showPending(jaw ? this.feature.anchors.map((pick) => ({ model: jaw, pick })) : []);
  }

  private async run(fn: () => Promise<unknown>): Promise<void> {
    this.busy = true;
    this.ctx.notify();
    try {
      await fn();
    } finally {
      this.busy = false;
      this.ctx.notify();
    }
  }

  readonly takesDoubleClick = true;

  wantsKey(key: string): boolean {
    return key === 'Escape' || key === 'Delete' || key === 'Backspace' || key === 'Insert';
  }

  key(key: string): boolean {
    const feature = this.feature;
    const s = feature.getState();
    if (key === 'Escape') {
      if (this.drag) {
        this.cancelDrag();
        return true;
      }
      if (s.anchors > 0) {
        feature.clearAnchors();
        this.showAnchors();
        this.ctx.notify();
        return true;
      }
      if (s.selectedId) {
        feature.select(null);
        this.ctx.notify();
        return true;
      }
      return false;
    }
    if ((key === 'Delete' || key === 'Backspace') && s.selectedId && s.corner !== null && !this.drag) {
      feature.deleteCorner(s.selectedId, s.corner);
      this.ctx.notify();
      return true;
    }
    if (key === 'Insert' && s.selectedId && !this.drag) {
      const wire = feature.selected();
      if (!wire) return false;
      const corner = s.corner ?? wire.points.length - 2;
      void this.run(() => feature.insertCorner(wire.id, Math.min(corner, wire.points.length - 2)));
      return true;
    }
    return false;
  }

  private cancelDrag(): void {
    if (!this.drag) return;
    this.drag = null;
    this.latest = null;
    this.feature.cancelPreview();
    this.host.holdCamera(false);
    this.ctx.notify();
  }

  cancel(): void {
    this.cancelDrag();
    this.feature.setHover(null);
    this.host.setCursor?.('');
    this.lastClick = null;
    this.feature.clearAnchors();
    this.ctx.showPending([]);
  }

  dispose(): void {
    this.unfollow();
  }
}
