// What the autodesign suite measures on a designed order, against the specification's goals: the
// clasp tip's undercut below the height of contour (along the document's insertion direction, on
// the crown's survey), how near the wires come to the teeth (never inside), and the labial bow's
// gap to each incisor's labial surface at the middle third of its crown. Tooth labels: the
// fixtures' (study models) or the generator's, not the engine's own segmentation.
import { invertRigid, rotateVector } from '../../common/pose.ts';
import type { Xyz } from '../../common/teeth.ts';
import { modelToCanonical } from '../../src/editor/engine/document.ts';
import type { DesignDocument } from '../../src/editor/engine/document.ts';
import type { WireDesign } from '../../common/wires/types.ts';
import { instantiateModule } from '../../workers/kernels/abi.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { crownPatches, surveyTooth } from '../../workers/kernels/teeth-landmarks.ts';
import { tipUndercut } from '../../workers/design/clasp-tip.ts';
import { kernelSurface } from '../../workers/design/surface.ts';
import type { AutodesignDocument } from '../../workers/design/autodesign.ts';

export interface WireFigures {
  id: string;
  type: WireDesign['type'];
  /** Least gap (mm) between the wire's surface and the model outside its tags (negative: inside). */
  minGap: number;
  /** Single-arm clasp: undercut (mm) under the tip. */
  tipUndercut?: number;
  /** Labial bow: per incisor (Universal), the gap (mm) to its labial surface at the middle third. */
  incisorGaps?: Record<number, number>;
}

const INCISORS = { upper: [7, 8, 9, 10], lower: [23, 24, 25, 26] } as const;

/** Points every ~0.25 mm along the wire's segments, outside its tags (the tags lie in the base). */
function armSamples(w: WireDesign): Xyz[] {
  const tags = w.tags ?? (w.tag ? [w.tag] : []);
  const inTag = (i: number): boolean => tags.some(([a, b]) => i >= a && i < b);
  const out: Xyz[] = [];
  for (let i = 0; i + 1 < w.points.length; i++) {
    if (inTag(i)) continue;
    const a = w.points[i]!.point, b = w.points[i + 1]!.point;
    const n = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]) / 0.25));
    for (let k = 0; k <= n; k++) out.push([a[0] + ((b[0] - a[0]) * k) / n, a[1] + ((b[1] - a[1]) * k) / n, a[2] + ((b[2] - a[2]) * k) / n]);
  }
  return out;
}

/** The figures of every wire of `jaw` in `doc`, on the jaw's mesh and labels. */
export async function measureJaw(
  module: WebAssembly.Module,
  doc: AutodesignDocument,
  jaw: 'upper' | 'lower',
  mesh: { positions: Float32Array; indices: Uint32Array },
  labels: Uint8Array,
  /** The clasped tooth (Universal) of each clasp, by wire id (the report's first tooth). */
  toothOf: ReadonlyMap<string, number>,
): Promise<WireFigures[]> {
  const wires = doc.wires.filter((w) => w.jaw === jaw);
  if (!wires.length) return [];
  const k = instantiateModule(module);
  const surface = kernelSurface(meshFromArrays(k, mesh.positions, mesh.indices));
  const toCanonical = modelToCanonical(doc as unknown as DesignDocument, jaw);
  const inverse = invertRigid(toCanonical);
  const d = doc.insertionDirections[jaw] ?? (jaw === 'upper' ? [0, 0, -1] : [0, 0, 1]);
  const dModel = rotateVector(inverse, d);
  const crowns = crownPatches(mesh, labels, { matrix: toCanonical, inverse }, jaw);
  const out: WireFigures[] = [];
  for (const w of wires) {
    const samples = armSamples(w);
    const hits = await surface.closest(new Float32Array(samples.flat()));
    let minGap = Infinity;
    samples.forEach((p, i) => (minGap = Math.min(minGap, Math.hypot(p[0] - hits.point[3 * i]!, p[1] - hits.point[3 * i + 1]!, p[2] - hits.point[3 * i + 2]!) - w.diameter / 2)));
    const f: WireFigures = { id: w.id, type: w.type, minGap };
    if (w.type === 'singleArmClasp') {
      const crown = crowns.find((c) => c.number === toothOf.get(w.id));
      f.tipUndercut = crown ? await tipUndercut(w, surveyTooth(crown, dModel as Xyz), surface) : 0;
    }
    if (w.type === 'labialBow') {
      f.incisorGaps = {};
      for (const c of crowns.filter((x) => (INCISORS[jaw] as readonly number[]).includes(x.number))) {
        // the crown's middle third along the insertion direction, its labial half
        let lo = Infinity, hi = -Infinity;
        const h = (i: number): number => c.positions[3 * i]! * dModel[0] + c.positions[3 * i + 1]! * dModel[1] + c.positions[3 * i + 2]! * dModel[2];
        for (let i = 0; i < c.vertices.length; i++) { lo = Math.min(lo, h(i)); hi = Math.max(hi, h(i)); }
        let gap = Infinity;
        for (let i = 0; i < c.vertices.length; i++) {
          const t = (h(i) - lo) / (hi - lo || 1);
          if (t < 1 / 3 || t > 2 / 3) continue;
          const p: Xyz = [c.positions[3 * i]!, c.positions[3 * i + 1]!, c.positions[3 * i + 2]!];
          if ((p[0] - c.centroid[0]) * c.buccal[0] + (p[1] - c.centroid[1]) * c.buccal[1] + (p[2] - c.centroid[2]) * c.buccal[2] <= 0) continue;
          for (const s of samples) gap = Math.min(gap, Math.hypot(s[0] - p[0], s[1] - p[1], s[2] - p[2]) - w.diameter / 2);
        }
        f.incisorGaps[c.number] = gap;
      }
    }
    out.push(f);
  }
  return out;
}

