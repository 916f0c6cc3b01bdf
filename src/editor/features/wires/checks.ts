// The wires' live checks: a measure of each wire as shown, debounced after the last change, one
// at a time; the last result per wire is kept with the shape it was made for. Two run on it: the
// worker's bendCheck (the bending rules) and, where the wire's jaw shows a base, where its tags lie
// in the base (tags.ts).
import type { BendCheckResult } from '../../../geometry/client.ts';
import type { WireDesign, WirePoint, WireType } from '../../engine/document.ts';
import { Debounced } from '../../engine/debounce.ts';
import type { Xyz } from '../../engine/pose.ts';

/** Bending die radius used for the live checks and the drawn corners (mm). */
export const CHECK_RADIUS = 1;

export interface WireGeometry {
  bendCheck(input: { points: readonly Xyz[]; wire: { type: WireType; diameter: number }; program: { radius: number }; skipCollision?: boolean }): Promise<BendCheckResult>;
}

/** What a live check measures: `key` names what the result is of (the shape, and what it is measured against), null when it cannot be measured now. */
export interface LiveMeasure<R> {
  key(wire: WireDesign, points: readonly WirePoint[]): string | null;
  run(wire: WireDesign, points: readonly WirePoint[]): Promise<R>;
}

type Job = { key: string; wire: WireDesign; points: WirePoint[] };

export class LiveChecks<R> {
  private readonly results = new Map<string, { key: string; result: R | null }>();
  private readonly queue = new Map<string, Job>();
  private readonly wait: Debounced;
  private running: Promise<void> | null = null;
  /** The check under way: its result will replace the wire's last one. */
  private inFlight: { id: string; key: string } | null = null;
  private disposed = false;

  constructor(
    private readonly measure: LiveMeasure<R>,
    /** A result arrived for a wire (the feature redraws its marks). */
    private readonly checked: (id: string) => void,
    /** Delay of the checks after the last change (ms). */
    delayMs: number,
  ) {
    this.wait = new Debounced(() => this.start(), () => delayMs);
  }

  /** The last check of the wire, or null before the first. */
  result(id: string): R | null {
    return this.results.get(id)?.result ?? null;
  }

  /** The last check is of this shape of the wire. */
  isCurrent(wire: WireDesign, points: readonly WirePoint[]): boolean {
    const last = this.results.get(wire.id);
    return !!last && last.key === this.measure.key(wire, points);
  }

  /**
   * Queues a check of the wire as shown, unless its last or queued one is of that shape. A last
   * result of this shape does not count while a check of another shape is under way: that one's
   * result would replace it (an undo then a redo before the undo's check ends). Where it counts, a
   * queued check of another shape is dropped: it would replace the result of the shape shown (an
   * undo then a redo before the undo's check starts).
   */
  queueCheck(w: WireDesign, points: WirePoint[]): void {
    const key = this.measure.key(w, points);
    if (key === null) {
      this.queue.delete(w.id);
      return;
    }
    const overtaken = this.inFlight?.id === w.id && this.inFlight.key !== key;
    if (this.results.get(w.id)?.key === key && !overtaken) {
      this.queue.delete(w.id);
      return;
    }
    if (this.queue.get(w.id)?.key === key) return;
    this.queue.set(w.id, { key, wire: w, points });
    this.wait.schedule();
  }

  /** Resolves when no check is waiting or running (tests, the bend panel). */
  async settled(): Promise<void> {
    while (this.wait.pending || this.running) {
      this.wait.flush();
      await this.running;
    }
  }

  /**
   * Runs the queued checks unless a run is under way (it takes them too). Not with an empty queue:
   * run() would then end at once and `running` would keep its settled promise, so no check would
   * ever start again (seen in the browser: "Checking…" forever after an undo).
   */
  private start(): void {
    if (this.running || this.queue.size === 0) return;
    this.running = this.run();
  }

  private async run(): Promise<void> {
    try {
      while (this.queue.size > 0 && !this.disposed) {
        const [id, job] = this.queue.entries().next().value as [string, Job];
        this.queue.delete(id);
        this.inFlight = { id, key: job.key };
        let result: R | null = null;
        try {
          result = await this.measure.run(job.wire, job.points);
        } catch (e) {
          console.error('Checking a wire failed', e);
        }
        this.inFlight = null;
        if (this.disposed) return;
        this.results.set(id, { key: job.key, result });
        this.checked(id);
      }
    } finally {
      this.inFlight = null;
      this.running = null;
    }
  }

  dispose(): void {
    this.disposed = true;
    this.wait.cancel();
  }
}

/** What a bending check was made for: the wire's type, diameter and corners. */
const checkKey = (w: WireDesign, points: readonly WirePoint[]): string => JSON.stringify([w.type, w.diameter, points.map((p) => p.point)]);

/** The bending rules of each wire (the worker's bendCheck at CHECK_RADIUS, without the head's collision). */
export class WireChecks extends LiveChecks<BendCheckResult> {
  constructor(geometry: Partial<WireGeometry>, checked: (id: string) => void, delayMs: number) {
    super(
      {
        key: (w, points) => (geometry.bendCheck ? checkKey(w, points) : null),
        run: (w, points) =>
          geometry.bendCheck!({
            points: points.map((p) => [p.point[0], p.point[1], p.point[2]] as const),
            wire: { type: w.type, diameter: w.diameter },
            program: { radius: CHECK_RADIUS },
            skipCollision: true,
          }),
      },
      checked,
      delayMs,
    );
  }
}
