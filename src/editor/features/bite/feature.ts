// The registered bite: where upper and lower sit relative to each other, as the occlusion (bite)
// scan shows them. The server registers it when an order's models are saved (a bite job); the
// editor reads the result (design/getOcclusalModelData), places the jaws with it, shows its
// quality, re-runs the registration in its own worker (registerBite), and lets the designer
// align a jaw by hand with point pairs (alignByPairs; the tool is tool.ts).
//
// The design document stores the transforms its coordinates assume (`bite`); when present they
// win. Without them the server's result is used, and written into the document on its next save
// (openOrder wraps the autosave's port with `withBite`).
import { FeatureStore } from '../../engine/store.ts';
import type { EditorContext } from '../../engine/context.ts';
import type { BiteDesign, DesignDocument, ModelRole } from '../../engine/document.ts';
import { cleanRigid, isRigidMatrix, type Xyz } from '../../engine/pose.ts';
import type { MeshHandle } from '../../../geometry/client.ts';
import type { BiteResult, Mat4 } from '../../../../common/bite.ts';
import type { OcclusalModelData } from '../../../../common/order-lifecycle.ts';

export type Jaw = 'upper' | 'lower';

/** One pair of the manual alignment: a point on a jaw (its model frame) and the same point on the bite scan (the bite frame). */
export interface PointPair {
  jaw: Jaw;
  jawPoint: Xyz;
  bitePoint: Xyz;
  /** The picked triangles (the markers drawn on the surfaces). */
  jawTriangle?: number;
  biteTriangle?: number;
}

/**
 * The calls of the bite kernel in the editor's worker (src/geometry/client.ts). Optional: a
 * worker without them (an older build, a test's stand-in) leaves re-running and aligning
 * disabled, with a message, instead of breaking the editor.
 */
export interface BiteGeometry {
  registerBite?(upper: MeshHandle, lower: MeshHandle, bite: MeshHandle, opts?: { signal?: AbortSignal; onProgress?: (fraction: number) => void }): Promise<BiteResult>;
  alignByPairs?(
    jaw: MeshHandle,
    bite: MeshHandle,
    pairs: { jaw: [number, number, number]; bite: [number, number, number] }[],
    initial?: Mat4,
  ): Promise<{ matrix: Mat4; rms: number; points: number }>;
}

/** The quality figures the panel shows: the server's result, a re-run's, or a manual alignment's. */
export interface BiteQuality {
  source: 'server' | 'rerun' | 'manual';
  rms: number | null;
  overlap: number | null;
  penetration: number | null;
  resolved: number | null;
  /** Why registration failed (the kernel's sentence), else null. */
  error: string | null;
  code: string | null;
}

export interface BiteView {
  /** getOcclusalModelData's answer; null before it came (or without an order). */
  server: OcclusalModelData | null;
  /** The call failed: its message. */
  loadError: string | null;
  /**
   * Why the server's registration gave no bite, when its result is not there to say it (the job
   * ended without storing one: the order's history keeps the reason).
   */
  failure: string | null;
  quality: BiteQuality | null;
  /** A re-run in the worker: its progress 0..1, or null. */
  running: number | null;
  /** A manual alignment in the worker. */
  aligning: boolean;
  /** Why the last re-run or alignment failed (a code the panel translates), else null. */
  problem: BiteProblem | null;
  /** The manual tool's pairs so far. */
  pairs: PointPair[];
}

export type BiteProblem = 'BITE_UNAVAILABLE' | 'BITE_NEEDS_MODELS' | 'BITE_NEEDS_PAIRS' | 'BITE_FAILED';

/** At least this many pairs on a jaw to align it. */
export const MIN_PAIRS = 3;

const INITIAL: BiteView = { server: null, loadError: null, failure: null, quality: null, running: null, aligning: false, problem: null, pairs: [] };

/** The server's registration, if it gave transforms (a failure's identities are not a bite). */
export function serverBite(server: OcclusalModelData | null): BiteDesign | null {
  const b = server?.bite;
  if (!b || b.error || b.code || !isRigidMatrix([...b.upper]) || !isRigidMatrix([...b.lower])) return null;
  return { upper: [...b.upper], lower: [...b.lower], source: b.source };
}

/** Whether a document's bite is the server's registration (written in when it arrived). */
export function isServerBite(bite: BiteDesign | undefined | null, server: OcclusalModelData | null): boolean {
  const s = serverBite(server);
  const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);
  return !!bite && !!s && bite.source === s.source && same(bite.upper, s.upper) && same(bite.lower, s.lower);
}

/** The bite the jaws are drawn in: the document's, else the server's, else none. */
export function effectiveBite(doc: DesignDocument, server: OcclusalModelData | null): BiteDesign | null {
  return doc.bite ?? serverBite(server);
}

/** The document as saved: with the server's bite written in when it has none of its own. */
export function withBite(doc: DesignDocument, server: OcclusalModelData | null): DesignDocument {
  if (doc.bite) return doc;
  const bite = serverBite(server);
  return bite ? { ...doc, bite } : doc;
}

/** The per-role transforms the model slots place meshes with (the scan is in the bite frame). */
export function placement(bite: BiteDesign | null): Partial<Record<ModelRole, number[]>> | null {
  return bite ? { upper: bite.upper, lower: bite.lower } : null;
}

export function qualityOf(result: Pick<BiteResult, 'rms' | 'overlap' | 'penetration' | 'resolved' | 'error' | 'code'>, source: BiteQuality['source']): BiteQuality {
  return {
    source,
    rms: Number.isFinite(result.rms) ? result.rms : null,
    overlap: Number.isFinite(result.overlap) ? result.overlap : null,
    penetration: Number.isFinite(result.penetration) ? result.penetration : null,
    resolved: result.resolved ?? null,
    error: result.error ?? null,
    code: result.code ?? null,
  };
}

/** The pairs of one jaw, as alignByPairs takes them. */
export function pairsOf(pairs: readonly PointPair[], jaw: Jaw): { jaw: [number, number, number]; bite: [number, number, number] }[] {
  return pairs.filter((p) => p.jaw === jaw).map((p) => ({ jaw: [p.jawPoint[0], p.jawPoint[1], p.jawPoint[2]], bite: [p.bitePoint[0], p.bitePoint[1], p.bitePoint[2]] }));
}

/** The jaws with enough pairs to align. */
export function alignableJaws(pairs: readonly PointPair[]): Jaw[] {
  return (['upper', 'lower'] as const).filter((jaw) => pairs.filter((p) => p.jaw === jaw).length >= MIN_PAIRS);
}

export class BiteFeature extends FeatureStore<BiteView> {
  private abort: AbortController | null = null;

  constructor(
    private readonly ctx: EditorContext,
    private readonly geometry: BiteGeometry,
  ) {
    super(INITIAL);
  }

  /** The server's registration arrived (or the order was left: null). */
  setServer(server: OcclusalModelData | null, loadError: string | null = null, failure: string | null = null): void {
    const b = server?.bite;
    const quality = this.getState().quality;
    // A re-run's or an alignment's figures stay until the server has something new to say.
    const keep = quality && quality.source !== 'server' && b?.updateTime === this.getState().server?.bite?.updateTime;
    this.set({ server, loadError, failure: b ? null : (server?.job?.error ?? failure), quality: keep ? quality : b ? qualityOf(b, 'server') : null, problem: null });
  }

  /** The bite the jaws are drawn in now. */
  effective(): BiteDesign | null {
    return effectiveBite(this.ctx.document(), this.getState().server);
  }

  /** The document as the autosave should store it (the server's bite written in). */
  forSave(doc: DesignDocument): DesignDocument {
    return withBite(doc, this.getState().server);
  }

  private handles(): { upper: MeshHandle; lower: MeshHandle; bite: MeshHandle } | null {
    const upper = this.ctx.handleOf('upper');
    const lower = this.ctx.handleOf('lower');
    const bite = this.ctx.handleOf('occlusion');
    return upper === null || lower === null || bite === null ? null : { upper, lower, bite };
  }

  canRerun(): boolean {
    return !!this.geometry.registerBite && this.handles() !== null && this.getState().running === null;
  }

  /** Registers the bite again in the editor's worker; a result with transforms becomes an undoable change of the document. */
  async rerun(): Promise<boolean> {
    const handles = this.handles();
    if (!this.geometry.registerBite) return this.fail('BITE_UNAVAILABLE');
    if (!handles) return this.fail('BITE_NEEDS_MODELS');
    if (this.getState().running !== null) return false;
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    this.set({ running: 0, problem: null });
    try {
      const result = await this.geometry.registerBite(handles.upper, handles.lower, handles.bite, {
        signal: abort.signal,
        onProgress: (f) => this.set({ running: f }),
      });
      if (abort.signal.aborted) return false;
      this.set({ running: null, quality: qualityOf(result, 'rerun') });
      if (result.error || result.code) return false;
      const doc = this.ctx.document();
      this.ctx.change('bite.auto', { ...doc, bite: { upper: cleanRigid(result.upper), lower: cleanRigid(result.lower), source: 'auto' } });
      return true;
    } catch (e) {
      if (abort.signal.aborted) return false;
      console.error('Bite registration failed', e);
      this.set({ running: null });
      return this.fail('BITE_FAILED');
    } finally {
      if (this.abort === abort) this.abort = null;
    }
  }

  // ---------------------------------------------------------------- manual alignment's pairs

  addPair(pair: PointPair): void {
    this.set({ pairs: [...this.getState().pairs, pair], problem: null });
  }

  removeLastPair(): void {
    this.set({ pairs: this.getState().pairs.slice(0, -1) });
  }

  clearPairs(): void {
    if (this.getState().pairs.length) this.set({ pairs: [] });
  }

  canAlign(): boolean {
    return !!this.geometry.alignByPairs && alignableJaws(this.getState().pairs).length > 0 && !this.getState().aligning && this.ctx.handleOf('occlusion') !== null;
  }

  /**
   * Aligns every jaw with at least MIN_PAIRS pairs (alignByPairs, starting from its current bite)
   * and applies the result as one undoable change; the pairs are then used up.
   */
  async align(): Promise<boolean> {
    const { pairs } = this.getState();
    const jaws = alignableJaws(pairs);
    const bite = this.ctx.handleOf('occlusion');
    if (!this.geometry.alignByPairs) return this.fail('BITE_UNAVAILABLE');
    if (jaws.length === 0) return this.fail('BITE_NEEDS_PAIRS');
    if (bite === null) return this.fail('BITE_NEEDS_MODELS');
    const current = this.effective();
    this.set({ aligning: true, problem: null });
    try {
      const next: BiteDesign = { upper: current?.upper ?? identity(), lower: current?.lower ?? identity(), source: 'manual' };
      let rms = 0;
      for (const jaw of jaws) {
        const handle = this.ctx.handleOf(jaw);
        if (handle === null) return this.fail('BITE_NEEDS_MODELS');
        const result = await this.geometry.alignByPairs(handle, bite, pairsOf(pairs, jaw), current?.[jaw]);
        next[jaw] = cleanRigid(result.matrix);
        rms = Math.max(rms, result.rms);
      }
      this.ctx.change('bite.manual', { ...this.ctx.document(), bite: next });
      this.set({
        pairs: pairs.filter((p) => !jaws.includes(p.jaw)),
        quality: { source: 'manual', rms, overlap: null, penetration: null, resolved: null, error: null, code: null },
      });
      return true;
    } catch (e) {
      console.error('Aligning the bite failed', e);
      return this.fail('BITE_FAILED');
    } finally {
      this.set({ aligning: false });
    }
  }

  private fail(problem: BiteProblem): false {
    this.set({ problem });
    return false;
  }

  dispose(): void {
    this.abort?.abort();
    this.clear();
  }
}

function identity(): number[] {
  return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
}
