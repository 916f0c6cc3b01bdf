// The wires of the appliance in the scene (`engine.wires`): the selection other panels read,
// the options of the next wire (type, diameter, clearance), the clicks on the teeth collected
// for a template, every design change of a wire as one document command (place, move, insert
// or delete a corner, auto-fit, delete), the tubes and handles drawn from the document, and the
// live rule checks (the worker's bendCheck, debounced; the last result per wire).
//
// The engine calls sync() after every document change; a drag shows a preview (the tube and the
// checks follow it) and commits once on release. The document edits themselves are pure
// functions (edits.ts), the live checks their own queue (checks.ts); this file is the
// interaction: selection, options, placing, dragging, picking and the scene.
import { Material } from '@babylonjs/core/Materials/material';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { BendCheckResult, BendIssue } from '../../../geometry/client.ts';
import type { SurfacePick, WireDesign, WirePoint, WireType } from '../../engine/document.ts';
import { mm } from '../../engine/units.ts';
import type { Xyz } from '../../engine/pose.ts';
import { buildHandle, buildTube, WireMaterials } from './tube.ts';
import type { EditorContext } from '../../engine/context.ts';
import { FeatureStore } from '../../engine/store.ts';
import { WireChecks } from './checks.ts';
import { TagChecks, type TagFit } from './tags.ts';
import { screenSegmentDistance } from '../../engine/screen.ts';
import { ToothAnchorError, type AnchorTooth } from '../../../../common/wires/tooth-anchors.ts';
import { jawOf } from '../../../../common/teeth.ts';
import { isDesignerWire } from '../../../../common/ai.ts';
import type { AiReportRecord } from '../../../../common/ai-report.ts';
import { teethFor } from '../../../../common/wires/teeth-for.ts';
import type { ClaspCrossing } from '../../../../common/wires/templates.ts';
import { cornerDeleted, cornerInserted, cornerMoved, newWireId, placedWire, reshaped, withoutWire, withWire, withWireAdded, type Shaped } from './edits.ts';

/** The wire diameters the machines take (mm). */
export const WIRE_DIAMETERS = [0.7, 0.8, 0.9, 1] as const;
const DEFAULT_DIAMETER = 0.8;
/** Default gap between the wire and the model (mm). */
export const DEFAULT_CLEARANCE = 0.1;
/** A press this close (canvas px) to a corner of the selected wire grabs it. */
const HANDLE_PX = 9;
/** A click this close (canvas px) to a wire's segment selects it. */
const WIRE_PICK_PX = 8;

/** Why the last wire action was refused or failed (the panel shows a sentence). */
export type WireProblemCode = 'AUTOFIT_ONLY_CLASP' | 'MIN_CORNERS' | 'PLACE_FAILED' | 'FIT_FAILED' | 'NO_TEETH' | 'TOOTH_NOT_FOUND' | 'TEETH_APART';

/** Where the wire tool finds a jaw's teeth to place a template on (engine.teeth.crowns); null: none found. */
export type WireTeethSource = (jaw: 'upper' | 'lower') => Promise<AnchorTooth[] | null>;

export { CHECK_RADIUS, type WireGeometry } from './checks.ts';
export type { Shaped } from './edits.ts';

/** What the geometry helpers do for the feature (templates.ts, surface.ts, fit.ts behind it). */
export interface WireKit {
  /** Clicks on the teeth the type's template needs. */
  clicks(type: WireType): number;
  /** The template on the clicked teeth: corners (model frame) and the tag(s) held in the base. */
  place(jaw: 'upper' | 'lower', type: WireType, anchors: SurfacePick[], opts: { diameter: number; clearance: number; crossing?: ClaspCrossing }): Promise<Shaped>;
  /** A corner kept off the surface at `pick` by the wire's radius plus its clearance. */
  keepOff(jaw: 'upper' | 'lower', pick: SurfacePick, opts: { diameter: number; clearance: number }): Promise<WirePoint>;
  /** The surface point nearest to a model point, or null. */
  nearest(jaw: 'upper' | 'lower', p: Xyz): Promise<SurfacePick | null>;
  /** The single-arm clasp fitted to its tooth. */
  autoFit(wire: WireDesign): Promise<Shaped>;
  /** The template's clicks found on named teeth (Universal numbers; tooth-anchors.ts). */
  onTeeth(jaw: 'upper' | 'lower', type: WireType, numbers: readonly number[], teeth: readonly AnchorTooth[]): Promise<SurfacePick[]>;
}

export interface WireView {
  selectedId: string | null;
  /** The selected corner of the selected wire (Delete removes it). */
  corner: number | null;
  /** Options of the next wire. */
  type: WireType;
  diameter: number;
  clearance: number;
  /** The contact a single-arm clasp crosses into the base (clicks and named teeth alike). */
  crossing: ClaspCrossing;
  /** Clicks collected for the next template, and how many it needs. */
  anchors: number;
  needed: number;
  /** The jaw of the collected clicks. */
  anchorJaw: 'upper' | 'lower' | null;
  problem: WireProblemCode | null;
  /** The tooth a TOOTH_NOT_FOUND or TEETH_APART problem names (Universal). */
  problemTooth: number | null;
  /** Placing, fitting or re-offsetting in the worker. */
  busy: boolean;
  /** Bumped when a check result arrives (the panel re-reads check(id)). */
  checks: number;
  /** The automatic design's report of the open order (its AI review, read with its design), or null. */
  review: AiReportRecord | null;
}

export interface WireHit {
  id: string;
  /** A corner of the selected wire under the pointer. */
  corner: number | null;
  /** The segment [segment, segment + 1] under the pointer. */
  segment: number | null;
}

/** The corners an issue concerns (marked in the view). */
function issueCorners(issue: BendIssue, result: BendCheckResult, count: number): number[] {
  if (issue.corners?.length) return issue.corners;
  const detail = result.program?.detail ?? [];
  if (issue.code === 'START_LENGTH') return [0, detail.length > 1 ? detail[0]!.corner : count - 1];
  if (issue.code === 'END_LENGTH') return [count - 1, detail.length > 1 ? detail[detail.length - 2]!.corner : 0];
  if (issue.step !== undefined && detail[issue.step]) return [detail[issue.step]!.corner];
  return [];
}

interface Drawn {
  key: string;
  nodes: Mesh[];
}

/** The wire view before anything is chosen (also what the panel shows without an engine). */
export const INITIAL_WIRE_VIEW: WireView = {
  selectedId: null,
  corner: null,
  type: 'singleArmClasp',
  diameter: DEFAULT_DIAMETER,
  clearance: DEFAULT_CLEARANCE,
  crossing: 'mesial',
  anchors: 0,
  needed: 1,
  anchorJaw: null,
  problem: null,
  problemTooth: null,
  busy: false,
  checks: 0,
  review: null,
};

export class WireFeature {
  private readonly store: FeatureStore<WireView>;
  private pending: SurfacePick[] = [];
  private teethSource: WireTeethSource | null = null;
  private readonly drawn = new Map<string, Drawn>();
  /** The live rule checks (checks.ts). */
  private readonly checks: WireChecks;
  /** The tags' places in the bases shown (tags.ts). */
  private readonly tagChecks: TagChecks;
  private readonly unfollowBase: () => void;
  private preview: { id: string; points: WirePoint[] } | null = null;
  /** The wire (and corner) under the pointer, shown lighter (a hovered handle orange). */
  private hover: WireHit | null = null;
  private materials: WireMaterials | null = null;
  private disposed = false;

  constructor(
    private readonly host: EditorContext,
    private readonly kit: WireKit,
    /** Delay of the live checks after the last change (ms). */
    private readonly checkDelayMs = 200,
  ) {
    this.checks = new WireChecks(host.geometry, (id) => this.checked(id), checkDelayMs);
    this.tagChecks = new TagChecks(host.geometry, (jaw) => host.generatedBase.handleOf(jaw), (id) => this.checked(id), checkDelayMs);
    // A base generated, made again or gone: the tags are measured against the new one.
    this.unfollowBase = host.generatedBase.onGenerated(() => this.sync());
    this.store = new FeatureStore<WireView>({ ...INITIAL_WIRE_VIEW, needed: kit.clicks(INITIAL_WIRE_VIEW.type) });
    this.getState = this.store.getState;
    this.subscribe = this.store.subscribe;
  }

  // ---------------------------------------------------------------- state

  readonly getState: () => WireView;
  readonly subscribe: (listener: () => void) => () => void;
  private get view(): WireView {
    return this.store.getState();
  }

  // The engine's state reads the selection from this store (state().wires.selectedId): no copy to share.
  private set(patch: Partial<WireView>): void {
    this.store.set(patch);
  }

  get selectedId(): string | null {
    return this.view.selectedId;
  }

  private wire(id: string | null): WireDesign | null {
    if (id === null) return null;
    return this.host.document().wires?.find((w) => w.id === id) ?? null;
  }

  /** The open order's AI report (openOrder reads it; null when closed, or without one). */
  setReview(review: AiReportRecord | null): void {
    this.set({ review });
  }

  /** The selected wire as in the document, or null. */
  selected(): WireDesign | null {
    return this.wire(this.view.selectedId);
  }

  select(id: string | null, corner: number | null = null): void {
    const wire = this.wire(id);
    const selectedId = wire ? wire.id : null;
    const c = wire && corner !== null && corner >= 0 && corner < wire.points.length ? corner : null;
    if (selectedId === this.view.selectedId && c === this.view.corner) return;
    this.set({ selectedId, corner: c, problem: null });
    this.sync();
  }

  /** The wire's corners (model frame of its jaw), [] for an unknown wire. */
  cornersInModelFrame(id: string): [number, number, number][] {
    const points = this.preview?.id === id ? this.preview.points : this.wire(id)?.points;
    return (points ?? []).map((p) => [p.point[0], p.point[1], p.point[2]]);
  }

  /** The last check of the wire (its rules, at the die radius CHECK_RADIUS), or null before the first. */
  check(id: string): BendCheckResult | null {
    return this.checks.result(id);
  }

  /** The last check is of the wire as it is shown now (false while a newer one waits or runs). */
  checkIsCurrent(id: string): boolean {
    const wire = this.wire(id);
    if (!wire) return false;
    return this.checks.isCurrent(wire, this.preview?.id === id ? this.preview.points : wire.points);
  }

  /**
   * Where the wire's tags lie in its jaw's base as shown now (one TagFit per tag), or null: no
   * base on its jaw, no tags, or not measured yet for this shape and base.
   */
  tags(id: string): TagFit[] | null {
    const wire = this.wire(id);
    if (!wire || !this.tagChecks.isCurrent(wire, this.preview?.id === id ? this.preview.points : wire.points)) return null;
    return this.tagChecks.result(id);
  }

  /** Resolves when no check is waiting or running (tests, the bend panel). */
  async settled(): Promise<void> {
    await this.checks.settled();
    await this.tagChecks.settled();
  }

  report(problem: WireProblemCode | null): void {
    this.set({ problem });
  }

  // ---------------------------------------------------------------- options of the next wire

  setType(type: WireType): void {
    this.pending = [];
    this.set({ type, needed: this.kit.clicks(type), anchors: 0, anchorJaw: null, problem: null });
  }

  /** The contact the next single-arm clasp crosses: mesial, or distal where the gum lingual of the mesial one is too narrow for its tag. */
  setCrossing(crossing: ClaspCrossing): void {
    if (crossing === 'mesial' || crossing === 'distal') this.set({ crossing });
  }

  /** The next wire's clearance, and the selected wire's (one command; its surface corners move to the new distance). */
  async setClearance(clearance: number): Promise<void> {
    if (!(clearance >= 0 && clearance <= 1)) return;
    this.set({ clearance });
    const wire = this.selected();
    if (!wire || wire.clearance === clearance) return;
    const moved = await this.reoffset(wire, { diameter: wire.diameter, clearance });
    if (moved) this.commit('wire.clearance', { ...wire, clearance: mm(clearance), points: moved });
  }

  /** The next wire's diameter, and the selected wire's (one command; its surface corners keep their distance). */
  async setDiameter(diameter: number): Promise<void> {
    this.set({ diameter });
    const wire = this.selected();
    if (!wire || wire.diameter === diameter) return;
    const moved = await this.reoffset(wire, { diameter, clearance: wire.clearance });
    if (moved) this.commit('wire.diameter', { ...wire, diameter: mm(diameter), points: moved });
  }

  private async reoffset(wire: WireDesign, opts: { diameter: number; clearance: number }): Promise<WirePoint[] | null> {
    this.set({ busy: true });
    try {
      return await Promise.all(wire.points.map((p) => (p.surface ? this.kit.keepOff(wire.jaw, p.surface, opts) : Promise.resolve(p))));
    } catch (e) {
      console.error('Re-offsetting a wire failed', e);
      return null;
    } finally {
      this.set({ busy: false });
    }
  }

  // ---------------------------------------------------------------- placing

  /** The clicks collected for the next template (the engine marks them). */
  get anchors(): readonly SurfacePick[] {
    return this.pending;
  }

  /** Forgets the clicks collected so far. */
  clearAnchors(): void {
    if (this.pending.length === 0) return;
    this.pending = [];
    this.set({ anchors: 0, anchorJaw: null });
  }

  /**
   * A click on a tooth: collected; the last one the template needs places the wire (one command,
   * selected). A click on the other jaw starts over there. Resolves the placed wire's id.
   */
  async addAnchor(jaw: 'upper' | 'lower', pick: SurfacePick): Promise<string | null> {
    if (this.view.anchorJaw && this.view.anchorJaw !== jaw) this.pending = [];
    this.pending = [...this.pending, pick];
    this.set({ anchors: this.pending.length, anchorJaw: jaw, problem: null });
    if (this.pending.length < this.view.needed) return null;
    const anchors = this.pending;
    this.pending = [];
    this.set({ anchors: 0, anchorJaw: null });
    return this.place(jaw, this.view.type, anchors);
  }

  /** Places a template on clicked teeth as a new wire (one command) and selects it; a single-arm clasp crosses `crossing` (default: the option's). */
  async place(jaw: 'upper' | 'lower', type: WireType, anchors: SurfacePick[], crossing: ClaspCrossing = this.view.crossing): Promise<string | null> {
    const { diameter, clearance } = this.view;
    this.set({ busy: true, problem: null });
    let placed: Shaped;
    try {
      placed = await this.kit.place(jaw, type, anchors, { diameter, clearance, ...(type === 'singleArmClasp' ? { crossing } : {}) });
    } catch (e) {
      console.error('Placing a wire failed', e);
      this.set({ busy: false, problem: 'PLACE_FAILED' });
      return null;
    }
    this.set({ busy: false });
    if (this.disposed || placed.points.length < 2) {
      if (!this.disposed) this.set({ problem: 'PLACE_FAILED' });
      return null;
    }
    const wire = placedWire(newWireId(), jaw, type, { diameter, clearance }, anchors, placed);
    const doc = this.host.document();
    this.set({ selectedId: wire.id, corner: null });
    this.host.change('wire.add', withWireAdded(doc, wire));
    return wire.id;
  }

  /** Where placeOnTeeth finds the teeth (the engine sets engine.teeth's). */
  setTeethSource(source: WireTeethSource | null): void {
    this.teethSource = source;
  }

  /**
   * Places a template on named teeth instead of clicks ("a clasp on the 6"): `tooth` is the clasped
   * tooth (the arrow clasp sits between it and its distal neighbour); the bows take the jaw's
   * canines or last molars. One command like a placement by clicks. `crossing`: the contact a
   * single-arm clasp crosses into the base (default: the option's, setCrossing).
   */
  async placeOnTeeth(type: WireType, target: { tooth: number } | { jaw: 'upper' | 'lower' }, crossing?: ClaspCrossing): Promise<string | null> {
    const jaw = 'tooth' in target ? jawOf(target.tooth) : target.jaw;
    this.set({ busy: true, problem: null, problemTooth: null });
    let anchors: SurfacePick[];
    try {
      const teeth = this.teethSource ? await this.teethSource(jaw) : null;
      if (!teeth?.length) {
        this.set({ busy: false, problem: 'NO_TEETH' });
        return null;
      }
      const numbers = teethFor(type, target, teeth.map((t) => t.number));
      if (!numbers) {
        this.set({ busy: false, problem: 'NO_TEETH' });
        return null;
      }
      anchors = await this.kit.onTeeth(jaw, type, numbers, teeth);
    } catch (e) {
      if (e instanceof ToothAnchorError) {
        this.set({ busy: false, problem: e.reason === 'NOT_NEIGHBOURS' ? 'TEETH_APART' : 'TOOTH_NOT_FOUND', problemTooth: e.tooth });
        return null;
      }
      console.error('Placing a wire on teeth failed', e);
      this.set({ busy: false, problem: 'PLACE_FAILED' });
      return null;
    }
    this.set({ busy: false });
    return this.place(jaw, type, anchors, crossing);
  }

  // ---------------------------------------------------------------- editing

  /** A changed wire is the designer's: an edit of an AI-generated wire accepts it. */
  private commit(label: string, wire: WireDesign): void {
    this.host.change(label, withWire(this.host.document(), wire.ai ? { ...wire, ai: { accepted: true } } : wire));
  }

  /** AI-generated wires no designer has accepted (or edited) yet. */
  unaccepted(): WireDesign[] {
    return (this.host.document().wires ?? []).filter((w) => !isDesignerWire(w));
  }

  /** Accepts an AI-generated wire as it is (one command): it becomes the designer's. */
  accept(id: string): boolean {
    const wire = this.wire(id);
    if (!wire || isDesignerWire(wire)) return false;
    this.commit('wire.accept', wire);
    return true;
  }

  /** Moves one corner (one command). */
  moveCorner(id: string, index: number, point: WirePoint): void {
    const wire = this.wire(id);
    const next = wire ? cornerMoved(wire, index, point) : null;
    if (next) this.commit('wire.move', next);
  }

  /**
   * A corner in the middle of the segment [segment, segment + 1] (one command; selected). Between
   * corners on the surface it goes onto the surface too, kept off it like them.
   */
  async insertCorner(id: string, segment: number): Promise<boolean> {
    const wire = this.wire(id);
    const a = wire?.points[segment];
    const b = wire?.points[segment + 1];
    if (!wire || !a || !b) return false;
    const mid: Xyz = [(a.point[0] + b.point[0]) / 2, (a.point[1] + b.point[1]) / 2, (a.point[2] + b.point[2]) / 2];
    let corner: WirePoint = { point: mid as WirePoint['point'] };
    if (a.surface && b.surface) {
      this.set({ busy: true });
      try {
        const sa = a.surface.point, sb = b.surface.point;
        const pick = await this.kit.nearest(wire.jaw, [(sa[0] + sb[0]) / 2, (sa[1] + sb[1]) / 2, (sa[2] + sb[2]) / 2]);
        if (pick) corner = await this.kit.keepOff(wire.jaw, pick, wire);
      } catch (e) {
        console.error('Inserting a corner failed', e);
      } finally {
        this.set({ busy: false });
      }
    }
    const now = this.wire(id);
    if (!now || now.points.length !== wire.points.length) return false;
    const at = segment + 1;
    const next = cornerInserted(now, at, corner);
    this.set({ corner: at });
    this.commit('wire.insert', next);
    return true;
  }

  /** Removes a corner (one command); a wire keeps at least two. */
  deleteCorner(id: string, index: number): boolean {
    const wire = this.wire(id);
    const next = wire ? cornerDeleted(wire, index) : null;
    if (!next) return false;
    if (next === 'MIN_CORNERS') {
      this.set({ problem: 'MIN_CORNERS' });
      return false;
    }
    this.set({ corner: null, problem: null });
    this.commit('wire.deleteCorner', next);
    return true;
  }

  /** Deletes a wire (one command). Its slot stays in the document, skipped (features/slots), so undo brings both back. */
  remove(id: string): void {
    const next = withoutWire(this.host.document(), id);
    if (!next) return;
    if (this.view.selectedId === id) this.set({ selectedId: null, corner: null });
    this.host.change('wire.delete', next);
  }

  /** Whether auto-fit works for the wire (the single-arm clasp only). */
  canAutoFit(id: string | null = this.view.selectedId): boolean {
    return this.wire(id)?.type === 'singleArmClasp';
  }

  /** Fits a single-arm clasp to its tooth (one command); other types are refused with a problem. */
  async autoFit(id: string | null = this.view.selectedId): Promise<boolean> {
    const wire = this.wire(id);
    if (!wire) return false;
    if (wire.type !== 'singleArmClasp') {
      this.set({ problem: 'AUTOFIT_ONLY_CLASP' });
      return false;
    }
    this.set({ busy: true, problem: null });
    try {
      const fitted = await this.kit.autoFit(wire);
      const now = this.wire(wire.id);
      if (!now || this.disposed) return false;
      const next = reshaped(now, fitted.points, fitted.tag, fitted.tags ?? (now.tags && fitted.tag ? [fitted.tag] : undefined));
      this.set({ corner: null });
      this.commit('wire.autofit', next);
      return true;
    } catch (e) {
      console.error('Auto-fit failed', e);
      this.set({ problem: 'FIT_FAILED' });
      return false;
    } finally {
      this.set({ busy: false });
    }
  }

  // ---------------------------------------------------------------- dragging (the tool drives it)

  /** Shows the wire with one corner moved (no command yet). */
  previewCorner(id: string, index: number, point: WirePoint): void {
    const wire = this.wire(id);
    if (!wire || !wire.points[index]) return;
    const base = this.preview?.id === id ? this.preview.points : wire.points;
    this.preview = { id, points: base.map((p, i) => (i === index ? point : p)) };
    this.sync();
  }

  /** Commits the preview (one command); false when nothing moved. */
  commitPreview(): boolean {
    const preview = this.preview;
    this.preview = null;
    const wire = preview ? this.wire(preview.id) : null;
    if (!preview || !wire || JSON.stringify(preview.points) === JSON.stringify(wire.points)) {
      this.sync();
      return false;
    }
    this.commit('wire.move', { ...wire, points: preview.points });
    return true;
  }

  /** Drops the preview (Esc during a drag). */
  cancelPreview(): void {
    if (!this.preview) return;
    this.preview = null;
    this.sync();
  }

  /** Where a free corner goes under a canvas pixel: on the view plane through it. */
  planePoint(id: string, index: number, x: number, y: number): WirePoint | null {
    const wire = this.wire(id);
    const p = wire?.points[index];
    if (!wire || !p) return null;
    const ray = this.host.rayAt(wire.jaw, x, y);
    const n = this.host.viewAxis(wire.jaw);
    if (!ray || !n) return null;
    // The plane through the corner facing the camera (normal: the viewing direction).
    const d = ray.direction;
    const dn = d[0] * n[0] + d[1] * n[1] + d[2] * n[2];
    if (Math.abs(dn) < 1e-9) return null;
    const t = ((p.point[0] - ray.origin[0]) * n[0] + (p.point[1] - ray.origin[1]) * n[1] + (p.point[2] - ray.origin[2]) * n[2]) / dn;
    return { point: [ray.origin[0] + t * d[0], ray.origin[1] + t * d[1], ray.origin[2] + t * d[2]] as unknown as WirePoint['point'] };
  }

  /** A corner kept off the surface under the pointer (a surface corner dragged). */
  surfacePoint(id: string, pick: SurfacePick): Promise<WirePoint> | null {
    const wire = this.wire(id);
    return wire ? this.kit.keepOff(wire.jaw, pick, wire) : null;
  }

  // ---------------------------------------------------------------- picking (screen space)

  /** The wire (and corner or segment) under a canvas pixel: handles of the selected wire first. */
  hitTest(x: number, y: number): WireHit | null {
    const doc = this.host.document();
    const wires = doc.wires ?? [];
    const selected = this.selected();
    if (selected && this.host.modelVisible(selected.jaw)) {
      let best: { corner: number; d: number } | null = null;
      this.cornersInModelFrame(selected.id).forEach((p, corner) => {
        const s = this.host.project(selected.jaw, p);
        const d = s ? Math.hypot(s.x - x, s.y - y) : Infinity;
        if (d <= HANDLE_PX && (!best || d < best.d)) best = { corner, d };
      });
      const found = best as { corner: number; d: number } | null;
      if (found) return { id: selected.id, corner: found.corner, segment: null };
    }
    let hit: (WireHit & { d: number }) | null = null;
    for (const w of wires) {
      if (!this.host.modelVisible(w.jaw)) continue;
      const screen = this.cornersInModelFrame(w.id).map((p) => this.host.project(w.jaw, p));
      for (let i = 0; i + 1 < screen.length; i++) {
        const a = screen[i], b = screen[i + 1];
        if (!a || !b) continue;
        const d = screenSegmentDistance({ x, y }, a, b);
        if (d <= WIRE_PICK_PX && (!hit || d < hit.d)) hit = { id: w.id, corner: null, segment: i, d };
      }
    }
    return hit ? { id: hit.id, corner: null, segment: hit.segment } : null;
  }

  /** What the pointer is over (the tool's hover); null: nothing. */
  setHover(hit: WireHit | null): void {
    const same = (a: WireHit | null, b: WireHit | null) => a?.id === b?.id && (a?.corner ?? null) === (b?.corner ?? null);
    if (same(hit, this.hover)) return;
    this.hover = hit;
    this.sync();
  }

  // ---------------------------------------------------------------- scene

  /** Makes the scene match the document (tubes, handles, issue marks) and queues the checks. */
  sync(): void {
    if (this.disposed) return;
    const doc = this.host.document();
    const wires = doc.wires ?? [];
    if (this.view.selectedId && !wires.some((w) => w.id === this.view.selectedId)) this.set({ selectedId: null, corner: null });
    const sel = this.selected();
    if (sel && this.view.corner !== null && this.view.corner >= sel.points.length) this.set({ corner: null });
    if (this.preview && !wires.some((w) => w.id === this.preview!.id)) this.preview = null;
    for (const [id, d] of this.drawn) {
      if (!wires.some((w) => w.id === id)) {
        for (const n of d.nodes) n.dispose();
        this.drawn.delete(id);
      }
    }
    for (const w of wires) {
      const points = this.preview?.id === w.id ? this.preview.points : w.points;
      this.checks.queueCheck(w, points);
      this.tagChecks.queueCheck(w, points);
      this.draw(w, points);
    }
  }

  private draw(w: WireDesign, points: WirePoint[]): void {
    const scene = this.host.scene();
    const parent = this.host.meshOf(w.jaw);
    const selected = w.id === this.view.selectedId;
    const marks = this.marks(w, points.length);
    const hover = this.hover?.id === w.id ? (this.hover.corner ?? -1) : null;
    const key = JSON.stringify([points.map((p) => p.point), w.diameter, selected, selected ? this.view.corner : null, marks, !!parent, hover]);
    const old = this.drawn.get(w.id);
    if (old?.key === key) return;
    for (const n of old?.nodes ?? []) n.dispose();
    this.drawn.delete(w.id);
    if (!scene || !parent) return;
    this.materials ??= new WireMaterials(scene);
    const m = this.materials;
    const corners = points.map((p) => p.point as Xyz);
    const nodes: Mesh[] = [];
    const tube = buildTube(scene, `wire-${w.id}`, corners, w.diameter);
    if (tube) {
      tube.material = selected ? m.selected : hover !== null ? m.hover : m.wire;
      tube.sideOrientation = Material.CounterClockWiseSideOrientation;
      tube.metadata = { wireId: w.id, radius: w.diameter / 2 };
      tube.parent = parent;
      nodes.push(tube);
    }
    const size = Math.max(0.5, w.diameter * 1.1);
    corners.forEach((c, i) => {
      const mark = marks[i];
      if (!selected && !mark) return;
      const dot = buildHandle(scene, `wire-${w.id}-corner-${i}`, c, mark ? size * 1.25 : size);
      dot.material = mark === 'error' ? m.issue : mark === 'warning' ? m.warning : selected && (i === this.view.corner || i === hover) ? m.activeHandle : m.handle;
      dot.metadata = { wireId: w.id, corner: i, mark: mark ?? null };
      dot.parent = parent;
      nodes.push(dot);
    });
    this.drawn.set(w.id, { key, nodes });
    this.host.requestRender();
  }

  /** A check's result arrived for a wire: the panel reads it again, its marks are redrawn. */
  private checked(id: string): void {
    this.set({ checks: this.view.checks + 1 });
    const w = this.host.document().wires?.find((x) => x.id === id);
    if (w) this.draw(w, this.preview?.id === id ? this.preview.points : w.points);
  }

  /** The corners the last checks found fault with: error or warning (a tag corner short of the base's margin too). */
  private marks(w: WireDesign, count: number): ('error' | 'warning' | undefined)[] {
    const out: ('error' | 'warning' | undefined)[] = new Array(count).fill(undefined);
    for (const tag of this.tags(w.id) ?? []) for (const c of tag.short ?? []) if (c < count) out[c] = 'warning';
    const result = this.check(w.id);
    if (!result) return out;
    for (const issue of result.issues) {
      for (const c of issueCorners(issue, result, count)) {
        if (c < 0 || c >= count) continue;
        if (issue.severity === 'error') out[c] = 'error';
        else out[c] ??= 'warning';
      }
    }
    return out;
  }

  /** The tube drawn for a wire (tests), or null. */
  tubeOf(id: string): Mesh | null {
    return this.drawn.get(id)?.nodes.find((n) => n.name === `wire-${id}`) ?? null;
  }

  /** The corner handles drawn for a wire (tests). */
  handlesOf(id: string): Mesh[] {
    return this.drawn.get(id)?.nodes.filter((n) => n.name.startsWith(`wire-${id}-corner-`)) ?? [];
  }

  dispose(): void {
    this.disposed = true;
    this.checks.dispose();
    this.tagChecks.dispose();
    this.unfollowBase();
    for (const d of this.drawn.values()) for (const n of d.nodes) n.dispose();
    this.drawn.clear();
    this.materials?.dispose();
    this.store.clear();
  }
}
