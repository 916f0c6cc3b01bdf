// The order's lifecycle as the editor drives it: its status, "Submit design" (the design's checks,
// stored with design/updateDRC for the saved version, then design/submit), "Reopen" (a submitted
// order back to design) and "Start from this design" (another order's document loaded into this
// one as an undoable change). Framework-free: the engine holds one (engine.order), openOrder
// attaches the open order, the header and the actions read its store.
import { FeatureStore } from '../engine/store.ts';
import { parseDocument, type DesignDocument, type WireDesign } from '../engine/document.ts';
import type { AutosaveState } from '../engine/autosave.ts';
import type { BendCheckResult } from '../../geometry/client.ts';
import { ORDER_STATUS, type OrderStatus } from '../../../common/orders.ts';

/** One finding of the design rule check (common/order-lifecycle.ts drcIssueSchema). */
export interface DrcIssue {
  code: string;
  severity: 'error' | 'warning';
  message?: string;
  wireId?: string;
}

/** The back-end calls the lifecycle makes (src/api/lifecycle.ts; a stand-in in tests). */
export interface LifecyclePort {
  updateDrc(body: { orderId: number; designVersion: number; passed: boolean; issues: DrcIssue[] }): Promise<unknown>;
  submit(orderId: number): Promise<unknown>;
  reopen(orderId: number): Promise<unknown>;
  /** The order's status now (after a change elsewhere: a machine finished). */
  status(orderId: number): Promise<OrderStatus | null>;
  /** Another order's saved design (getDesignData), or null. */
  design(orderId: number): Promise<{ data: unknown } | null>;
}

/** What the lifecycle needs of the open order's autosave. */
export interface SaveHandle {
  getState(): AutosaveState;
  readonly dirty: boolean;
  flush(force?: boolean): Promise<void>;
}

/** What the lifecycle needs of the editor. */
export interface LifecycleHost {
  document(): DesignDocument;
  /** Resolves when the wires' checks are current. */
  checksSettled(): Promise<void>;
  check(wireId: string): BendCheckResult | null;
  change(label: string, next: DesignDocument): void;
  /** A save must store the bite the jaws are shown in (the server's, when the document has none). */
  needsSave(): boolean;
}

export type SubmitOutcome =
  | { kind: 'submitted' }
  | { kind: 'failed-checks'; issues: DrcIssue[] }
  | { kind: 'no-wires' }
  | { kind: 'save-failed'; message: string }
  | { kind: 'error'; message: string };

export interface LifecycleView {
  orderId: number | null;
  status: OrderStatus | null;
  busy: 'submit' | 'reopen' | 'copy' | null;
  /** The last submit's or reopen's outcome, shown under the header until the next. */
  outcome: SubmitOutcome | { kind: 'reopened' } | { kind: 'copied'; caseNo: string } | null;
}

const IDLE: LifecycleView = { orderId: null, status: null, busy: null, outcome: null };

/** The design rule check of a document: every wire's live check (errors fail it, warnings are listed). */
export function designChecks(wires: readonly WireDesign[], check: (id: string) => BendCheckResult | null): { passed: boolean; issues: DrcIssue[] } {
  const issues: DrcIssue[] = [];
  for (const wire of wires) {
    const result = check(wire.id);
    if (!result) {
      issues.push({ code: 'WIRE_NOT_CHECKED', severity: 'error', message: 'The wire could not be checked', wireId: wire.id });
      continue;
    }
    for (const issue of result.issues) issues.push({ code: issue.code, severity: issue.severity, message: issue.message.slice(0, 500), wireId: wire.id });
  }
  return { passed: !issues.some((i) => i.severity === 'error'), issues: issues.slice(0, 200) };
}

export class OrderLifecycle extends FeatureStore<LifecycleView> {
  private port: LifecyclePort | null = null;
  private save: SaveHandle | null = null;

  constructor(private readonly host: LifecycleHost) {
    super(IDLE);
  }

  /** The open order (openOrder); detach() when it closes. */
  attach(orderId: number, status: OrderStatus | null, save: SaveHandle, port: LifecyclePort): void {
    this.port = port;
    this.save = save;
    this.set({ orderId, status, busy: null, outcome: null });
  }

  detach(): void {
    this.port = null;
    this.save = null;
    this.set(IDLE);
  }

  get attached(): boolean {
    return this.port !== null;
  }

  canSubmit(): boolean {
    const { status, busy } = this.getState();
    return this.attached && busy === null && status === ORDER_STATUS.design;
  }

  canReopen(): boolean {
    const { status, busy } = this.getState();
    return this.attached && busy === null && status === ORDER_STATUS.pending;
  }

  /** Saves (when dirty or never saved), checks, stores the check for that version, submits. */
  async submit(): Promise<SubmitOutcome> {
    const port = this.port;
    const save = this.save;
    const orderId = this.getState().orderId;
    if (!port || !save || orderId === null || !this.canSubmit()) return { kind: 'error', message: 'not open' };
    this.set({ busy: 'submit', outcome: null });
    const done = (outcome: SubmitOutcome): SubmitOutcome => {
      this.set({ busy: null, outcome });
      return outcome;
    };
    try {
      const wires = this.host.document().wires ?? [];
      if (wires.length === 0) return done({ kind: 'no-wires' });
      await this.host.checksSettled();
      const { passed, issues } = designChecks(wires, (id) => this.host.check(id));
      if (save.dirty || save.getState().version === 0 || this.host.needsSave()) await save.flush(true);
      const saved = save.getState();
      if (saved.status === 'failed' || saved.status === 'conflict' || saved.version === 0) return done({ kind: 'save-failed', message: saved.message ?? '' });
      await port.updateDrc({ orderId, designVersion: saved.version, passed, issues });
      if (!passed) return done({ kind: 'failed-checks', issues });
      await port.submit(orderId);
      this.set({ status: ORDER_STATUS.pending });
      return done({ kind: 'submitted' });
    } catch (e) {
      return done({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
    }
  }

  async reopen(): Promise<boolean> {
    const port = this.port;
    const orderId = this.getState().orderId;
    if (!port || orderId === null || !this.canReopen()) return false;
    this.set({ busy: 'reopen', outcome: null });
    try {
      await port.reopen(orderId);
      this.set({ busy: null, status: ORDER_STATUS.design, outcome: { kind: 'reopened' } });
      return true;
    } catch (e) {
      this.set({ busy: null, outcome: { kind: 'error', message: e instanceof Error ? e.message : String(e) } });
      return false;
    }
  }

  /** Asks the server for the status again (a machine may have finished). */
  async refreshStatus(): Promise<void> {
    const port = this.port;
    const orderId = this.getState().orderId;
    if (!port || orderId === null) return;
    const status = await port.status(orderId).catch(() => null);
    // A new status elsewhere (a machine finished): the last submit's message has had its day.
    if (status !== null && this.port === port && status !== this.getState().status) this.set({ status, outcome: null });
  }

  /**
   * Loads another order's saved design into this one as one undoable change ("start from this
   * design"); the autosave stores it. The bite stays this order's: the other design's transforms
   * are of other scans.
   */
  async startFrom(other: { id: number; caseNo: string }): Promise<boolean> {
    const port = this.port;
    if (!port || this.getState().busy !== null) return false;
    this.set({ busy: 'copy', outcome: null });
    try {
      const saved = await port.design(other.id);
      if (!saved) throw new Error('no design');
      const current = this.host.document();
      const { bite: _otherBite, ...copied } = parseDocument(saved.data);
      this.host.change('design.copy', current.bite ? { ...copied, bite: current.bite } : copied);
      this.set({ busy: null, outcome: { kind: 'copied', caseNo: other.caseNo } });
      return true;
    } catch (e) {
      this.set({ busy: null, outcome: { kind: 'error', message: e instanceof Error ? e.message : String(e) } });
      return false;
    }
  }
}
