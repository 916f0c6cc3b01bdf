// Gum lines from per-vertex tooth labels: the seam between a tooth's vertices
// and the rest, as closed polylines on the surface. Marching triangles: every
// triangle whose vertices are partly in tooth n holds one segment between the
// midpoints of its two edges that cross the seam; the segments chain through
// the shared edges. Pure TypeScript (one pass over the triangles), so it runs
// wherever the labels change: in the worker after segmentation, and after
// every correction of the labels in the editor.

/** One tooth's seam: loops of xyz points (closed: the last joins the first), longest first. */
export interface GumLine {
  number: number;
  loops: Float32Array[];
  /** The seam reaches an open border of the mesh (a loop that could not close is returned open). */
  open: boolean;
}

/**
 * The seams of every labelled tooth (label > 0). Segments are oriented with the tooth on their left
 * (seen from outside, counter-clockwise winding), so the chaining is a single lookup per step.
 */
export function gumLines(positions: Float32Array, indices: Uint32Array, labels: Uint8Array): GumLine[] {
  const V = labels.length;
  // per tooth: the segment that starts on each crossing edge -> the edge it ends on
  const next = new Map<number, Map<number, number>>();
  const add = (n: number, from: number, to: number): void => {
    let m = next.get(n);
    if (!m) next.set(n, (m = new Map()));
    m.set(from, to);
  };
  const key = (a: number, b: number): number => (a < b ? a * V + b : b * V + a);
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const v0 = indices[t]!, v1 = indices[t + 1]!, v2 = indices[t + 2]!;
    const l0 = labels[v0]!, l1 = labels[v1]!, l2 = labels[v2]!;
    if (l0 === l1 && l1 === l2) continue;
    for (const n of new Set([l0, l1, l2])) {
      if (n === 0) continue;
      const tri = [v0, v1, v2];
      const ins = [l0 === n, l1 === n, l2 === n];
      let leave = -1, enter = -1;
      for (let e = 0; e < 3; e++) {
        const a = tri[e]!, b = tri[(e + 1) % 3]!;
        if (ins[e] && !ins[(e + 1) % 3]) leave = key(a, b);
        else if (!ins[e] && ins[(e + 1) % 3]) enter = key(a, b);
      }
      add(n, leave, enter);
    }
  }
  const mid = (k: number, out: number[]): void => {
    const a = Math.floor(k / V), b = k - a * V;
    out.push(
      (positions[3 * a]! + positions[3 * b]!) / 2,
      (positions[3 * a + 1]! + positions[3 * b + 1]!) / 2,
      (positions[3 * a + 2]! + positions[3 * b + 2]!) / 2,
    );
  };
  const result: GumLine[] = [];
  for (const [n, m] of [...next].sort((a, b) => a[0] - b[0])) {
    // chains that start where no segment ends (the border) first, then the closed loops
    const ends = new Set(m.values());
    const starts = [...m.keys()].filter((k) => !ends.has(k));
    const loops: Float32Array[] = [];
    let open = starts.length > 0;
    const walk = (start: number): void => {
      const pts: number[] = [];
      let k: number | undefined = start;
      while (k !== undefined && m.has(k)) {
        mid(k, pts);
        const to: number = m.get(k)!;
        m.delete(k);
        k = to;
        if (k === start) break;
      }
      if (k !== undefined && k !== start) { mid(k, pts); open = true; }
      if (pts.length >= 9) loops.push(new Float32Array(pts));
    };
    for (const s of starts) walk(s);
    while (m.size) walk(m.keys().next().value!);
    loops.sort((a, b) => b.length - a.length);
    result.push({ number: n, loops, open });
  }
  return result;
}

/** Length of a polyline in mm (closed: the last point joins the first). */
export function loopLength(loop: Float32Array, closed = true): number {
  let s = 0;
  const n = loop.length / 3;
  for (let i = closed ? 0 : 1; i < n; i++) {
    const j = i === 0 ? n - 1 : i - 1;
    s += Math.hypot(loop[3 * i]! - loop[3 * j]!, loop[3 * i + 1]! - loop[3 * j + 1]!, loop[3 * i + 2]! - loop[3 * j + 2]!);
  }
  return s;
}
