// The straightening tool: its handles (rings rotate about the world axes through the models'
// centre, arrows move along them) are dragged through this state machine; the models follow
// live (a preview pose) and the release makes one command, so a drag is one undo step.
// Pressing anywhere else leaves the press to the camera (orbit, pan). The automatic
// straightening, the nudges and the reset are in the side panel (StraighteningController).
import { MOVE_STEP_MM, ROTATE_STEP_DEGREES, type Axis, type StraighteningController } from './feature.ts';
import { ARROW_FROM, ARROW_TO, arrowPoints, ringPoints, type HandleId, type HandleLayout } from './handles.ts';
import type { Matrix4, Xyz } from '../../engine/pose.ts';
import { screenSegmentDistance, type ScreenPoint } from '../../engine/screen.ts';
import type { KeyModifiers, Tool, ToolContext, ToolPhase, ToolPointerEvent } from '../../engine/tools/tool.ts';

/** A press closer than this many pixels to a handle grabs it. */
const HANDLE_GRAB_PX = 8;

type Screen = ScreenPoint;

export interface StraightenToolHost {
  readonly controller: StraighteningController;
  /** Where the handles go now (null: no model). */
  layout(): HandleLayout | null;
  /** World point → canvas CSS pixel, null behind the camera. */
  project(p: Xyz): Screen | null;
  showHandles(layout: HandleLayout | null, hot: HandleId | null): void;
  /** Keeps the camera still while a handle is dragged. */
  holdCamera(on: boolean): void;
}

interface Drag {
  handle: HandleId;
  axis: Axis;
  start: Screen;
  pose: Matrix4;
  layout: HandleLayout;
  center: Screen;
  /** Rotation: +1 when a counter-clockwise screen turn is a positive turn about the axis. */
  sign: number;
  /** Move: screen pixels per millimetre along the axis, and its screen direction. */
  axisScreen: Screen;
  pxPerMm: number;
  startAngle: number;
  current: Matrix4 | null;
}

/** Arrow keys as screen directions (y down, as canvas pixels). */
const ARROWS: Record<string, Screen> = {
  ArrowLeft: { x: -1, y: 0 },
  ArrowRight: { x: 1, y: 0 },
  ArrowUp: { x: 0, y: -1 },
  ArrowDown: { x: 0, y: 1 },
};

export class StraightenTool implements Tool {
  readonly id = 'straighten' as const;
  private drag: Drag | null = null;
  private hot: HandleId | null = null;

  constructor(
    private readonly ctx: ToolContext,
    private readonly host: StraightenToolHost,
  ) {
    this.refresh();
  }

  get phase(): ToolPhase {
    if (this.drag) return 'dragging';
    return this.host.controller.busy ? 'busy' : 'idle';
  }

  get hint(): string {
    if (this.drag) return this.drag.handle.startsWith('rotate') ? 'straighten.rotating' : 'straighten.moving';
    return this.host.controller.busy ? 'straighten.busy' : 'straighten.idle';
  }

  /** Redraws the handles where the models are now (after a change of pose or of the view). */
  refresh(): void {
    this.host.showHandles(this.drag ? this.drag.layout : this.host.layout(), this.drag?.handle ?? this.hot);
  }

  /** The handle under a canvas pixel, or null. */
  handleAt(p: Screen, layout: HandleLayout | null = this.host.layout()): HandleId | null {
    if (!layout) return null;
    let best: { id: HandleId; d: number } | null = null;
    const consider = (id: HandleId, points: Xyz[]): void => {
      const screen = points.map((q) => this.host.project(q));
      for (let i = 0; i + 1 < screen.length; i++) {
        const a = screen[i], b = screen[i + 1];
        if (!a || !b) continue;
        const d = screenSegmentDistance(p, a, b);
        if (d <= HANDLE_GRAB_PX && (!best || d < best.d)) best = { id, d };
      }
    };
    // Arrows first: they are short and drawn beyond the rings.
    for (const axis of [0, 1, 2] as const) consider(`move-${axis}`, arrowPoints(layout, axis));
    if (best) return (best as { id: HandleId }).id;
    for (const axis of [0, 1, 2] as const) consider(`rotate-${axis}`, ringPoints(layout, axis, 48));
    return best ? (best as { id: HandleId }).id : null;
  }

  /** A canvas pixel on a handle where no other handle is (tests, tours), or null when hidden. */
  handlePoint(handle: HandleId): Screen | null {
    const layout = this.host.layout();
    if (!layout) return null;
    const axis = Number(handle.slice(-1)) as Axis;
    const candidates = handle.startsWith('move')
      ? [0.3, 0.5, 0.7].map((k) => {
          const [a, b] = arrowPoints(layout, axis);
          return [a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k, a[2] + (b[2] - a[2]) * k] as Xyz;
        })
      : ringPoints(layout, axis, 24);
    for (const p of candidates) {
      const at = this.host.project(p);
      if (at && this.handleAt(at, layout) === handle) return at;
    }
    return null;
  }

  pointerDown(e: ToolPointerEvent): void {
    if (e.button !== 0 || this.drag || this.host.controller.busy) return;
    const layout = this.host.layout();
    const handle = this.handleAt(e, layout);
    const center = layout ? this.host.project(layout.center) : null;
    if (!handle || !layout || !center) return;
    const axis = Number(handle.slice(-1)) as Axis;
    const drag: Drag = {
      handle, axis, start: { x: e.x, y: e.y }, pose: this.host.controller.pose, layout, center,
      sign: 1, axisScreen: { x: 0, y: 0 }, pxPerMm: 0, startAngle: Math.atan2(e.y - center.y, e.x - center.x), current: null,
    };
    if (handle.startsWith('rotate')) {
      // Which way a positive turn goes on screen: turn a ring point a little and look.
      const ring = ringPoints(layout, axis, 4);
      const a = this.host.project(ring[0]!);
      const b = this.host.project(ring[1]!);
      if (!a || !b) return;
      const turn = Math.atan2(b.y - center.y, b.x - center.x) - Math.atan2(a.y - center.y, a.x - center.x);
      drag.sign = Math.sin(turn) >= 0 ? 1 : -1;
    } else {
      const [from, to] = arrowPoints(layout, axis);
      const a = this.host.project(from);
      const b = this.host.project(to);
      if (!a || !b) return;
      const length = Math.hypot(b.x - a.x, b.y - a.y);
      if (length < 4) return; // the axis points at the viewer: nothing to drag along
      drag.axisScreen = { x: (b.x - a.x) / length, y: (b.y - a.y) / length };
      drag.pxPerMm = length / ((ARROW_TO - ARROW_FROM) * layout.radius);
    }
    this.drag = drag;
    this.host.holdCamera(true);
    this.refresh();
    this.ctx.notify();
  }

  pointerMove(e: ToolPointerEvent): void {
    const drag = this.drag;
    if (!drag) {
      if (e.buttons) return;
      const hot = this.handleAt(e);
      if (hot !== this.hot) {
        this.hot = hot;
        this.refresh();
      }
      return;
    }
    const controller = this.host.controller;
    if (drag.handle.startsWith('rotate')) {
      let turn = Math.atan2(e.y - drag.center.y, e.x - drag.center.x) - drag.startAngle;
      turn = Math.atan2(Math.sin(turn), Math.cos(turn));
      drag.current = controller.rotated(drag.pose, drag.axis, (drag.sign * turn * 180) / Math.PI, drag.layout.center);
    } else {
      const along = (e.x - drag.start.x) * drag.axisScreen.x + (e.y - drag.start.y) * drag.axisScreen.y;
      drag.current = controller.moved(drag.pose, drag.axis, along / drag.pxPerMm);
    }
    controller.preview(drag.current);
  }

  async pointerUp(): Promise<void> {
    const drag = this.drag;
    if (!drag) return;
    this.drag = null;
    this.host.holdCamera(false);
    if (drag.current) this.host.controller.commit(drag.handle.startsWith('rotate') ? 'straighten.rotate' : 'straighten.move', drag.current);
    else this.host.controller.preview(null);
    this.refresh();
    this.ctx.notify();
  }

  /**
   * Escape cancels a drag. Arrow keys nudge, one command per press: Left/Right turn about z by
   * 0.5° (Left counter-clockwise seen from above), Up/Down tilt about x (Up lifts the front);
   * with Shift they move by 0.1 mm along the world axis that runs most nearly that way on screen.
   */
  key(key: string, modifiers: KeyModifiers = {}): boolean {
    if (key === 'Escape' && this.drag) {
      this.cancel();
      return true;
    }
    const arrow = ARROWS[key];
    const controller = this.host.controller;
    if (!arrow || this.drag || controller.busy || modifiers.ctrlKey || modifiers.altKey || modifiers.metaKey) return false;
    if (!modifiers.shiftKey) {
      if (arrow.x !== 0) controller.rotate(2, -arrow.x * ROTATE_STEP_DEGREES);
      else controller.rotate(0, arrow.y * ROTATE_STEP_DEGREES);
      return true;
    }
    const along = this.screenAxis(arrow);
    if (!along) return false;
    controller.move(along.axis, along.sign * MOVE_STEP_MM);
    return true;
  }

  /** The world axis whose screen image runs most nearly along a screen direction, and which way. */
  private screenAxis(direction: Screen): { axis: Axis; sign: number } | null {
    const layout = this.host.layout();
    const center = layout ? this.host.project(layout.center) : null;
    if (!layout || !center) return null;
    let best: { axis: Axis; sign: number; score: number } | null = null;
    for (const axis of [0, 1, 2] as const) {
      const c = layout.center;
      const tip = this.host.project([c[0] + (axis === 0 ? layout.radius : 0), c[1] + (axis === 1 ? layout.radius : 0), c[2] + (axis === 2 ? layout.radius : 0)]);
      if (!tip) continue;
      const dx = tip.x - center.x, dy = tip.y - center.y;
      const length = Math.hypot(dx, dy);
      if (length < 1) continue; // the axis points at the viewer
      const cos = (dx * direction.x + dy * direction.y) / length;
      if (!best || Math.abs(cos) > best.score) best = { axis, sign: Math.sign(cos), score: Math.abs(cos) };
    }
    return best && best.score > 0.3 ? { axis: best.axis, sign: best.sign } : null;
  }

  cancel(): void {
    if (this.drag) {
      this.drag = null;
      this.host.holdCamera(false);
      this.host.controller.preview(null);
      this.ctx.notify();
    }
    this.refresh();
  }

  /** The arrow keys nudge the models (and so do not orbit the camera). */
  wantsKey(key: string): boolean {
    return key.startsWith('Arrow');
  }

  poseChanged(): void {
    this.refresh();
  }

  /** Leaving the tool: the handles go. */
  dispose(): void {
    this.cancel();
    this.host.showHandles(null, null);
  }
}
