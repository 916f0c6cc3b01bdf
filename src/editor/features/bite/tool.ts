// The manual bite alignment tool: the designer picks point pairs, each a point on a jaw and then
// the same anatomical point on the bite scan; with three or more pairs on a jaw, Enter (or the
// panel's "Align", the action bite.align) aligns that jaw to the scan (BiteFeature.align).
//
//   idle --click on a jaw--> pointing(jaw point) --click on the bite scan--> idle (pair added)
//     |                          | Escape: forgets the jaw point; a click on a jaw replaces it
//     | Backspace: removes the last pair        Enter: align (>= 3 pairs on a jaw)
//     | a click on the scan first: ignored (the hint says to start on a jaw)
import { ClickTracker, type KeyModifiers, type ModelHit, type Tool, type ToolContext, type ToolPhase, type ToolPointerEvent } from '../../engine/tools/tool.ts';
import type { Jaw, PointPair } from './feature.ts';

/** What the tool needs of the bite feature. */
export interface BiteToolHost {
  addPair(pair: PointPair): void;
  removeLastPair(): void;
  canAlign(): boolean;
  align(): Promise<boolean>;
  /** Pairs collected so far (the hint counts them; the markers show them). */
  pairs(): readonly PointPair[];
  /** Calls `listener` when the pairs change elsewhere (the panel's "Clear pairs", an alignment); returns the unsubscribe. */
  watch(listener: () => void): () => void;
}

type State = { phase: 'idle' } | { phase: 'pointing'; jaw: ModelHit & { model: Jaw } } | { phase: 'busy' };

export class BiteAlignTool implements Tool {
  readonly id = 'bite' as const;
  private state: State = { phase: 'idle' };
  private readonly clicks = new ClickTracker();
  /** Bumped by cancel(): a pick answered after it is dropped. */
  private generation = 0;

  private readonly unwatch: () => void;

  constructor(
    private readonly ctx: ToolContext,
    private readonly host: BiteToolHost,
  ) {
    let seen = host.pairs();
    this.unwatch = host.watch(() => {
      if (host.pairs() === seen) return;
      seen = host.pairs();
      this.showMarkers();
      this.ctx.notify();
    });
  }

  get phase(): ToolPhase {
    return this.state.phase;
  }

  get hint(): string {
    if (this.state.phase === 'busy') return 'bite.busy';
    if (this.state.phase === 'pointing') return 'bite.scan';
    return this.host.canAlign() ? 'bite.ready' : 'bite.jaw';
  }

  /** The jaw point waiting for its partner on the scan (tests). */
  get pending(): ModelHit | null {
    return this.state.phase === 'pointing' ? this.state.jaw : null;
  }

  pointerDown(e: ToolPointerEvent): void {
    this.clicks.press(e);
  }

  pointerMove(e: ToolPointerEvent): void {
    this.clicks.move(e);
  }

  async pointerUp(e: ToolPointerEvent): Promise<void> {
    if (!this.clicks.release(e) || this.state.phase === 'busy') return;
    const generation = this.generation;
    const hit = await this.ctx.pickAt(e.x, e.y);
    if (generation !== this.generation || !hit) return;
    this.click(hit);
  }

  /** A click on a model surface (pointerUp's pick; headless tests call it with a hit). */
  click(hit: ModelHit): void {
    if (this.state.phase === 'busy') return;
    if (hit.model === 'upper' || hit.model === 'lower') {
      this.state = { phase: 'pointing', jaw: { model: hit.model, pick: hit.pick } };
    } else if (this.state.phase === 'pointing') {
      const { jaw } = this.state;
      this.host.addPair({ jaw: jaw.model, jawPoint: jaw.pick.point, bitePoint: hit.pick.point, jawTriangle: jaw.pick.triangle, biteTriangle: hit.pick.triangle });
      this.state = { phase: 'idle' };
    }
    this.showMarkers();
    this.ctx.notify();
  }

  /** Every pair's two points and the jaw point waiting for its partner. */
  private showMarkers(): void {
    const marks: ModelHit[] = this.host.pairs().flatMap((p) => [
      { model: p.jaw, pick: { point: p.jawPoint, triangle: p.jawTriangle ?? 0 } },
      { model: 'occlusion' as const, pick: { point: p.bitePoint, triangle: p.biteTriangle ?? 0 } },
    ]);
    if (this.state.phase === 'pointing') marks.push(this.state.jaw);
    this.ctx.showPending(marks);
  }

  wantsKey(key: string): boolean {
    return key === 'Enter' || key === 'Backspace';
  }

  key(key: string, _modifiers?: KeyModifiers): boolean {
    if (key === 'Escape') {
      if (this.state.phase !== 'pointing') return false;
      this.cancel();
      return true;
    }
    if (key === 'Backspace' && this.state.phase === 'idle' && this.host.pairs().length > 0) {
      this.host.removeLastPair();
      this.showMarkers();
      this.ctx.notify();
      return true;
    }
    if (key === 'Enter' && this.state.phase === 'idle' && this.host.canAlign()) {
      void this.align();
      return true;
    }
    return false;
  }

  /** Aligns with the pairs so far (Enter, or the panel's button through the action). */
  async align(): Promise<boolean> {
    this.state = { phase: 'busy' };
    this.ctx.notify();
    try {
      return await this.host.align();
    } finally {
      this.state = { phase: 'idle' };
      this.showMarkers();
      this.ctx.notify();
    }
  }

  cancel(): void {
    this.generation++;
    if (this.state.phase === 'pointing') this.state = { phase: 'idle' };
    this.showMarkers();
    this.ctx.notify();
  }

  dispose(): void {
    this.unwatch();
    this.ctx.showPending([]);
  }
}
