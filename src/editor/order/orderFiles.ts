// The open order's files that the editor writes: the generated denture base stored as the order's
// STL (design/saveDentureBase, after every generation by the designer) and the versions of the jaw
// models (design/modifyModel, design/modelVersions: "Keep as new model version" after smoothing,
// "Restore" of an earlier one). Framework-free: the engine holds both (engine.baseFile,
// engine.modelVersions), openOrder attaches the open order with its port, the panels read the stores.
import { FeatureStore } from '../engine/store.ts';
import type { DesignDocument } from '../engine/document.ts';
import type { ModelSource } from '../engine/modelSource.ts';
import type { OrderModelVersion } from '../../../common/order-lifecycle.ts';

export type Jaw = 'upper' | 'lower';

/** A failed call's sentence (the server's own for a refusal). */
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

// ------------------------------------------------------------------ the denture base on the server

/** The back-end call of the base's storage (src/api/lifecycle.ts; a stand-in in tests). */
export interface BaseStoragePort {
  saveBase(orderId: number, stl: Uint8Array): Promise<{ baseFileId: number; url: string }>;
}

export interface StoredFile {
  id: number;
  url: string;
  name: string;
}

export interface BaseStorageView {
  orderId: number | null;
  /** none: nothing stored by this session (file may still be an earlier one); storing; stored; failed (error says why). */
  status: 'none' | 'storing' | 'stored' | 'failed';
  /** The base stored on the server (the order info's baseFile, then each store's), or null. */
  file: StoredFile | null;
  error: string | null;
}

const NO_BASE: BaseStorageView = { orderId: null, status: 'none', file: null, error: null };

export class BaseStorage extends FeatureStore<BaseStorageView> {
  private port: BaseStoragePort | null = null;
  private caseNo = '';
  private attempt = 0;

  /** `exportBase`: the shown bases as one STL (one shell per jaw, slots cut), or null without any. */
  constructor(private readonly exportBase: () => Promise<Uint8Array | null>) {
    super(NO_BASE);
  }

  attach(order: { id: number; caseNo: string; baseFile?: StoredFile | null }, port: BaseStoragePort): void {
    this.port = port;
    this.caseNo = order.caseNo;
    this.attempt++;
    this.set({ orderId: order.id, status: 'none', file: order.baseFile ?? null, error: null });
  }

  detach(): void {
    this.port = null;
    this.attempt++;
    this.set(NO_BASE);
  }

  get attached(): boolean {
    return this.port !== null;
  }

  /**
   * Stores the shown base as the order's STL (replacing the previous one). Called after every
   * generation by the designer, and by "Store again". Never touches the local base: a failure is
   * shown and the base stays in the editor.
   */
  async store(): Promise<boolean> {
    const port = this.port;
    const orderId = this.getState().orderId;
    if (!port || orderId === null) return false;
    const attempt = ++this.attempt;
    this.set({ status: 'storing', error: null });
    try {
      const stl = await this.exportBase();
      if (attempt !== this.attempt) return false;
      if (!stl) {
        this.set({ status: 'none' });
        return false;
      }
      const saved = await port.saveBase(orderId, stl);
      if (attempt !== this.attempt) return false;
      this.set({ status: 'stored', file: { id: saved.baseFileId, url: saved.url, name: `base-${this.caseNo || orderId}.stl` }, error: null });
      return true;
    } catch (e) {
      if (attempt === this.attempt) this.set({ status: 'failed', error: messageOf(e) });
      return false;
    }
  }
}

// ------------------------------------------------------------------ the jaws' model versions

/** The back-end calls of the model versions (src/api/lifecycle.ts, the order form's upload; stand-ins in tests). */
export interface ModelVersionPort {
  /** Uploads an STL as a model space file (POST /admin/base/comm/upload, kind model). */
  upload(stl: Uint8Array, name: string): Promise<{ id: number }>;
  modify(body: { orderId: number; jaw: Jaw; fileId?: number; restoreVersion?: number; note?: 'smoothed' | 'straightened' | 'edited' }): Promise<{ versions: OrderModelVersion[] }>;
  versions(orderId: number): Promise<OrderModelVersion[]>;
  /** Where a version's file is downloaded from (the worker, with the token). */
  source(version: OrderModelVersion): ModelSource;
}

/** What the model versions need of the editor. */
export interface ModelVersionHost {
  document(): DesignDocument;
  /** Resolves when the smoothing queued in the worker is done. */
  smoothingSettled(): Promise<void>;
  /** The jaw's mesh as the worker holds it (its smoothing applied), as STL; null without the jaw. */
  exportJaw(jaw: Jaw): Promise<Uint8Array | null>;
  /** Replaces the document without a command: the undo history starts over. */
  loadDocument(doc: DesignDocument): void;
  /** Loads the jaw again from `source`. */
  reloadJaw(jaw: Jaw, name: string, source: ModelSource): Promise<void>;
  /** The order's models changed on the server (a bite job may have started): read its status again. */
  modelsChanged(): void;
}

export interface ModelVersionsView {
  orderId: number | null;
  versions: OrderModelVersion[];
  loaded: boolean;
  busy: { jaw: Jaw; kind: 'keep' | 'restore' } | null;
  /** The last keep's or restore's failure, per jaw. */
  error: { jaw: Jaw; message: string } | null;
  /** The last keep's or restore's success, per jaw (the version now active). */
  done: { jaw: Jaw; kind: 'keep' | 'restore'; version: number } | null;
}

const NO_VERSIONS: ModelVersionsView = { orderId: null, versions: [], loaded: false, busy: null, error: null, done: null };

/** The document without the smoothing of one jaw (what a kept or restored version replaces). */
export function withoutSmoothing(doc: DesignDocument, jaw: Jaw): DesignDocument {
  const next = { ...doc };
  const left = (doc.smoothing ?? []).filter((op) => op.model !== jaw);
  if (left.length) next.smoothing = left;
  else delete next.smoothing;
  return next;
}

export class ModelVersions extends FeatureStore<ModelVersionsView> {
  private port: ModelVersionPort | null = null;
  private caseNo = '';
  private generation = 0;

  constructor(private readonly host: ModelVersionHost) {
    super(NO_VERSIONS);
  }

  attach(order: { id: number; caseNo: string }, port: ModelVersionPort): void {
    this.port = port;
    this.caseNo = order.caseNo;
    this.generation++;
    this.set({ ...NO_VERSIONS, orderId: order.id });
    void this.refresh();
  }

  detach(): void {
    this.port = null;
    this.generation++;
    this.set(NO_VERSIONS);
  }

  get attached(): boolean {
    return this.port !== null;
  }

  /** The jaw's versions, oldest first. */
  of(jaw: Jaw): OrderModelVersion[] {
    return this.getState().versions.filter((v) => v.jaw === jaw);
  }

  /** Whether the jaw carries smoothing that a new version would keep. */
  canKeep(jaw: Jaw): boolean {
    return this.attached && this.getState().busy === null && (this.host.document().smoothing ?? []).some((op) => op.model === jaw);
  }

  async refresh(): Promise<void> {
    const port = this.port;
    const orderId = this.getState().orderId;
    if (!port || orderId === null) return;
    const generation = this.generation;
    try {
      const versions = await port.versions(orderId);
      if (generation === this.generation) this.set({ versions, loaded: true });
    } catch (e) {
      if (generation === this.generation) this.set({ loaded: true, error: null });
      console.error('Reading the model versions failed', e);
    }
  }

  /**
   * "Keep as new model version": the jaw as smoothed (the worker's mesh, in the scan's frame) is
   * uploaded and becomes the jaw's model (modifyModel, note 'smoothed'); the jaw's smoothing
   * leaves the document (the file has it now) and the undo history starts over. The mesh shown
   * is already that file's, so nothing is reloaded.
   */
  async keep(jaw: Jaw): Promise<boolean> {
    const port = this.port;
    const orderId = this.getState().orderId;
    if (!port || orderId === null || !this.canKeep(jaw)) return false;
    const generation = this.generation;
    this.set({ busy: { jaw, kind: 'keep' }, error: null, done: null });
    try {
      await this.host.smoothingSettled();
      const stl = await this.host.exportJaw(jaw);
      if (!stl) throw new Error('no model');
      const file = await port.upload(stl, `${this.caseNo || orderId}-${jaw}-smoothed.stl`);
      const reply = await port.modify({ orderId, jaw, fileId: file.id, note: 'smoothed' });
      if (generation !== this.generation) return false;
      this.host.loadDocument(withoutSmoothing(this.host.document(), jaw));
      const active = reply.versions.find((v) => v.jaw === jaw && v.active);
      this.set({ versions: reply.versions, busy: null, done: { jaw, kind: 'keep', version: active?.version ?? 0 } });
      this.host.modelsChanged();
      return true;
    } catch (e) {
      if (generation === this.generation) this.set({ busy: null, error: { jaw, message: messageOf(e) } });
      return false;
    }
  }

  /**
   * "Restore": the version becomes the jaw's model again (modifyModel restoreVersion) and the jaw
   * is loaded from its file. The jaw's smoothing in the document (made on the version it leaves)
   * is dropped and the undo history starts over.
   */
  async restore(jaw: Jaw, version: number): Promise<boolean> {
    const port = this.port;
    const orderId = this.getState().orderId;
    if (!port || orderId === null || this.getState().busy !== null) return false;
    const generation = this.generation;
    this.set({ busy: { jaw, kind: 'restore' }, error: null, done: null });
    try {
      const reply = await port.modify({ orderId, jaw, restoreVersion: version });
      if (generation !== this.generation) return false;
      const target = reply.versions.find((v) => v.jaw === jaw && v.version === version);
      this.set({ versions: reply.versions });
      this.host.loadDocument(withoutSmoothing(this.host.document(), jaw));
      if (target) await this.host.reloadJaw(jaw, target.name ?? `${jaw}.stl`, port.source(target));
      if (generation !== this.generation) return false;
      this.set({ busy: null, done: { jaw, kind: 'restore', version } });
      this.host.modelsChanged();
      return true;
    } catch (e) {
      if (generation === this.generation) this.set({ busy: null, error: { jaw, message: messageOf(e) } });
      return false;
    }
  }
}
