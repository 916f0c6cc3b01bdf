// engine.wires' geometry (WireKit) over the worker: surface.ts for keeping corners off the
// teeth, templates.ts for placing a wire on clicked teeth, fit.ts for the clasp's auto-fit.
import type { MeshHandle } from '../../../geometry/client.ts';
import { modelToCanonical, type DesignDocument, type SurfacePick, type WireDesign, type WirePoint, type WireType } from '../../engine/document.ts';
import { IDENTITY, type Xyz } from '../../engine/pose.ts';
import type { WireFrame } from '../../../../common/wires/local.ts';
import type { WireKit } from './feature.ts';
import type { Shaped } from './edits.ts';
import type { WireGeometry } from './checks.ts';
import { keepOff, surfaceQuery, xyzAt, type SurfaceGeometry, type SurfaceQuery } from '../../../../common/wires/surface.ts';
import { placeTemplate, TEMPLATE_CLICKS } from '../../../../common/wires/templates.ts';
import { autoFit } from '../../../../common/wires/fit.ts';
import { anchorsOnTeeth } from '../../../../common/wires/tooth-anchors.ts';

export type WireKitGeometry = SurfaceGeometry & WireGeometry;

export interface WireKitHost {
  handleOf(jaw: 'upper' | 'lower'): MeshHandle | null;
  document(): DesignDocument;
}

export function wireKit(geometry: WireKitGeometry, host: WireKitHost): WireKit {
  const surfaceOf = (jaw: 'upper' | 'lower'): SurfaceQuery => {
    const handle = host.handleOf(jaw);
    if (handle === null) throw new Error(`the ${jaw} jaw is not loaded`);
    return surfaceQuery(geometry, handle);
  };
  const offsetOf = (o: { diameter: number; clearance: number }): number => o.diameter / 2 + o.clearance;
  return {
    clicks: (type: WireType) => TEMPLATE_CLICKS[type],
    async place(jaw, type, anchors, opts) {
      const placed = await placeTemplate(type, anchors, frameOf(host.document(), jaw), surfaceOf(jaw), opts);
      return { points: placed.points, tag: placed.tag, tags: placed.tags };
    },
    onTeeth: (jaw, type, numbers, teeth) => anchorsOnTeeth(type, numbers, teeth, frameOf(host.document(), jaw), surfaceOf(jaw)),
    async keepOff(jaw, pick, opts) {
      const [p] = await keepOff([{ point: pick.point, surface: pick }], offsetOf(opts), surfaceOf(jaw));
      return p!;
    },
    async nearest(jaw, p: Xyz): Promise<SurfacePick | null> {
      const hits = await surfaceOf(jaw).closest(Float32Array.from(p));
      return hits.triangle[0]! >= 0 ? { point: xyzAt(hits.point, 0), triangle: hits.triangle[0]! } : null;
    },
    async autoFit(wire: WireDesign): Promise<Shaped> {
      const fitted = await autoFit(wire, frameOf(host.document(), wire.jaw), surfaceOf(wire.jaw));
      return { points: fitted.points, tag: fitted.tag };
    },
  };
}

/** The wire's working frame: the straightening (identity before it) and the jaw. */
function frameOf(doc: DesignDocument, jaw: 'upper' | 'lower'): WireFrame {
  return { matrix: modelToCanonical(doc, jaw), jaw };
}
