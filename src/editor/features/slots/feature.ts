// Slotting: the channel for a wire's tag (the part of a labial bow or clasp held in
// the acrylic) cut into the generated base by manifold-3d in the slot worker.
//
// Each jaw's shown base is a function of the document: the base as generated, minus the
// document's slots of that jaw's wires in order (a wire is slotted into its own jaw's base). So a cut is a plain document change (one command adding a SlotDesign), and
// undo, redo, reset and reopening need no code of their own: after every document change and
// every base (re)generation, sync() finds the longest chain of results it already has for the
// document's slots (the base's arrays, then after each slot), cuts what is missing, and shows
// the result (the mesh in the scene and the one kept in the geometry worker, for the export
// and the thickness map: the context's generatedBase.replace). Results are kept per jaw and chain
// position, so undo and redo only swap meshes; a new base of a jaw (other outline, settings,
// straightening) starts that jaw's chain over.
//
// A user's cut is computed before the document changes: a refusal or a failed cut leaves the
// design as it was. A slot whose wire was deleted (or can no longer be slotted) is skipped, not
// removed: undoing the deletion brings the slot back with it.
import type { MeshHandle } from '../../../geometry/client.ts';
import { isAbortError } from '../../../geometry/errors.ts';
import { SLOTTABLE_WIRE_TYPES, type SlotBase, type SlotCallOptions, type SlotResult, type SlotWire } from '../../../geometry/slotClient.ts';
import type { BaseMeshArrays } from '../base/feature.ts';
import { insertionInModelFrame } from '../base/rules.ts';
import { JAWS, type DesignDocument, type Jaw, type SlotDesign, type WireDesign } from '../../engine/document.ts';
import { mm } from '../../engine/units.ts';
import type { EditorContext } from '../../engine/context.ts';
import { FeatureStore } from '../../engine/store.ts';
import { slotPaths } from '../../../../common/wires/slot-paths.ts';

/** What the feature needs of the slot worker (getSlotClient(), or the kernel in process in tests). */
export interface SlotPort {
  cutSlot(base: SlotBase | null, wire: SlotWire, options?: SlotCallOptions): Promise<SlotResult>;
}

/** What it needs of the geometry worker: keeping the shown base under a handle. */
export interface SlotGeometry {
  createMesh(positions: Float32Array, indices: Uint32Array, normals?: Float32Array): Promise<MeshHandle>;
  release(handle: MeshHandle): Promise<boolean>;
}

/**
 * Why a cut was refused or failed, in the order the rules are checked. NO_BASE, SLOT_WIRE_TYPE,
 * SLOT_BASE_NOT_MANIFOLD and SLOTTING_FAILED are the worker's codes (slot-messages.ts).
 */
export type SlotProblemCode = 'NO_BASE' | 'NO_WIRE' | 'SLOT_WIRE_TYPE' | 'NO_TAG' | 'WRONG_JAW' | 'SLOT_BASE_NOT_MANIFOLD' | 'SLOTTING_FAILED';

export interface SlotProblem {
  code: SlotProblemCode;
  /** The worker's reason (English, for SLOTTING_FAILED). */
  detail?: string;
}

export interface SlotView {
  /** cutting: the user's cut; applying: the document's slots being cut into a new base. */
  status: 'idle' | 'cutting' | 'applying';
  /** 0..1 while cutting. */
  progress: number | null;
  /** The last refusal or failure, until the next attempt. */
  problem: SlotProblem | null;
  /** Slots of the document in the shown base. */
  applied: number;
  /** Slots of the document left out: their wire is gone or cannot be slotted, or the cut failed. */
  skipped: number;
  /** Settings of the next cut: 0 a closed tunnel, > 0 a channel this deep (mm). */
  depth: number;
  /** Added to the wire's radius all round (mm). */
  clearance: number;
}

export const DEFAULT_SLOT_DEPTH = 0;
export const DEFAULT_SLOT_CLEARANCE = 0.1;
export const MAX_SLOT_DEPTH = 20;
export const MAX_SLOT_CLEARANCE = 1;

/** One slot of the document as it will be cut (one path per tag): `key` changes whenever its cut would. */
interface Planned {
  key: string;
  wires: SlotWire[];
}

/** What a chain is being brought to: its plan's keys. */
const targetOf = (plan: Planned[]): string => plan.map((p) => p.key).join('\n');

/** The base after the first n slots of a plan (entries[0]: as generated). */
interface Entry extends BaseMeshArrays {
  key: string;
  /** The cut failed (re-application): the arrays are the previous entry's. */
  failed?: SlotProblem;
}

/** The first rule the wire breaks for being slotted into its jaw's base in `doc`, or null. */
function wireProblem(doc: DesignDocument, wire: WireDesign): SlotProblem | null {
  if (!SLOTTABLE_WIRE_TYPES.includes(wire.type)) return { code: 'SLOT_WIRE_TYPE' };
  if (slotPaths(wire).length === 0) return { code: 'NO_TAG' };
  if (!doc.bases?.[wire.jaw]) return { code: 'WRONG_JAW' };
  return null;
}

function planSlot(doc: DesignDocument, slot: SlotDesign, jaw: Jaw): Planned | null {
  const wire = doc.wires?.find((w) => w.id === slot.wireId);
  if (!wire || wire.jaw !== jaw || wireProblem(doc, wire)) return null;
  const paths = slotPaths(wire);
  const openDirection = insertionInModelFrame(doc, jaw);
  const wires = paths.map((path): SlotWire => ({ type: wire.type, path, diameter: wire.diameter, clearance: slot.clearance, depth: slot.depth, openDirection }));
  return { key: JSON.stringify([slot.wireId, wire.type, wire.diameter, slot.clearance, slot.depth, paths.map((p) => Array.from(p)), openDirection]), wires };
}

/** The slots of a jaw's base, in the document's order; a slot whose wire is gone or cannot be slotted is left out. */
function planOf(doc: DesignDocument, jaw: Jaw): Planned[] {
  return (doc.slots ?? []).map((s) => planSlot(doc, s, jaw)).filter((p): p is Planned => p !== null);
}

/** Slots of the document in neither jaw's plan. */
function unplanned(doc: DesignDocument): number {
  return (doc.slots ?? []).filter((s) => JAWS.every((jaw) => planSlot(doc, s, jaw) === null)).length;
}

function problemOf(e: unknown): SlotProblem {
  const code = (e as { code?: unknown } | null)?.code;
  const detail = e instanceof Error ? ((e as { detail?: string }).detail ?? e.message) : String(e);
  if (code === 'SLOT_BASE_NOT_MANIFOLD' || code === 'NO_BASE' || code === 'SLOT_WIRE_TYPE') return { code };
  return { code: 'SLOTTING_FAILED', detail };
}

const aborted = (e: unknown): boolean => isAbortError(e) || (e as { code?: unknown } | null)?.code === 'ABORTED';

class Stale extends Error {
  override name = 'AbortError';
}

/** One jaw's base and its slots: the cached results, the one shown, and the work for it. */
interface Chain {
  /** Results for the jaw's current base: [as generated, after slot 1, ...]; empty without a base. */
  entries: Entry[];
  /** The entry shown (entries[0] is what the base feature shows after a generation); null: none. */
  shown: Entry | null;
  /** Bumped by every new or dropped base of the jaw: work for an older base is thrown away. */
  epoch: number;
  pumpJob: { abort: AbortController; target: string } | null;
  /** Slots applied and failed in the shown base. */
  applied: number;
  failed: number;
}

const newChain = (): Chain => ({ entries: [], shown: null, epoch: 0, pumpJob: null, applied: 0, failed: 0 });

export class SlotFeature {
  private readonly store = new FeatureStore<SlotView>({
    status: 'idle',
    progress: null,
    problem: null,
    applied: 0,
    skipped: 0,
    depth: DEFAULT_SLOT_DEPTH,
    clearance: DEFAULT_SLOT_CLEARANCE,
  });
  readonly onChanged = this.store.onChanged;
  readonly getState = this.store.getState;
  readonly subscribe = this.store.subscribe;
  private get state(): SlotView {
    return this.store.getState();
  }
  private readonly chains: Record<Jaw, Chain> = { upper: newChain(), lower: newChain() };
  private lock: Promise<unknown> = Promise.resolve();
  private dirty = false;
  private pumping: Promise<void> | null = null;
  private userJob: AbortController | null = null;
  /** The jaw of the user's cut (a new base of the other jaw leaves it be). */
  private userJaw: Jaw | null = null;
  private disposed = false;
  private readonly geometry: Partial<SlotGeometry>;
  /** Stops hearing of new bases (disposed). */
  private readonly unfollowBase: () => void;

  constructor(
    private readonly host: EditorContext,
    private readonly port: () => SlotPort,
  ) {
    this.geometry = host.geometry;
    this.unfollowBase = host.generatedBase.onGenerated((jaw, arrays) => this.baseChanged(jaw, arrays));
    // An export right after a reopening or an undo waits for the slots to be in the base.
    host.generatedBase.holdExport(() => this.settled());
  }

  get view(): SlotView {
    return this.state;
  }

  private set(patch: Partial<SlotView>): void {
    this.store.set(patch);
  }

  /** Depth and clearance of the next cut (clamped to what the slot kernel accepts). */
  setSettings(patch: Partial<Pick<SlotView, 'depth' | 'clearance'>>): void {
    const clamp = (v: number | undefined, max: number, d: number): number => (v === undefined || !Number.isFinite(v) ? d : Math.min(max, Math.max(0, v)));
    this.set({ depth: clamp(patch.depth, MAX_SLOT_DEPTH, this.state.depth), clearance: clamp(patch.clearance, MAX_SLOT_CLEARANCE, this.state.clearance) });
  }

  /** Shows a refusal found elsewhere, or clears it. */
  report(problem: SlotProblem | null): void {
    this.set({ problem });
  }

  /**
   * Cuts the slot for a wire's tag (default: the selected wire) into its jaw's base: the rules in
   * order, then the slot worker; on success one command adds the slot to the document (a wire
   * slotted again gets its new slot in place of the old). Resolves true when the slot is shown.
   */
  async cut(wireId?: string): Promise<boolean> {
    if (this.state.status === 'cutting') return false;
    await this.host.generatedBase.settled();
    await this.settled();
    const doc = this.host.document();
    const id = wireId ?? this.host.state().wires.selectedId;
    const wire = id ? doc.wires?.find((w) => w.id === id) : undefined;
    // A base shown: the wire's jaw's when there is a wire, else either.
    const shownBase = (jaw: Jaw): boolean => !!doc.bases?.[jaw]?.generated && this.host.state().baseMeshes[jaw] !== null && this.chains[jaw].entries.length > 0;
    const problem: SlotProblem | null = !JAWS.some(shownBase)
      ? { code: 'NO_BASE' }
      : !wire
        ? { code: 'NO_WIRE' }
        : (wireProblem(doc, wire) ?? (shownBase(wire.jaw) ? null : { code: 'NO_BASE' }));
    if (problem || !wire) {
      this.set({ problem: problem ?? { code: 'NO_WIRE' } });
      return false;
    }
    const chain = this.chains[wire.jaw];
    const slot: SlotDesign = { wireId: wire.id, depth: mm(this.state.depth), clearance: mm(this.state.clearance) };
    const next: DesignDocument = { ...doc, slots: [...(doc.slots ?? []).filter((s) => s.wireId !== wire.id), slot] };
    const plan = planOf(next, wire.jaw);
    const abort = new AbortController();
    this.userJob = abort;
    this.userJaw = wire.jaw;
    this.set({ status: 'cutting', progress: 0, problem: null });
    try {
      await this.exclusive(() => this.advance(chain, plan, abort.signal, (f) => this.userJob === abort && this.set({ progress: f }), true));
    } catch (e) {
      if (this.userJob === abort) this.userJob = null;
      const cancelled = aborted(e);
      // The slot kernel's own refusals are the user's to fix; anything else is a defect.
      if (!cancelled && !['SLOTTING_FAILED', 'SLOT_BASE_NOT_MANIFOLD', 'NO_BASE', 'SLOT_WIRE_TYPE'].includes(String((e as { code?: unknown }).code))) console.error('Slotting failed', e);
      this.set({ status: 'idle', progress: null, problem: cancelled ? null : problemOf(e) });
      return false;
    }
    this.userJob = null;
    this.set({ status: 'idle', progress: null });
    // The design changed meanwhile (an undo during the cut): the result waits in the cache.
    if (this.host.document() !== doc) return false;
    this.host.change('slot.cut', next);
    await this.settled();
    return chain.shown !== null && chain.shown === chain.entries[plan.length];
  }

  /** Removes every slot (one undoable command): the base as generated comes back. */
  reset(): void {
    const doc = this.host.document();
    if (!doc.slots?.length) return;
    const next = { ...doc };
    delete next.slots;
    this.set({ problem: null });
    this.host.change('slot.reset', next);
  }

  /** Stops the user's cut under way. */
  cancel(): void {
    this.userJob?.abort();
  }

  /** Resolves when the shown base matches the document (tests, reopening). */
  async settled(): Promise<void> {
    while (this.pumping) await this.pumping;
  }

  /** Makes the shown bases match the document's slots (after every document change). */
  sync(): void {
    if (this.disposed) return;
    const doc = this.host.document();
    for (const jaw of JAWS) {
      const job = this.chains[jaw].pumpJob;
      if (job && job.target !== targetOf(planOf(doc, jaw))) job.abort.abort();
    }
    this.dirty = true;
    if (this.pumping) return;
    this.pumping = this.pump().finally(() => {
      this.pumping = null;
    });
    this.host.track(this.pumping);
  }

  private baseChanged(jaw: Jaw, arrays: BaseMeshArrays | null): void {
    const chain = this.chains[jaw];
    chain.epoch++;
    chain.pumpJob?.abort.abort();
    if (this.userJaw === jaw) this.userJob?.abort();
    chain.entries = arrays ? [{ ...arrays, key: '' }] : [];
    chain.shown = chain.entries[0] ?? null;
    if (!arrays) {
      chain.applied = 0;
      chain.failed = 0;
      this.set({ applied: this.chains.upper.applied + this.chains.lower.applied });
    }
    this.sync();
  }

  private async pump(): Promise<void> {
    while (this.dirty && !this.disposed) {
      this.dirty = false;
      for (const jaw of JAWS) await this.pumpJaw(jaw);
    }
  }

  /** Brings one jaw's shown base to the document's slots of its wires. */
  private async pumpJaw(jaw: Jaw): Promise<void> {
    const chain = this.chains[jaw];
    if (chain.entries.length === 0) return;
    const doc = this.host.document();
    const planned = planOf(doc, jaw);
    const abort = new AbortController();
    chain.pumpJob = { abort, target: targetOf(planned) };
    const missing = planned.length - this.commonPrefix(chain, planned);
    if (missing > 0 && this.state.status === 'idle') this.set({ status: 'applying' });
    try {
      await this.exclusive(async () => {
        await this.advance(chain, planned, abort.signal);
        await this.show(jaw, planned.length, abort.signal);
      });
      const failed = chain.entries.slice(1, planned.length + 1).filter((e) => e.failed);
      chain.applied = planned.length - failed.length;
      chain.failed = failed.length;
      const other = this.chains[jaw === 'upper' ? 'lower' : 'upper'];
      this.set({
        applied: chain.applied + other.applied,
        skipped: unplanned(doc) + chain.failed + other.failed,
        ...(failed.length > 0 ? { problem: failed[0]!.failed! } : {}),
      });
    } catch (e) {
      if (!aborted(e)) console.error('Slotting failed', e);
    } finally {
      if (chain.pumpJob?.abort === abort) chain.pumpJob = null;
      if (this.state.status === 'applying') this.set({ status: 'idle' });
    }
  }

  /** Runs `work` after the work already queued (one cut or swap at a time). */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lock.then(work, work);
    this.lock = run.catch(() => {});
    return run;
  }

  private commonPrefix(chain: Chain, plan: Planned[]): number {
    let n = 0;
    while (n < plan.length && n + 1 < chain.entries.length && chain.entries[n + 1]!.key === plan[n]!.key) n++;
    return n;
  }

  /**
   * Cuts the slots of `plan` the cache lacks, in order. A re-applied slot that fails is kept as
   * failed (the base without it); with `strict` the plan's last slot (the user's) throws instead.
   */
  private async advance(chain: Chain, plan: Planned[], signal: AbortSignal, onProgress?: (f: number) => void, strict = false): Promise<void> {
    const epoch = chain.epoch;
    const check = (): void => {
      if (this.disposed || signal.aborted || epoch !== chain.epoch) throw new Stale('superseded');
    };
    check();
    if (chain.entries.length === 0) throw Object.assign(new Error('no base'), { code: 'NO_BASE' });
    const p = this.commonPrefix(chain, plan);
    if (p < plan.length && chain.entries.length > p + 1) {
      // The cache goes another way from here: drop its tail (never the entry shown... unless
      // it is in that tail, and then the next show replaces it anyway).
      chain.entries.length = p + 1;
    }
    for (let i = p; i < plan.length; i++) {
      const from = chain.entries[i]!;
      const step = plan[i]!;
      const last = i === plan.length - 1;
      let entry: Entry;
      try {
        // One cut per tag (a bow has two), each on the result of the one before.
        let base: BaseMeshArrays = from;
        for (const [k, wire] of step.wires.entries()) {
          const n = step.wires.length;
          const progress = onProgress && last ? (f: number) => onProgress((k + f) / n) : undefined;
          const r = await this.port().cutSlot({ positions: base.positions, indices: base.indices }, wire, { signal, onProgress: progress });
          check();
          base = { positions: r.positions, normals: r.normals, indices: r.indices, triangles: r.triangleCount, volume: r.volumeAfter };
        }
        entry = { ...base, key: step.key };
      } catch (e) {
        check();
        if (aborted(e)) throw e;
        if (strict && last) throw e;
        entry = { ...from, key: step.key, failed: problemOf(e) };
      }
      check();
      chain.entries.push(entry);
    }
  }

  /** Shows a jaw's entries[index]: the scene's mesh and the worker's copy. */
  private async show(jaw: Jaw, index: number, signal: AbortSignal): Promise<void> {
    const chain = this.chains[jaw];
    const entry = chain.entries[index];
    if (!entry || entry === chain.shown || !this.geometry.createMesh) return;
    const epoch = chain.epoch;
    const handle = await this.geometry.createMesh(entry.positions, entry.indices, entry.normals);
    if (this.disposed || signal.aborted || epoch !== chain.epoch) {
      void this.geometry.release?.(handle);
      throw new Stale('superseded');
    }
    if (!this.host.generatedBase.replace(jaw, handle, entry)) throw new Stale('no base');
    chain.shown = entry;
  }

  dispose(): void {
    this.disposed = true;
    this.unfollowBase();
    for (const jaw of JAWS) {
      this.chains[jaw].pumpJob?.abort.abort();
      this.chains[jaw].entries = [];
    }
    this.userJob?.abort();
    this.store.clear();
  }
}
