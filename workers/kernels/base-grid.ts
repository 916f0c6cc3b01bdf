// The 2D side of base generation: the outline as a polygon in the plane
// perpendicular to the insertion direction, and a conforming triangulation of
// its inside on a square grid whose boundary cells are cut along the polygon
// (marching squares on exact edge crossings). Every grid edge crossing is one
// vertex shared by the two cells beside it, so the triangulation is
// conforming and its boundary is a set of simple closed loops: a base built
// on it as inner surface + outer surface + side wall is closed by
// construction. Pure JS on small arrays (a palate at 0.25 mm: about 30k
// vertices); the heavy part of base generation is the ray casting (wasm).

export type Vec2 = readonly [number, number];

/** Why a polygon cannot be an outline (SPLIT_FAILED in base.ts), or null. */
export function polygonProblem(xs: Float64Array, ys: Float64Array, minArea: number): string | null {
  const n = xs.length;
  // Every pair of non-adjacent segments, with a box test first: outlines have
  // hundreds of points, not millions.
  for (let i = 0; i < n; i++) {
    const i2 = (i + 1) % n;
    const ax0 = Math.min(xs[i]!, xs[i2]!), ax1 = Math.max(xs[i]!, xs[i2]!);
    const ay0 = Math.min(ys[i]!, ys[i2]!), ay1 = Math.max(ys[i]!, ys[i2]!);
    for (let j = i + 1; j < n; j++) {
      const j2 = (j + 1) % n;
      if (j === i2 || j2 === i) continue; // neighbours share a point
      if (Math.max(xs[j]!, xs[j2]!) < ax0 || Math.min(xs[j]!, xs[j2]!) > ax1) continue;
      if (Math.max(ys[j]!, ys[j2]!) < ay0 || Math.min(ys[j]!, ys[j2]!) > ay1) continue;
      if (segmentsTouch(xs[i]!, ys[i]!, xs[i2]!, ys[i2]!, xs[j]!, ys[j]!, xs[j2]!, ys[j2]!)) {
        return `the outline crosses itself (segments ${i} and ${j}) seen along the insertion direction`;
      }
    }
  }
  const area = Math.abs(signedArea(xs, ys));
  if (area < minArea) return `the outline encloses ${area.toFixed(3)} mm² seen along the insertion direction`;
  return null;
}

export function signedArea(xs: ArrayLike<number>, ys: ArrayLike<number>): number {
  let a = 0;
  const n = xs.length;
  for (let i = 0, j = n - 1; i < n; j = i++) a += xs[j]! * ys[i]! - xs[i]! * ys[j]!;
  return a / 2;
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** Closed segments ab and cd share a point (crossing, touching or overlapping). */
function segmentsTouch(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const o1 = orient(ax, ay, bx, by, cx, cy), o2 = orient(ax, ay, bx, by, dx, dy);
  const o3 = orient(cx, cy, dx, dy, ax, ay), o4 = orient(cx, cy, dx, dy, bx, by);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
  const on = (px: number, py: number, qx: number, qy: number, rx: number, ry: number): boolean =>
    Math.min(px, qx) <= rx && rx <= Math.max(px, qx) && Math.min(py, qy) <= ry && ry <= Math.max(py, qy);
  return (o1 === 0 && on(ax, ay, bx, by, cx, cy)) || (o2 === 0 && on(ax, ay, bx, by, dx, dy)) ||
    (o3 === 0 && on(cx, cy, dx, dy, ax, ay)) || (o4 === 0 && on(cx, cy, dx, dy, bx, by));
}

/** Where the polygon crosses the line y = c (or x = c with `vertical`), sorted; half-open rule at vertices. */
function crossings(xs: Float64Array, ys: Float64Array, c: number, vertical: boolean): number[] {
  const out: number[] = [];
  const n = xs.length;
  const along = vertical ? ys : xs, across = vertical ? xs : ys;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const a = across[j]!, b = across[i]!;
    if (a > c !== b > c) out.push(along[j]! + ((c - a) / (b - a)) * (along[i]! - along[j]!));
  }
  return out.sort((p, q) => p - q);
}

function pointInside(xs: Float64Array, ys: Float64Array, x: number, y: number): boolean {
  let inside = false;
  for (const cx of crossings(xs, ys, y, false)) if (cx < x) inside = !inside;
  return inside;
}

/** The grid: nodes at (x0 + i·step, y0 + j·step); `fine` has half the step, fine node (2i, 2j) is coarse node (i, j). */
export interface BaseGrid {
  x0: number;
  y0: number;
  /** Coarse spacing (the resolution). */
  step: number;
  /** Coarse nodes per row and per column; the outermost ring is outside the polygon. */
  nx: number;
  ny: number;
  /** Fine nodes per row and column: 2 nx - 1, 2 ny - 1. */
  fx: number;
  fy: number;
  /** Per fine node (row-major, fx per row): 1 inside the polygon. Coarse classification is the fine one at even indices. */
  fineInside: Uint8Array;
}

export function makeGrid(xs: Float64Array, ys: Float64Array, step: number): BaseGrid {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < xs.length; i++) {
    minX = Math.min(minX, xs[i]!); maxX = Math.max(maxX, xs[i]!);
    minY = Math.min(minY, ys[i]!); maxY = Math.max(maxY, ys[i]!);
  }
  // An odd offset keeps nodes off the polygon's vertices (drawn points are
  // often on round coordinates); crossings too close to a node are clamped anyway.
  const x0 = minX - step * 1.5 + step * 0.1372;
  const y0 = minY - step * 1.5 + step * 0.0811;
  const nx = Math.ceil((maxX - x0) / step) + 2;
  const ny = Math.ceil((maxY - y0) / step) + 2;
  const fx = 2 * nx - 1, fy = 2 * ny - 1;
  const fineInside = new Uint8Array(fx * fy);
  const h = step / 2;
  for (let J = 0; J < fy; J++) {
    const row = crossings(xs, ys, y0 + J * h, false);
    let k = 0;
    let inside = false;
    for (let I = 0; I < fx; I++) {
      const x = x0 + I * h;
      while (k < row.length && row[k]! < x) {
        inside = !inside;
        k++;
      }
      fineInside[J * fx + I] = inside ? 1 : 0;
    }
  }
  return { x0, y0, step, nx, ny, fx, fy, fineInside };
}

/** Where a domain vertex sits: a coarse node, or a crossing on a horizontal or vertical grid edge. */
export const enum VertexKind {
  Node = 0,
  HorizontalEdge = 1,
  VerticalEdge = 2,
}

export interface Domain2D {
  /** xy per vertex. */
  xy: Float64Array;
  /** Per vertex: its kind and the grid position (i, j) of its node, or of the edge's first node. */
  kind: Uint8Array;
  gi: Int32Array;
  gj: Int32Array;
  /** Triangles, counter-clockwise in the plane. */
  triangles: Uint32Array;
  vertexCount: number;
}

/** Fraction of a grid edge within which a crossing is moved off its nodes (no sliver triangles). */
const CLAMP = 0.08;

/** Triangulates the inside of the polygon on the grid (marching squares with exact crossings). */
export function triangulateDomain(xs: Float64Array, ys: Float64Array, g: BaseGrid): Domain2D {
  const { nx, ny, step, x0, y0, fx, fineInside } = g;
  const inside = (i: number, j: number): boolean => fineInside[2 * j * fx + 2 * i] === 1;
  const nodeId = new Int32Array(nx * ny).fill(-1);
  const hId = new Int32Array(nx * ny).fill(-1); // edge (i, j)-(i+1, j)
  const vId = new Int32Array(nx * ny).fill(-1); // edge (i, j)-(i, j+1)
  const xy: number[] = [];
  const kind: number[] = [];
  const gi: number[] = [];
  const gj: number[] = [];
  const add = (x: number, y: number, k: VertexKind, i: number, j: number): number => {
    xy.push(x, y);
    kind.push(k);
    gi.push(i);
    gj.push(j);
    return kind.length - 1;
  };
  const node = (i: number, j: number): number => {
    const c = j * nx + i;
    if (nodeId[c]! < 0) nodeId[c] = add(x0 + i * step, y0 + j * step, VertexKind.Node, i, j);
    return nodeId[c]!;
  };
  // Crossing on an edge: the middle of the polygon's crossings between the two nodes.
  const rowCache = new Map<number, number[]>();
  const colCache = new Map<number, number[]>();
  const pick = (list: number[], a: number): number => {
    let lo = 0;
    while (lo < list.length && list[lo]! < a) lo++;
    let hi = lo;
    while (hi < list.length && list[hi]! < a + step) hi++;
    const t = hi > lo ? (list[(lo + hi - 1) >> 1]! - a) / step : 0.5;
    return a + Math.min(1 - CLAMP, Math.max(CLAMP, t)) * step;
  };
  const hEdge = (i: number, j: number): number => {
    const c = j * nx + i;
    if (hId[c]! < 0) {
      const y = y0 + j * step;
      let list = rowCache.get(j);
      if (!list) rowCache.set(j, (list = crossings(xs, ys, y, false)));
      hId[c] = add(pick(list, x0 + i * step), y, VertexKind.HorizontalEdge, i, j);
    }
    return hId[c]!;
  };
  const vEdge = (i: number, j: number): number => {
    const c = j * nx + i;
    if (vId[c]! < 0) {
      const x = x0 + i * step;
      let list = colCache.get(i);
      if (!list) colCache.set(i, (list = crossings(xs, ys, x, true)));
      vId[c] = add(x, pick(list, y0 + j * step), VertexKind.VerticalEdge, i, j);
    }
    return vId[c]!;
  };

  const tris: number[] = [];
  const fan = (poly: number[]): void => {
    for (let k = 1; k + 1 < poly.length; k++) tris.push(poly[0]!, poly[k]!, poly[k + 1]!);
  };
  for (let j = 0; j + 1 < ny; j++) {
    for (let i = 0; i + 1 < nx; i++) {
      const c0 = inside(i, j), c1 = inside(i + 1, j), c2 = inside(i + 1, j + 1), c3 = inside(i, j + 1);
      const count = +c0 + +c1 + +c2 + +c3;
      if (count === 0) continue;
      if (count === 4) {
        const a = node(i, j), b = node(i + 1, j), c = node(i + 1, j + 1), d = node(i, j + 1);
        tris.push(a, b, c, a, c, d);
        continue;
      }
      const saddle = count === 2 && c0 === c2;
      if (saddle && !pointInside(xs, ys, x0 + (i + 0.5) * step, y0 + (j + 0.5) * step)) {
        // Two separate corners: a triangle at each.
        if (c0) fan([node(i, j), hEdge(i, j), vEdge(i, j)]);
        if (c1) fan([node(i + 1, j), vEdge(i + 1, j), hEdge(i, j)]);
        if (c2) fan([node(i + 1, j + 1), hEdge(i, j + 1), vEdge(i + 1, j)]);
        if (c3) fan([node(i, j + 1), vEdge(i, j), hEdge(i, j + 1)]);
        continue;
      }
      // One convex piece: walk the cell counter-clockwise, corners inside and crossings.
      const poly: number[] = [];
      if (c0) poly.push(node(i, j));
      if (c0 !== c1) poly.push(hEdge(i, j));
      if (c1) poly.push(node(i + 1, j));
      if (c1 !== c2) poly.push(vEdge(i + 1, j));
      if (c2) poly.push(node(i + 1, j + 1));
      if (c2 !== c3) poly.push(hEdge(i, j + 1));
      if (c3) poly.push(node(i, j + 1));
      if (c3 !== c0) poly.push(vEdge(i, j));
      // Fan from a corner: no fan triangle then has three points on one side of the cell.
      const first = c0 ? 0 : poly.findIndex((v) => kind[v] === VertexKind.Node);
      fan([...poly.slice(first), ...poly.slice(0, first)]);
    }
  }
  return {
    xy: Float64Array.from(xy),
    kind: Uint8Array.from(kind),
    gi: Int32Array.from(gi),
    gj: Int32Array.from(gj),
    triangles: Uint32Array.from(tris),
    vertexCount: kind.length,
  };
}

/** Boundary half-edges of a triangulation (edges of one triangle), as the triangle runs them: pairs a, b. */
export function boundaryEdges(triangles: Uint32Array, vertexCount: number): Uint32Array {
  const count = new Map<number, number>();
  for (let t = 0; t < triangles.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = triangles[t + e]!, b = triangles[t + ((e + 1) % 3)]!;
      const key = Math.min(a, b) * vertexCount + Math.max(a, b);
      count.set(key, (count.get(key) ?? 0) + 1);
    }
  }
  const out: number[] = [];
  for (let t = 0; t < triangles.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = triangles[t + e]!, b = triangles[t + ((e + 1) % 3)]!;
      if (count.get(Math.min(a, b) * vertexCount + Math.max(a, b)) === 1) out.push(a, b);
    }
  }
  return Uint32Array.from(out);
}
