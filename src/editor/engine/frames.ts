// Which frames the editor owes and what the last complete one showed. A render request is a count,
// not a deadline: it stays owed until a frame that began after it has been drawn with every
// shader ready, however long frames take (a software renderer's 2 s frame, a busy lab PC). What
// that frame showed is summarised from the scene itself, so a page, a test or a bug report can
// tell whether the picture matches the state the panels show.
import type { Scene } from '@babylonjs/core/scene';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh';
import { Observable } from '@babylonjs/core/Misc/observable';

/** What a complete frame drew, read from the scene as it was rendered. */
export interface FrameSummary {
  /** The view preset the camera was set to (null after the user orbited away from it). */
  view: string | null;
  /** Model roles drawn, in role order, and those present but hidden. */
  models: string[];
  hidden: string[];
  /** The heatmap whose colours were on the models ('off' without one). */
  heatmap: string;
  /** Wire tubes drawn. */
  wires: number;
  /** Acrylic bases drawn (one per jaw at most). */
  bases: number;
  /** Whether the straightening rings were drawn. */
  handles: boolean;
  /** Measurements drawn (their straight lines; overlays.ts shows them with the measure tool). */
  measurements: number;
  /** The design document's revision the scene had been synchronised with. */
  revision: number;
}

export interface FrameStatus {
  /** Frames drawn so far. */
  frames: number;
  /** A render request is not yet drawn, an animation runs or shaders still compile. */
  pending: boolean;
  /** The last complete frame (null before the first one). */
  drawn: FrameSummary | null;
}

/** Scene facts for the summary that only the engine knows (the rest is read from the meshes). */
export interface SummaryFacts {
  view: string | null;
  models: { role: string; mesh: AbstractMesh | null }[];
  heatmap: string;
  revision: number;
}

function shown(mesh: AbstractMesh): boolean {
  return !mesh.isDisposed() && mesh.isEnabled() && mesh.isVisible;
}

export function summarize(scene: Scene, facts: SummaryFacts): FrameSummary {
  let wires = 0;
  let bases = 0;
  let handles = false;
  let measurements = 0;
  for (const mesh of scene.meshes) {
    if (!shown(mesh)) continue;
    if (mesh.name.startsWith('measure-line-')) measurements++;
    if (mesh.name.startsWith('wire-') && !mesh.name.includes('-corner-')) wires++;
    else if (mesh.name === 'base') bases++;
    else if (mesh.name.startsWith('straighten-ring-')) handles = true;
  }
  const present = facts.models.filter((m) => m.mesh && !m.mesh.isDisposed());
  return {
    view: facts.view,
    models: present.filter((m) => shown(m.mesh!)).map((m) => m.role),
    hidden: present.filter((m) => !shown(m.mesh!)).map((m) => m.role),
    heatmap: facts.heatmap,
    wires,
    bases,
    handles,
    measurements,
    revision: facts.revision,
  };
}

/**
 * Render requests and the frames that answer them. `request()` makes a frame owed; `begin()` at
 * the start of a frame notes which requests it answers; `end()` after it marks them drawn when the
 * scene was ready (a frame drawn while shaders compile does not show everything).
 */
export class FrameClock {
  readonly onStatus = new Observable<FrameStatus>();
  private requested = 0;
  private answered = 0;
  private animateUntil = 0;
  private inFrame = -1;
  private frames = 0;
  /** Work under way whose result will change the picture (a worker's vertices, a heatmap). */
  private inflight = 0;
  private drawn: FrameSummary | null = null;
  /** The status as last published (one object per change: React's snapshot). */
  private last: FrameStatus = { frames: 0, pending: false, drawn: null };

  /** A frame is owed; `ms` > 0 also keeps frames coming that long (an animation). */
  request(ms = 0): void {
    this.requested++;
    if (ms > 0) this.animateUntil = Math.max(this.animateUntil, performance.now() + ms);
    if (!this.last.pending) this.publish();
  }

  /** Whether the loop must draw now. */
  owed(now = performance.now()): boolean {
    return this.requested > this.answered || now < this.animateUntil;
  }

  get pending(): boolean {
    return this.inflight > 0 || this.owed();
  }

  /** Work whose result will be drawn: the picture is pending until it settles and a frame shows it. */
  track(work: Promise<unknown>): void {
    this.inflight++;
    if (!this.last.pending) this.publish();
    const done = (): void => {
      this.inflight--;
      this.request();
    };
    work.then(done, done);
  }

  /** A frame starts: it answers every request made so far. */
  begin(): void {
    this.inFrame = this.requested;
  }

  /** The frame is drawn; `summary` is what it showed, null when the scene was not ready. */
  end(summary: FrameSummary | null): void {
    this.frames++;
    if (summary) {
      this.answered = Math.max(this.answered, this.inFrame);
      this.drawn = summary;
    }
    this.inFrame = -1;
    this.publish();
  }

  /** Nothing needs drawing for the owed requests (an empty scene whose background is on screen). */
  skip(): void {
    this.answered = this.requested;
    this.publish();
  }

  /** The loop found nothing owed: says so once when that ends a pending spell (an animation's end). */
  idle(): void {
    if (this.last.pending && !this.pending) this.publish();
  }

  status(): FrameStatus {
    return this.last;
  }

  private publish(): void {
    this.last = { frames: this.frames, pending: this.pending, drawn: this.drawn };
    this.onStatus.notifyObservers(this.last);
  }
}
