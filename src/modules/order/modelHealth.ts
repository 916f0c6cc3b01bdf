/**
 * Judging a model's health, as the upload answers it (server/modules/space/stl-check.ts), for the
 * order form's warning. Open edges alone are normal: an intraoral scan is an open surface whose
 * outer rim is one loop of open edges. What is worth a warning:
 *
 * - degenerate triangles (zero area or a repeated corner): the export or a repair went wrong;
 * - non-manifold edges (three or more triangles on one edge) and flipped edges (two triangles
 *   running an edge the same way): the surface folds or is stitched wrongly, and the editor's
 *   smoothing, base and offset tools need a proper surface;
 * - holes: loops of open edges beyond the one outer rim (a closed model has none, an open scan
 *   one), i.e. gaps in the scan;
 * - more than one shell: loose fragments beside the jaw (scan debris), or two models in one file.
 *
 * The warning never blocks: the user may keep the file.
 */
import { plural, t } from '@lingui/core/macro';
import type { StlHealth } from '../../../workers/kernels/stl-health.ts';

/** The `health` of an STL upload's reply. */
export type ModelHealth = StlHealth;

export interface HealthIssues {
  degenerateTriangles: number;
  nonManifoldEdges: number;
  flippedEdges: number;
  /** Loops of open edges beyond a scan's outer rim. */
  holes: number;
  /** Open edges, reported with the holes. */
  openEdges: number;
  shells: number;
}

/** What is worth a warning, or null for a healthy model (or one without a report). */
export function healthIssues(h: ModelHealth | null | undefined): HealthIssues | null {
  if (!h) return null;
  const issues: HealthIssues = {
    degenerateTriangles: h.degenerateTriangles,
    nonManifoldEdges: h.nonManifoldEdges,
    flippedEdges: h.flippedEdges,
    holes: Math.max(0, h.boundaryLoops - 1),
    openEdges: h.openEdges,
    shells: h.shells,
  };
  const bad = issues.degenerateTriangles > 0 || issues.nonManifoldEdges > 0 || issues.flippedEdges > 0 || issues.holes > 0 || issues.shells > 1;
  return bad ? issues : null;
}

/** The warning in the active language, e.g. "The model has 3 holes (120 open edges) and 3 shells: check the scan." */
export function healthWarning(issues: HealthIssues, locale: string): string {
  const n = (v: number) => new Intl.NumberFormat(locale).format(v);
  const parts: string[] = [];
  if (issues.holes > 0) {
    const edges = n(issues.openEdges);
    parts.push(plural(issues.holes, { one: `# hole (${edges} open edges)`, other: `# holes (${edges} open edges)` }));
  }
  if (issues.shells > 1) parts.push(plural(issues.shells, { one: '# shell', other: '# shells' }));
  if (issues.nonManifoldEdges > 0) parts.push(plural(issues.nonManifoldEdges, { one: '# non-manifold edge', other: '# non-manifold edges' }));
  if (issues.flippedEdges > 0) parts.push(plural(issues.flippedEdges, { one: '# flipped edge', other: '# flipped edges' }));
  if (issues.degenerateTriangles > 0) parts.push(plural(issues.degenerateTriangles, { one: '# degenerate triangle', other: '# degenerate triangles' }));
  const list = new Intl.ListFormat(locale, { type: 'conjunction' }).format(parts);
  return t`The model has ${list}: check the scan.`;
}
