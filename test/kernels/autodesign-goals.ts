// Shared by the automatic design's base tests: a designed base measured against the jaw's own
// labels (workers/design/autodesign-goals-base.ts), and what every automatic base must be.
import { expect } from 'vitest';
import { instantiateModule } from '../../workers/kernels/abi.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import type { AutodesignResult } from '../../workers/design/autodesign.ts';
import { AUTODESIGN_BASE_HEIGHT } from '../../workers/design/autodesign-base.ts';
import { measureDocumentBase, type BaseGoals } from '../../workers/design/autodesign-goals-base.ts';

export type Jaw = 'upper' | 'lower';
export interface LabelledModel { positions: Float32Array; indices: Uint32Array; labels: Uint8Array }

/** The jaw's base in the design's document, measured on the model; fails the test where there is none. */
export async function baseGoals(module: WebAssembly.Module, model: LabelledModel, r: AutodesignResult, jaw: Jaw): Promise<BaseGoals> {
  const g = await measureDocumentBase(meshFromArrays(instantiateModule(module), model.positions, model.indices), model.labels, r.document, jaw);
  expect(g, `${jaw} has a base`).not.toBeNull();
  return g!;
}

/** What every automatic base must be: closed, of the set height, on no occlusal surface. */
export function expectSound(g: BaseGoals, what: string): void {
  const msg = `${what}: ${JSON.stringify(g)}`;
  expect(g.closed, msg).toBe(true);
  expect(g.volume, msg).toBeGreaterThan(100);
  expect(g.minHeight, msg).toBeGreaterThanOrEqual(AUTODESIGN_BASE_HEIGHT - 1e-3);
  expect(g.occlusalVertices, msg).toBe(0);
}
