// Autosave: every design change (the document's revision moves) is saved to the back end after a
// short quiet time, one save at a time, each based on the version the last one returned, so the
// server can refuse a save from a stale tab (design/save's baseVersion). Framework-free; the
// status bar shows `status`.
import { Observable } from '@babylonjs/core/Misc/observable';
import type { DesignDocument } from './document.ts';

export interface DesignPort {
  save(data: DesignDocument, baseVersion: number): Promise<{ version: number }>;
  /** The version stored now (0: none); tells a refused save based on an old version from other failures. */
  storedVersion?(): Promise<number>;
}

/** 'conflict': the design was saved elsewhere since this one was opened; saving stops (reload). */
export type SaveStatus = 'idle' | 'pending' | 'saving' | 'saved' | 'failed' | 'conflict';

export interface AutosaveState {
  status: SaveStatus;
  /** The server's version of the document (0: never saved). */
  version: number;
  /** Why the last save failed (the server's message). */
  message: string | null;
  /** When the last save succeeded (ms since the epoch). */
  savedAt: number | null;
}

export interface DocumentSource {
  getState(): { document: DesignDocument; revision: number };
  /** Called on every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

export class Autosave {
  readonly onChanged = new Observable<AutosaveState>();
  private state: AutosaveState;
  private savedRevision: number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inFlight: Promise<void> | null = null;
  private disposed = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly source: DocumentSource,
    private readonly port: DesignPort,
    version: number,
    private readonly delayMs = 800,
  ) {
    this.state = { status: version > 0 ? 'saved' : 'idle', version, message: null, savedAt: null };
    this.savedRevision = source.getState().revision;
    this.unsubscribe = source.subscribe(() => this.changed());
  }

  getState = (): AutosaveState => this.state;

  /** For useEngineStore (the status line). */
  subscribe = (listener: () => void): (() => void) => {
    const observer = this.onChanged.add(() => listener());
    return () => this.onChanged.remove(observer);
  };

  private set(patch: Partial<AutosaveState>): void {
    this.state = { ...this.state, ...patch };
    this.onChanged.notifyObservers(this.state);
  }

  private changed(): void {
    if (this.disposed || this.state.status === 'conflict' || this.source.getState().revision === this.savedRevision) return;
    if (this.state.status !== 'saving' && this.state.status !== 'pending') this.set({ status: 'pending' });
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), this.delayMs);
  }

  /** Saves now if anything changed, or (`force`) even if not: a version to refer to (and waits for a save under way). */
  async flush(force = false): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.inFlight) await this.inFlight;
    const { document, revision } = this.source.getState();
    if (this.disposed || this.state.status === 'conflict' || (revision === this.savedRevision && !force)) return;
    this.set({ status: 'saving' });
    this.inFlight = this.port.save(document, this.state.version).then(
      ({ version }) => {
        this.savedRevision = revision;
        const dirty = this.source.getState().revision !== revision;
        this.set({ status: dirty ? 'pending' : 'saved', version, message: null, savedAt: Date.now() });
        if (dirty) this.changed();
      },
      async (e: unknown) => {
        const message = e instanceof Error ? e.message : String(e);
        const stored = await this.port.storedVersion?.().catch(() => null);
        const conflict = typeof stored === 'number' && stored !== this.state.version;
        this.set({ status: conflict ? 'conflict' : 'failed', message });
      },
    );
    try {
      await this.inFlight;
    } finally {
      this.inFlight = null;
    }
  }

  /**
   * Stops watching and saves what is unsaved at this moment (a snapshot: the engine may be
   * showing another order's design by the time an earlier save returns).
   */
  async close(): Promise<void> {
    if (this.disposed) return;
    const { document, revision } = this.source.getState();
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.unsubscribe();
    while (this.inFlight) await this.inFlight;
    if (revision !== this.savedRevision && this.state.status !== 'conflict') {
      await this.port.save(document, this.state.version).catch(() => {});
    }
    this.onChanged.clear();
  }

  /** Whether a change is not saved yet (the page warns before leaving). */
  get dirty(): boolean {
    return this.source.getState().revision !== this.savedRevision;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.unsubscribe();
    this.onChanged.clear();
  }
}
