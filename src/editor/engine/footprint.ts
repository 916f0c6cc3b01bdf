// The last pick's answer, kept for a press at the same pixel in the same view: a tool that
// picks while the pointer hovers (the brush's ring) then knows at once, on the press, whether it
// is on a model, without waiting for the worker or guessing from the models' boxes.

/** How far (CSS pixels) a press may be from the remembered pick and still take its answer. */
const SAME_PIXEL = 1;

export class PickMemory {
  private last: { x: number; y: number; view: string; hit: boolean } | null = null;

  /** A pick's answer; `view` describes what it was cast into (camera, models, clipping) when it was asked. */
  note(x: number, y: number, view: string, hit: boolean): void {
    this.last = { x, y, view, hit };
  }

  /** The remembered answer for this pixel and view, or null when there is none. */
  answer(x: number, y: number, view: string): boolean | null {
    const l = this.last;
    if (!l || l.view !== view || Math.abs(l.x - x) > SAME_PIXEL || Math.abs(l.y - y) > SAME_PIXEL) return null;
    return l.hit;
  }

  forget(): void {
    this.last = null;
  }
}
