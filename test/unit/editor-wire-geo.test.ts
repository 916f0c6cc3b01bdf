// Wire geometry (common/wires/surface.ts, templates.ts, fit.ts) on the generated jaws
// of test/fixtures/jaw.ts through the real geometry worker: corners kept off the teeth, templates
// shaped like appliances that the bending program accepts, auto-fit of the single-arm clasp.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mm } from '../../src/editor/engine/units.ts';
import type { SurfacePick, WireDesign, WirePoint, WireType } from '../../src/editor/engine/document.ts';
import { keepOff, offsetPoints, surfaceQuery, type SurfaceQuery } from '../../common/wires/surface.ts';
import { headlessEditor, openJaws, type Headless } from './editor-harness.ts';
import { jawMesh, rigidMatrix, toothOnArch, transformPositions } from '../fixtures/jaw.ts';
import { placeTemplate, TEMPLATE_CLICKS, type PlacedWire } from '../../common/wires/templates.ts';
import { autoFit } from '../../common/wires/fit.ts';
import { invertRigid, rotateVector, transformPoint, type Xyz } from '../../src/editor/engine/pose.ts';

/** A point (model frame) as the document stores it. */
const xyz = (x: number, y: number, z: number): Xyz => [x, y, z];

/** Distance of each point from the surface, through the surface's own closest-point query. */
async function surfaceDistances(points: Float32Array, surface: SurfaceQuery): Promise<Float32Array> {
  const hits = await surface.closest(points);
  const out = new Float32Array(points.length / 3);
  for (let i = 0; i < out.length; i++) {
    const o = i * 3;
    out[i] = hits.triangle[i]! < 0 ? Infinity : Math.hypot(points[o]! - hits.point[o]!, points[o + 1]! - hits.point[o + 1]!, points[o + 2]! - hits.point[o + 2]!);
  }
  return out;
}

/** Centre and outward direction of tooth n (0: the right last molar .. 13: the left one) of jawMesh() (canonical lower frame). */
function tooth(n: number): { x: number; y: number; out: [number, number] } {
  const c = toothOnArch(n);
  return { x: c.x, y: c.y, out: [c.ty, -c.tx] };
}

let h: Headless;
let lower: SurfaceQuery;
let upper: SurfaceQuery;

beforeAll(async () => {
  h = await headlessEditor();
  await openJaws(h.editor);
  lower = surfaceQuery(h.geometry, h.editor.handleOf('lower')!);
  upper = surfaceQuery(h.geometry, h.editor.handleOf('upper')!);
});
afterAll(() => h?.dispose());

describe('surface queries and keeping off the surface', () => {
  it('finds the closest point with the outward normal of the tooth', async () => {
    const t = tooth(0);
    // 3 mm outside the buccal face of the right last molar, 4 mm below the cusp tips.
    const p = new Float32Array([t.x + t.out[0] * 8, t.y + t.out[1] * 8, -4]);
    const r = await lower.closest(p);
    expect(r.triangle[0]).toBeGreaterThanOrEqual(0);
    const n = [r.normal[0]!, r.normal[1]!, r.normal[2]!];
    expect(Math.hypot(n[0]!, n[1]!, n[2]!)).toBeCloseTo(1, 4);
    // Outward: along the buccal direction, and towards the query point.
    expect(n[0]! * t.out[0] + n[1]! * t.out[1]).toBeGreaterThan(0.8);
    const toQuery = [p[0]! - r.point[0]!, p[1]! - r.point[1]!, p[2]! - r.point[2]!];
    expect(toQuery[0]! * n[0]! + toQuery[1]! * n[1]! + toQuery[2]! * n[2]!).toBeGreaterThan(0);
  });

  it('keeps corners with a surface pick off the surface by the offset, on both jaws, and leaves free corners', async () => {
    const t = tooth(4);
    const offset = 0.5;
    const points: WirePoint[] = [
      // Outside, inside the tooth, and on the surface: all end 0.5 mm off.
      { point: xyz(t.x + t.out[0] * 6, t.y + t.out[1] * 6, -3), surface: { point: xyz(0, 0, 0), triangle: 0 } },
      { point: xyz(t.x + t.out[0] * 2, t.y + t.out[1] * 2, -3), surface: { point: xyz(0, 0, 0), triangle: 0 } },
      { point: xyz(t.x, t.y, 6) },
    ];
    const kept = await keepOff(points, offset, lower);
    const d = await surfaceDistances(new Float32Array(kept.slice(0, 2).flatMap((p) => [...p.point])), lower);
    for (const v of d) expect(v).toBeCloseTo(offset, 2);
    expect(kept[0]!.surface!.triangle).toBeGreaterThanOrEqual(0);
    expect(kept[2]).toEqual(points[2]);
    // The upper jaw is the lower one turned over (x and z mirrored, 0.5 mm up).
    const up = await offsetPoints(new Float32Array([-(t.x + t.out[0] * 6), t.y + t.out[1] * 6, 3.5]), offset, upper);
    expect((await surfaceDistances(up.point, upper))[0]).toBeCloseTo(offset, 2);
  });
});

// ---------------------------------------------------------------- templates

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const WIRE = { diameter: 0.8, clearance: 0.1 };
const OFFSET = WIRE.diameter / 2 + WIRE.clearance;

/** A click on the buccal face of tooth n (or between teeth n and n + 1 with `between`), `below` mm under the cusp tips; mirrored for the upper jaw. */
async function clickTooth(jaw: 'upper' | 'lower', n: number, below = 4, between = false): Promise<SurfacePick> {
  const a = tooth(n);
  const b = between ? tooth(n + 1) : a;
  const c = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  const out = [(a.out[0] + b.out[0]) / 2, (a.out[1] + b.out[1]) / 2];
  const mirror = jaw === 'upper' ? -1 : 1;
  const origin: [number, number, number] = [mirror * (c.x + out[0]! * 15), c.y + out[1]! * 15, jaw === 'upper' ? below + 0.5 : -below];
  const hit = await h.geometry.pick(h.editor.handleOf(jaw)!, origin, [-mirror * out[0]!, -out[1]!, 0]);
  if (!hit) throw new Error(`no tooth ${n} there`);
  return { point: xyz(hit.point[0], hit.point[1], hit.point[2]), triangle: hit.triangle };
}

const ANCHORS: Record<WireType, () => Promise<[number, boolean][]>> = {
  singleArmClasp: async () => [[1, false]],
  arrowClasp: async () => [[2, true]],
  labialBow: async () => [[4, false], [9, false]],
  wraparoundBow: async () => [[0, false], [13, false]],
};

async function place(type: WireType, jaw: 'upper' | 'lower'): Promise<PlacedWire> {
  const anchors: SurfacePick[] = [];
  for (const [n, between] of await ANCHORS[type]()) anchors.push(await clickTooth(jaw, n, 4, between));
  expect(anchors).toHaveLength(TEMPLATE_CLICKS[type]);
  return placeTemplate(type, anchors, { matrix: IDENTITY, jaw }, jaw === 'upper' ? upper : lower, WIRE);
}

/** Signed distance of each point from the surface (negative inside a tooth). */
async function signedDistances(points: number[][], surface: SurfaceQuery): Promise<number[]> {
  const r = await surface.closest(new Float32Array(points.flat()));
  return points.map((p, i) => {
    const d = [p[0]! - r.point[i * 3]!, p[1]! - r.point[i * 3 + 1]!, p[2]! - r.point[i * 3 + 2]!];
    const l = Math.hypot(d[0]!, d[1]!, d[2]!);
    return d[0]! * r.normal[i * 3]! + d[1]! * r.normal[i * 3 + 1]! + d[2]! * r.normal[i * 3 + 2]! < 0 ? -l : l;
  });
}

/** A model point of either generated jaw in the lower jaw's canonical frame (the upper one is turned over and 0.5 mm up). */
const canonical = (jaw: 'upper' | 'lower', p: readonly number[]): [number, number, number] => (jaw === 'upper' ? [-p[0]!, p[1]!, 0.5 - p[2]!] : [p[0]!, p[1]!, p[2]!]);

/** How far a canonical point lies outside (buccal, > 0) or inside (lingual, < 0) the arch of tooth centres, at the nearest tooth. */
function buccalOf(p: readonly number[]): number {
  let best = Infinity, side = 0;
  for (let n = 0; n < 14; n++) {
    const t = tooth(n);
    const d = Math.hypot(p[0]! - t.x, p[1]! - t.y);
    if (d < best) {
      best = d;
      side = (p[0]! - t.x) * t.out[0] + (p[1]! - t.y) * t.out[1];
    }
  }
  return side;
}

describe('templates on the generated jaws', () => {
  for (const jaw of ['lower', 'upper'] as const) {
    for (const type of ['singleArmClasp', 'arrowClasp', 'labialBow', 'wraparoundBow'] as const) {
      it(`${type} on the ${jaw} jaw: corners kept off, tags lingual in the base, bendable`, async () => {
        const surface = jaw === 'upper' ? upper : lower;
        const wire = await place(type, jaw);
        const pts = wire.points.map((p) => [...p.point] as [number, number, number]);
        const check = await h.geometry.bendCheck({ points: pts, wire: { type, diameter: WIRE.diameter }, program: { radius: 1 }, skipCollision: true });
        expect(check.issues.filter((i) => i.severity === 'error')).toEqual([]);
        // The machine's collision sweep too, against the default head: the wraparound bow, bent
        // from one end, swings its nearly finished arch about 55 mm behind the die, short of the body.
        const full = await h.geometry.bendCheck({ points: pts, wire: { type, diameter: WIRE.diameter }, program: { radius: 1 } });
        expect(full.issues).toEqual([]);
        // No warnings either: the first straight of a wraparound bow is short, no turn is over 160°.
        expect(check.issues).toEqual([]);

        // Every corner on the surface sits the wire's radius plus its clearance off it, at its pick.
        const on = wire.points.filter((p) => p.surface);
        expect(on.length).toBeGreaterThanOrEqual(4);
        const d = await signedDistances(on.map((p) => [...p.point]), surface);
        for (const v of d) expect(Math.abs(v - OFFSET)).toBeLessThan(0.05);
        for (const p of on) {
          const s = p.surface!.point;
          expect(Math.hypot(p.point[0] - s[0], p.point[1] - s[1], p.point[2] - s[2])).toBeCloseTo(OFFSET, 1);
        }

        // No straight between corners enters a tooth.
        const isTag = (i: number) => wire.tags.some(([a, b]) => i >= a && i <= b);
        const samples: number[][] = [];
        for (let i = 0; i + 1 < pts.length; i++) {
          if (isTag(i) && isTag(i + 1)) continue;
          for (const f of [0.25, 0.5, 0.75]) samples.push(pts[i]!.map((v, a) => v + (pts[i + 1]![a]! - v) * f));
        }
        for (const v of await signedDistances(samples, surface)) expect(v).toBeGreaterThan(WIRE.diameter / 2 - 0.01);

        // The tags: at the ends, in the base (lingual of the arch, below the crowns, inside a 2.5 mm base), the first one reported.
        expect(wire.tag).toEqual(wire.tags[0]);
        expect(wire.tags.length).toBe(type === 'labialBow' || type === 'wraparoundBow' ? 2 : 1);
        expect(wire.tags.some(([a]) => a === 0) || wire.tags.some(([, b]) => b === pts.length - 1)).toBe(true);
        const tagPts = wire.tags.flatMap(([a, b]) => pts.slice(a, b + 1));
        for (const p of tagPts) {
          expect(wire.points[pts.indexOf(p)]!.surface).toBeUndefined();
          const c = canonical(jaw, p);
          expect(buccalOf(c)).toBeLessThan(0);
          expect(c[2]).toBeLessThan(-3);
        }
        for (const v of await signedDistances(tagPts, surface)) {
          expect(v).toBeGreaterThan(WIRE.diameter / 2);
          expect(v).toBeLessThan(2.5);
        }

        // The part on the teeth is where the type says.
        const onC = on.map((p) => canonical(jaw, p.point));
        if (type === 'singleArmClasp') {
          // A C round the buccal of the first molar (tooth 1), crossing to the lingual.
          const buccal = onC.filter((c) => buccalOf(c) > 2);
          expect(buccal.length).toBeGreaterThanOrEqual(3);
          expect(Math.max(...onC.map((c) => c[2]))).toBeGreaterThan(-2.5);
        }
        if (type === 'labialBow' || type === 'wraparoundBow') {
          // Across the front: labial of the central incisors at the midline.
          const front = onC.filter((c) => Math.abs(c[0]) < 6);
          expect(front.length).toBeGreaterThanOrEqual(1);
          for (const c of front) expect(buccalOf(c)).toBeGreaterThan(1);
        }
      });
    }
  }
});

describe('templates for a larger bending die', () => {
  it('leave room for a 1.5 mm die when the device has one', async () => {
    for (const type of ['singleArmClasp', 'arrowClasp', 'labialBow', 'wraparoundBow'] as const) {
      const anchors: SurfacePick[] = [];
      for (const [n, between] of await ANCHORS[type]()) anchors.push(await clickTooth('lower', n, 4, between));
      const wire = await placeTemplate(type, anchors, { matrix: IDENTITY, jaw: 'lower' }, lower, { ...WIRE, dieRadius: 1.5 });
      const check = await h.geometry.bendCheck({ points: wire.points.map((p) => [...p.point] as [number, number, number]), wire: { type, diameter: WIRE.diameter }, program: { radius: 1.5 }, skipCollision: true });
      expect(check.issues).toEqual([]);
    }
  });
});

describe('templates on a straightened model', () => {
  it('a jaw scanned tilted and straightened gets the same wire, in its own frame', async () => {
    // The lower jaw as scanned 14° off and shifted; the straightening (model → canonical) undoes it.
    const jaw = jawMesh({ detail: 0.5 });
    const tilt = Array.from(rigidMatrix([1, 0.4, 0.2], 14, [3, -2, 6]));
    const handle = await h.geometry.createMesh(transformPositions(jaw.positions, tilt), jaw.indices);
    try {
      const tilted = surfaceQuery(h.geometry, handle);
      const straight = invertRigid(tilt);
      for (const type of ['singleArmClasp', 'arrowClasp', 'labialBow', 'wraparoundBow'] as const) {
        const clicks = await Promise.all((await ANCHORS[type]()).map(([n, between]) => clickTooth('lower', n, 4, between)));
        const reference = await placeTemplate(type, clicks, { matrix: IDENTITY, jaw: 'lower' }, lower, WIRE);
        const moved = clicks.map((c) => ({ point: transformPoint(tilt, c.point), triangle: c.triangle }));
        const wire = await placeTemplate(type, moved, { matrix: straight, jaw: 'lower' }, tilted, WIRE);
        // Back in the canonical frame it is the reference wire: the same to float noise, except
        // that the labial bow's canines sit where the generated crowns meet in sharp creases, and
        // there noise can move a probe by one step (half a millimetre at most; a wrong frame is
        // off by centimetres).
        const back = wire.points.map((p) => ({ point: transformPoint(straight, p.point) }));
        const tol = type === 'labialBow' ? 0.6 : 0.01;
        expect(polylineGap(back, reference.points)).toBeLessThan(tol);
        expect(polylineGap(reference.points, back)).toBeLessThan(tol);
        expect(wire.tag).toEqual(reference.tag);
      }
    } finally {
      await h.geometry.release(handle);
    }
  });
});

// ---------------------------------------------------------------- auto-fit

/** The largest distance from a corner of `a` to the centreline of `b`. */
function polylineGap(a: readonly WirePoint[], b: readonly WirePoint[]): number {
  let worst = 0;
  for (const p of a) {
    let best = Infinity;
    for (let i = 0; i + 1 < b.length; i++) {
      const s = b[i]!.point, e = b[i + 1]!.point;
      const d = [e[0] - s[0], e[1] - s[1], e[2] - s[2]];
      const l2 = d[0]! ** 2 + d[1]! ** 2 + d[2]! ** 2;
      const t = l2 > 0 ? Math.max(0, Math.min(1, ((p.point[0] - s[0]) * d[0]! + (p.point[1] - s[1]) * d[1]! + (p.point[2] - s[2]) * d[2]!) / l2)) : 0;
      best = Math.min(best, Math.hypot(s[0] + d[0]! * t - p.point[0], s[1] + d[1]! * t - p.point[1], s[2] + d[2]! * t - p.point[2]));
    }
    worst = Math.max(worst, best);
  }
  return worst;
}

function design(type: WireType, jaw: 'upper' | 'lower', placed: PlacedWire, anchors: SurfacePick[]): WireDesign {
  return { id: 'w', type, jaw, diameter: mm(WIRE.diameter), clearance: mm(WIRE.clearance), points: placed.points, anchors, tag: placed.tag };
}

describe('auto-fit', () => {
  it('puts a displaced single-arm clasp back on its tooth, keeps its tag, and a second fit changes little', async () => {
    const anchors = [await clickTooth('lower', 1, 5)];
    const placed = await placeTemplate('singleArmClasp', anchors, { matrix: IDENTITY, jaw: 'lower' }, lower, WIRE);
    const [from] = placed.tag;
    // The arm pushed 1.2 mm out and 0.6 mm down, every other corner into the tooth by 0.4 mm.
    const displaced = placed.points.map((p, i) =>
      i < from ? { ...p, point: xyz(p.point[0] - 1.2 + (i % 2) * 1.6, p.point[1] + 0.3, p.point[2] - 0.6) } : p,
    );
    const before = await surfaceDistances(new Float32Array(displaced.filter((p) => p.surface).flatMap((p) => [...p.point])), lower);
    expect(Math.max(...before.map((d) => Math.abs(d - OFFSET)))).toBeGreaterThan(0.3);

    const wire = design('singleArmClasp', 'lower', { ...placed, points: displaced }, anchors);
    const fitted = await autoFit(wire, { matrix: IDENTITY, jaw: 'lower' }, lower);
    const on = fitted.points.filter((p) => p.surface);
    const after = await surfaceDistances(new Float32Array(on.flatMap((p) => [...p.point])), lower);
    for (const d of after) expect(Math.abs(d - OFFSET)).toBeLessThan(0.05);
    // The tag is where it was.
    const [a, b] = fitted.tag!;
    expect(fitted.tags).toEqual([fitted.tag]);
    expect(fitted.points.slice(a, b + 1).map((p) => p.point)).toEqual(placed.points.slice(placed.tag[0], placed.tag[1] + 1).map((p) => p.point));
    const check = await h.geometry.bendCheck({ points: fitted.points.map((p) => [...p.point] as [number, number, number]), wire: { type: 'singleArmClasp', diameter: WIRE.diameter }, program: { radius: 1 }, skipCollision: true });
    expect(check.issues.filter((i) => i.severity === 'error')).toEqual([]);
    // The buccal arm hugs the tooth evenly: after the tip's straight, its corners are on the
    // buccal side and spaced alike, however unevenly the displaced ones were.
    const arm = fitted.points.slice(1, 4).map((p) => canonical('lower', p.point));
    for (const c of arm) expect(buccalOf(c)).toBeGreaterThan(1.5);
    const gaps = arm.slice(1).map((c, i) => Math.hypot(c[0] - arm[i]![0], c[1] - arm[i]![1], c[2] - arm[i]![2]));
    expect(Math.max(...gaps) / Math.min(...gaps)).toBeLessThan(1.25);
    // A second fit changes little: every corner of either lies within 0.1 mm of the other's centreline.
    const again = await autoFit({ ...wire, points: fitted.points, tag: fitted.tag! }, { matrix: IDENTITY, jaw: 'lower' }, lower);
    expect(polylineGap(again.points, fitted.points)).toBeLessThan(0.1);
    expect(polylineGap(fitted.points, again.points)).toBeLessThan(0.1);
  });

  it('lays a single-arm clasp from its distal contact as the mirror image, and auto-fit keeps it there', async () => {
    const anchors = [await clickTooth('lower', 1, 5)];
    const frame = { matrix: IDENTITY, jaw: 'lower' as const };
    // Along the arch from tooth 1's centre: towards tooth 2 (mesial) positive, towards tooth 0 negative.
    const t = tooth(1), m = tooth(2);
    const along = (p: readonly number[]) => ((p[0]! - t.x) * (m.x - t.x) + (p[1]! - t.y) * (m.y - t.y)) / Math.hypot(m.x - t.x, m.y - t.y);
    const lingualTagStart = (w: PlacedWire) => w.points[w.tag[0]]!.point;
    const mesial = await placeTemplate('singleArmClasp', anchors, frame, lower, WIRE);
    const distal = await placeTemplate('singleArmClasp', anchors, frame, lower, { ...WIRE, crossing: 'distal' });
    // The crossing (the corner before the tag) over the mesial contact, or over the distal one;
    // the tip at the other end of the buccal arm.
    const crossing = (w: PlacedWire) => w.points[w.tag[0] - 1]!.point;
    expect(along(crossing(mesial))).toBeGreaterThan(2);
    expect(along(crossing(distal))).toBeLessThan(-2);
    expect(along(distal.points[0]!.point)).toBeGreaterThan(0);
    expect(along(mesial.points[0]!.point)).toBeLessThan(0);
    // From the distal contact the tag runs on along the distal neighbour, lingual of the teeth.
    expect(along(distal.points[distal.tag[1]]!.point)).toBeLessThan(along(lingualTagStart(distal)) - 4);
    expect(buccalOf(canonical('lower', lingualTagStart(distal)))).toBeLessThan(0);
    const check = (w: { points: readonly WirePoint[] }) => h.geometry.bendCheck({ points: w.points.map((p) => [...p.point] as [number, number, number]), wire: { type: 'singleArmClasp', diameter: WIRE.diameter }, program: { radius: 1 }, skipCollision: true });
    expect((await check(distal)).issues.filter((i) => i.severity === 'error')).toEqual([]);
    // Auto-fit sees which contact it crosses: the arm stays on the buccal, the crossing distal, the tag as it was.
    const fitted = await autoFit(design('singleArmClasp', 'lower', distal, anchors), frame, lower);
    expect(along(fitted.points[fitted.tag![0] - 1]!.point)).toBeLessThan(-2);
    expect(fitted.points.slice(fitted.tag![0]).map((p) => p.point)).toEqual(distal.points.slice(distal.tag[0]).map((p) => p.point));
    for (const c of fitted.points.slice(1, 3).map((p) => canonical('lower', p.point))) expect(buccalOf(c)).toBeGreaterThan(1.5);
    expect((await check(fitted)).issues.filter((i) => i.severity === 'error')).toEqual([]);
  });

  it('refuses the other wire types', async () => {
    for (const type of ['labialBow', 'arrowClasp', 'wraparoundBow'] as const) {
      const placed = await place(type, 'lower');
      await expect(autoFit(design(type, 'lower', placed, []), { matrix: IDENTITY, jaw: 'lower' }, lower)).rejects.toMatchObject({
        code: 'AUTO_FIT_UNSUPPORTED',
        message: 'Auto-fit supports only the single-arm clasp',
      });
    }
  });
});

// ---------------------------------------------------------------- real study models

const fixtures = process.env.ARCHWRIGHT_FIXTURES ?? resolve(fileURLToPath(new URL('../..', import.meta.url)), '../shared/fixtures');
const upperModel = resolve(fixtures, 'study-models/upper-model.stl');
const realTitle = existsSync(upperModel)
  ? `templates on the real upper study model (${upperModel})`
  : `templates on the real upper study model: SKIPPED, ${upperModel} not found (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`;
if (!existsSync(upperModel)) console.warn(realTitle);

describe.skipIf(!existsSync(upperModel))(realTitle, () => {
  let handle: number;
  let surface: SurfaceQuery;
  let matrix: number[];
  /** A click from outside at a canonical point (upper jaw: teeth towards -z), along a canonical direction. */
  let clickAt: (origin: [number, number, number], dir: [number, number, number]) => Promise<SurfacePick>;

  beforeAll(async () => {
    const bytes = readFileSync(upperModel);
    const opened = await h.geometry.openStl(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    handle = opened.handle;
    surface = surfaceQuery(h.geometry, handle);
    matrix = Array.from((await h.geometry.straighten(handle, 'upper')).matrix);
    const toModel = invertRigid(matrix);
    clickAt = async (origin, dir) => {
      const hit = await h.geometry.pick(handle, transformPoint(toModel, origin), rotateVector(toModel, dir));
      if (!hit) throw new Error(`nothing at ${origin}`);
      return { point: xyz(hit.point[0], hit.point[1], hit.point[2]), triangle: hit.triangle };
    };
  }, 60_000);
  afterAll(() => void h.geometry.release(handle));

  /** The template placed from canonical clicks; checked like the generated ones (bending rules, corners kept off, no straight in a crown). */
  async function placeReal(type: WireType, anchors: SurfacePick[]): Promise<PlacedWire> {
    const wire = await placeTemplate(type, anchors, { matrix, jaw: 'upper' }, surface, WIRE);
    const pts = wire.points.map((p) => [...p.point] as [number, number, number]);
    const check = await h.geometry.bendCheck({ points: pts, wire: { type, diameter: WIRE.diameter }, program: { radius: 1 }, skipCollision: true });
    expect(check.issues).toEqual([]);
    const on = wire.points.filter((p) => p.surface);
    expect(on.length).toBeGreaterThanOrEqual(4);
    for (const d of await surfaceDistances(new Float32Array(on.flatMap((p) => [...p.point])), surface)) expect(Math.abs(d - OFFSET)).toBeLessThan(0.05);
    return wire;
  }

  /** Canonical upper frame: occlusal plane z = 0, crowns above it, incisors towards -y; 4 mm into the crowns. */
  async function frontY(): Promise<number> {
    const front = await clickAt([0, -80, 4], [0, 1, 0]);
    return transformPoint(matrix, front.point)[1];
  }

  it('a single-arm clasp on a molar click passes the bending checks, its arm kept off the crown, and auto-fits back when pushed off', async () => {
    // The right first molar about 27 mm behind the labial face of the incisors.
    const anchors = [await clickAt([-80, (await frontY()) + 27, 4], [1, 0, 0])];
    const placed = await placeReal('singleArmClasp', anchors);
    // Auto-fit of the arm pushed 1 mm out: back on the crown, still bendable.
    const out = placed.points.map((p, i) => (i < placed.tag[0] ? { ...p, point: xyz(p.point[0] + 0.6, p.point[1] - 0.5, p.point[2] + 0.6) } : p));
    const wire: WireDesign = { id: 'r', type: 'singleArmClasp', jaw: 'upper', diameter: mm(WIRE.diameter), clearance: mm(WIRE.clearance), points: out, anchors, tag: placed.tag };
    const fitted = await autoFit(wire, { matrix, jaw: 'upper' }, surface);
    const on = fitted.points.filter((p) => p.surface);
    for (const d of await surfaceDistances(new Float32Array(on.flatMap((p) => [...p.point])), surface)) expect(Math.abs(d - OFFSET)).toBeLessThan(0.05);
    const check = await h.geometry.bendCheck({ points: fitted.points.map((p) => [...p.point] as [number, number, number]), wire: { type: 'singleArmClasp', diameter: WIRE.diameter }, program: { radius: 1 } });
    expect(check.issues).toEqual([]);
  });

  it('the other templates on the real crowns', async () => {
    const y = await frontY();
    await placeReal('arrowClasp', [await clickAt([-80, y + 19, 4], [1, 0, 0])]);
    const canine = (side: number) => clickAt([side * 45, y - 25, 5], [-side * 0.7, 0.72, 0]);
    await placeReal('labialBow', [await canine(-1), await canine(1)]);
    // The last molars: the most distal crown on each side, clicked on its buccal face.
    const last = async (side: number): Promise<SurfacePick> => {
      const back = transformPoint(matrix, (await clickAt([side * 22, 80, 4], [0, -1, 0])).point);
      return clickAt([side * 80, back[1] - 4, 4], [-side, 0, 0]);
    };
    await placeReal('wraparoundBow', [await last(-1), await last(1)]);
  });
});
