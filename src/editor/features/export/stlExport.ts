// `engine.stlExport`: the "Export STL" dialog's state and the export itself, framework-free. The
// designer picks what goes out (the bases, the wires as solid tubes, the models) and whether all go
// into one file or one file each. Everything is exported as shown straightened (the straightening
// and the registered bite applied; not the opened bite's offset), each part a closed, outward mesh:
// the bases and the models as the worker keeps them, the wires as closed tubes of their diameter
// (wires/tube.ts wireSolid). The STL bytes are written by the worker's writer.
import { mergeBinaryStl } from '../../../geometry/stlMerge.ts';
import type { Jaw, ModelRole, WireDesign } from '../../engine/document.ts';
import { FeatureStore } from '../../engine/store.ts';
import type { Xyz } from '../../engine/pose.ts';
import { wireSolid } from '../wires/tube.ts';

export interface StlExportChoice {
  bases: boolean;
  wires: boolean;
  models: boolean;
  /** true: one file with every part (a shell each); false: one file per part. */
  together: boolean;
}

export interface StlFile {
  name: string;
  bytes: Uint8Array;
}

export interface StlExportState {
  open: boolean;
  busy: boolean;
  /** The last export's failure (its message), until the next attempt. */
  error: string | null;
  /** What the last export made (names), for the dialog and tests. */
  made: string[];
}

export interface StlExportHost {
  /** Jaws with a shown base. */
  jawsWithBase(): Jaw[];
  /** A jaw's base as STL, moved by `matrix`; null without one. */
  baseStl(jaw: Jaw, matrix: number[]): Promise<Uint8Array | null>;
  /** Loaded models, by role. */
  modelRoles(): ModelRole[];
  modelStl(role: ModelRole, matrix: number[]): Promise<Uint8Array | null>;
  wires(): readonly WireDesign[];
  meshStl(positions: Float32Array, indices: Uint32Array, header: string, matrix: number[]): Promise<Uint8Array>;
  /** Model frame → the export's frame (straightened, bite registered) of a role. */
  matrixOf(role: ModelRole): number[];
}

const INITIAL: StlExportState = { open: false, busy: false, error: null, made: [] };

export class StlExportController {
  readonly store = new FeatureStore<StlExportState>(INITIAL);

  constructor(private readonly host: StlExportHost) {}

  getState = (): StlExportState => this.store.getState();

  open(): void {
    this.store.set({ open: true, error: null });
  }

  close(): void {
    if (!this.store.getState().busy) this.store.set({ open: false });
  }

  /** What there is to export now. */
  available(): { bases: number; wires: number; models: number } {
    return { bases: this.host.jawsWithBase().length, wires: this.host.wires().length, models: this.host.modelRoles().length };
  }

  /** The files of a choice (one per part, or one merged). */
  async files(choice: StlExportChoice): Promise<StlFile[]> {
    const parts: StlFile[] = [];
    if (choice.bases) {
      for (const jaw of this.host.jawsWithBase()) {
        const bytes = await this.host.baseStl(jaw, this.host.matrixOf(jaw));
        if (bytes) parts.push({ name: `base-${jaw}.stl`, bytes });
      }
    }
    if (choice.wires) {
      for (const [i, w] of this.host.wires().entries()) {
        const solid = wireSolid(w.points.map((p) => p.point as Xyz), w.diameter);
        if (!solid) continue;
        const bytes = await this.host.meshStl(solid.positions, solid.indices, `Archwright wire ${i + 1}`, this.host.matrixOf(w.jaw));
        parts.push({ name: `wire-${i + 1}-${w.type}-${w.jaw}.stl`, bytes });
      }
    }
    if (choice.models) {
      for (const role of this.host.modelRoles()) {
        const bytes = await this.host.modelStl(role, this.host.matrixOf(role));
        if (bytes) parts.push({ name: `model-${role}.stl`, bytes });
      }
    }
    if (!choice.together || parts.length <= 1) return parts;
    return [{ name: 'design.stl', bytes: mergeBinaryStl(parts.map((p) => ({ name: p.name.replace(/\.stl$/, ''), bytes: p.bytes })), 'design') }];
  }

  /** Exports a choice and hands each file to `save` (the page downloads it). */
  async run(choice: StlExportChoice, save: (file: StlFile) => void): Promise<void> {
    if (this.store.getState().busy) return;
    this.store.set({ busy: true, error: null });
    try {
      const files = await this.files(choice);
      for (const f of files) save(f);
      this.store.set({ busy: false, made: files.map((f) => f.name), open: files.length === 0 });
    } catch (err) {
      this.store.set({ busy: false, error: err instanceof Error ? err.message : String(err) });
    }
  }

  dispose(): void {
    this.store.clear();
  }
}
