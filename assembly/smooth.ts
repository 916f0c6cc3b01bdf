// Taubin smoothing: the brush dab ("smudging") and whole-region smoothing.
//
// A dab finds the vertices within `radius` of the centre by a breadth-first
// walk over the adjacency from a seed vertex, so its cost follows the
// vertices touched, never the mesh size: the per-vertex arrays below are
// allocated once per mesh (smoothPrepare) and a visit stamp replaces clearing.
// Each touched vertex gets a weight strength × (1 - (d/r)²)², and k rounds of
// Taubin's pair (λ > 0 shrinks, μ < -λ inflates back) move it by
// weight × factor × (mean of neighbours - p) (uniform Laplacian, Jacobi: all
// new positions from the old ones). Vertices on open edges are pinned (the
// uniform Laplacian would pull a scan's rim inwards).
//
// Afterwards the normals of the moved vertices and of their one-ring are
// recomputed (area-weighted, as the STL kernel does). The list of vertex ids
// is [moved..., ring...]: the renderer updates those; the caller must refit
// the BVH (the positions changed in place).

import { arenaAlloc, arenaMark, arenaRelease } from './arena';
import {
  adjList,
  adjOff,
  meshIdx,
  meshNrm,
  meshPos,
  NONE,
  nV,
  topoReady,
  setU32,
  TOPO_BAD_INPUT,
  TOPO_BAD_STATE,
  TOPO_OK,
  TOPO_OUT_OF_MEMORY,
  u32At,
  vFlags,
  VF_BOUNDARY,
  vtList,
  vtOff,
} from './topo-mesh';

let preparedFor: usize = 0; // meshPos of the mesh the arrays below belong to
let preparedV: u32 = 0;
let preparedTop: usize = 0; // arena top after the allocation: a release below it lost the arrays
let list: usize = 0; // u32 × V: moved vertices, then the ring
let weight: usize = 0; // f32 × V, by vertex id
let temp: usize = 0; // f32 × 3V, by vertex id
let stamp: usize = 0; // u32 × V
let slotOf: usize = 0; // u32 × V: a listed vertex's place in the list (valid while its stamp is current)
let clock: u32 = 0;
let moved: u32 = 0;
let total: u32 = 0;
let minId: u32 = 0;
let maxId: u32 = 0;

/** Allocates the brush's arrays for the analysed mesh (once). */
export function smoothPrepare(): i32 {
  if (!topoReady()) return TOPO_BAD_STATE;
  if (prepared()) return TOPO_OK;
  const v4 = (<usize>nV) << 2;
  list = arenaAlloc(v4);
  weight = arenaAlloc(v4);
  temp = arenaAlloc(v4 * 3);
  stamp = arenaAlloc(v4);
  slotOf = arenaAlloc(v4);
  if (list == 0 || weight == 0 || temp == 0 || stamp == 0 || slotOf == 0) {
    list = 0;
    return TOPO_OUT_OF_MEMORY;
  }
  memory.fill(stamp, 0, v4);
  clock = 0;
  preparedFor = meshPos;
  preparedV = nV;
  preparedTop = arenaMark();
  return TOPO_OK;
}

function prepared(): bool {
  return list != 0 && preparedFor == meshPos && preparedV == nV && arenaMark() >= preparedTop;
}

/** A fresh pair of stamps: `clock` marks the moved set, `clock + 1` the ring. */
function nextClock(): void {
  if (clock >= 0xFFFF_FFF0) {
    memory.fill(stamp, 0, (<usize>nV) << 2);
    clock = 0;
  }
  clock += 2;
}

@inline function isPinned(v: u32): bool {
  return (load<u8>(vFlags + <usize>v) & VF_BOUNDARY) != 0;
}

/** One Jacobi half-step over list[start, end): temp = p + factor × weight × (mean of neighbours - p). */
export function smoothPass(factor: f32, start: u32, end: u32): void {
  for (let i = start; i < end; i++) {
    const v = u32At(list, i);
    const pv = meshPos + (<usize>v) * 12;
    const tv = temp + (<usize>v) * 12;
    const x = load<f32>(pv), y = load<f32>(pv, 4), z = load<f32>(pv, 8);
    const w = load<f32>(weight + ((<usize>v) << 2)) * factor;
    const a0 = u32At(adjOff, v), a1 = u32At(adjOff, v + 1);
    if (w == 0 || a1 == a0) {
      store<f32>(tv, x);
      store<f32>(tv, y, 4);
      store<f32>(tv, z, 8);
      continue;
    }
    let sx: f32 = 0, sy: f32 = 0, sz: f32 = 0;
    for (let p = a0; p < a1; p++) {
      const pn = meshPos + (<usize>u32At(adjList, p)) * 12;
      sx += load<f32>(pn);
      sy += load<f32>(pn, 4);
      sz += load<f32>(pn, 8);
    }
    const inv: f32 = 1 / <f32>(a1 - a0);
    store<f32>(tv, x + w * (sx * inv - x));
    store<f32>(tv, y + w * (sy * inv - y), 4);
    store<f32>(tv, z + w * (sz * inv - z), 8);
  }
}

/** Copies the half-step's results back into the positions for list[start, end). */
export function smoothApply(start: u32, end: u32): void {
  for (let i = start; i < end; i++) {
    const v = u32At(list, i);
    const off = (<usize>v) * 12;
    memory.copy(meshPos + off, temp + off, 12);
  }
}

/** Area-weighted vertex normals for list[start, end) (no-op without normals). */
export function smoothNormals(start: u32, end: u32): void {
  if (meshNrm == 0) return;
  for (let i = start; i < end; i++) {
    const v = u32At(list, i);
    let sx: f32 = 0, sy: f32 = 0, sz: f32 = 0;
    const e = u32At(vtOff, v + 1);
    for (let p = u32At(vtOff, v); p < e; p++) {
      const tp = meshIdx + (<usize>u32At(vtList, p)) * 12;
      const ia = load<u32>(tp), ib = load<u32>(tp, 4), ic = load<u32>(tp, 8);
      if (ia == ib || ib == ic || ia == ic) continue;
      const pa = meshPos + (<usize>ia) * 12;
      const pb = meshPos + (<usize>ib) * 12;
      const pc = meshPos + (<usize>ic) * 12;
      const ax = load<f32>(pa), ay = load<f32>(pa, 4), az = load<f32>(pa, 8);
      const e1x = load<f32>(pb) - ax, e1y = load<f32>(pb, 4) - ay, e1z = load<f32>(pb, 8) - az;
      const e2x = load<f32>(pc) - ax, e2y = load<f32>(pc, 4) - ay, e2z = load<f32>(pc, 8) - az;
      sx += e1y * e2z - e1z * e2y;
      sy += e1z * e2x - e1x * e2z;
      sz += e1x * e2y - e1y * e2x;
    }
    const len = Mathf.sqrt(sx * sx + sy * sy + sz * sz);
    const np = meshNrm + (<usize>v) * 12;
    if (len > 0) {
      store<f32>(np, sx / len);
      store<f32>(np, sy / len, 4);
      store<f32>(np, sz / len, 8);
    } else {
      store<f32>(np, 0);
      store<f32>(np, 0, 4);
      store<f32>(np, 1, 8);
    }
  }
}

/** Moves the ring (written backwards from the end of `list`) right behind the moved vertices. */
function closeList(ringCount: u32): void {
  for (let i: u32 = 0; i < ringCount; i++) setU32(list, moved + i, u32At(list, nV - 1 - i));
  total = moved + ringCount;
  minId = NONE;
  maxId = 0;
  for (let i: u32 = 0; i < total; i++) {
    const v = u32At(list, i);
    if (v < minId) minId = v;
    if (v > maxId) maxId = v;
  }
  if (total == 0) minId = 0;
}

/** Adds the one-ring of list[0, moved) (vertices not stamped `clock`); returns its size. */
function collectRing(): u32 {
  let ring: u32 = 0;
  const r = clock + 1;
  for (let i: u32 = 0; i < moved; i++) {
    const v = u32At(list, i);
    const a1 = u32At(adjOff, v + 1);
    for (let p = u32At(adjOff, v); p < a1; p++) {
      const w = u32At(adjList, p);
      const s = u32At(stamp, w);
      if (s == clock || s == r) continue;
      setU32(stamp, w, r);
      setU32(list, nV - 1 - ring, w);
      ring++;
    }
  }
  return ring;
}

/**
 * One brush dab. `seed` is a vertex near the centre (the caller takes the
 * hit triangle's nearest corner). Returns the number of moved vertices
 * (0 when the seed lies outside the radius) or a negative status; the list
 * (smoothListPtr, smoothTotalCount) holds the moved vertices, then their ring.
 */
export function smoothDab(
  seed: u32,
  cx: f32,
  cy: f32,
  cz: f32,
  radius: f32,
  strength: f32,
  iterations: i32,
  lambda: f32,
  mu: f32,
): i32 {
  if (!topoReady() || !prepared()) return TOPO_BAD_STATE;
  if (seed >= nV || !(radius > 0)) return TOPO_BAD_INPUT;
  nextClock();
  moved = 0;
  const r2 = radius * radius;
  const inv2: f32 = 1 / r2;
  const s = min<f32>(1, max<f32>(0, strength));
  const ringStamp = clock + 1;
  let ring: u32 = 0;

  const sp = meshPos + (<usize>seed) * 12;
  const dx0 = load<f32>(sp) - cx, dy0 = load<f32>(sp, 4) - cy, dz0 = load<f32>(sp, 8) - cz;
  const d0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
  if (d0 < r2) {
    setU32(stamp, seed, clock);
    setU32(list, 0, seed);
    moved = 1;
    const f: f32 = 1 - d0 * inv2;
    store<f32>(weight + ((<usize>seed) << 2), isPinned(seed) ? <f32>0 : s * f * f);
    // Breadth-first walk; vertices found outside the sphere form the ring.
    for (let head: u32 = 0; head < moved; head++) {
      const v = u32At(list, head);
      const a1 = u32At(adjOff, v + 1);
      for (let p = u32At(adjOff, v); p < a1; p++) {
        const w = u32At(adjList, p);
        const st = u32At(stamp, w);
        if (st == clock || st == ringStamp) continue;
        const pw = meshPos + (<usize>w) * 12;
        const dx = load<f32>(pw) - cx, dy = load<f32>(pw, 4) - cy, dz = load<f32>(pw, 8) - cz;
        const d = dx * dx + dy * dy + dz * dz;
        if (d < r2) {
          setU32(stamp, w, clock);
          setU32(list, moved++, w);
          const g: f32 = 1 - d * inv2;
          store<f32>(weight + ((<usize>w) << 2), isPinned(w) ? <f32>0 : s * g * g);
        } else {
          setU32(stamp, w, ringStamp);
          setU32(list, nV - 1 - ring, w);
          ring++;
        }
      }
    }
    for (let it = 0; it < iterations; it++) {
      smoothPass(lambda, 0, moved);
      smoothApply(0, moved);
      if (mu != 0) {
        smoothPass(mu, 0, moved);
        smoothApply(0, moved);
      }
    }
  }
  closeList(ring);
  smoothNormals(0, total);
  return <i32>moved;
}

// ---- the 'fair' dab (brush version 2)

const MAX_FAIR_STEPS: i32 = 64;
const fairSteps = memory.data(MAX_FAIR_STEPS * 8, 8);
let fairStepCount: i32 = 0;

/** Sets step i of the fair filter (workers/kernels/smooth.ts designs them); n steps in all. */
export function smoothSetFairStep(i: i32, t: f64, n: i32): i32 {
  if (i < 0 || i >= MAX_FAIR_STEPS || n < 0 || n > MAX_FAIR_STEPS) return TOPO_BAD_INPUT;
  store<f64>(fairSteps + (<usize>i << 3), t);
  fairStepCount = n;
  return TOPO_OK;
}

@inline function f64At(p: usize, i: u32): f64 {
  return load<f64>(p + ((<usize>i) << 3));
}

@inline function setF64(p: usize, i: u32, v: f64): void {
  store<f64>(p + ((<usize>i) << 3), v);
}

/**
 * One 'fair' dab: the walk of smoothDab finds the vertices in the sphere and
 * their one-ring; the steps x ← x − t·falloff·L(Lx) then run on them in f64
 * with the ring fixed (L of a ring vertex over its own neighbours, the
 * natural boundary: a ring taken as flat would flatten a sphere's patch);
 * last each vertex moves strength × its move, capped at a quarter of the
 * radius. Vertices on open edges stay. Cost: the vertices touched × steps.
 * Returns the moved count or a negative status; the list as smoothDab.
 */
export function smoothFairDab(seed: u32, cx: f64, cy: f64, cz: f64, radius: f64, strength: f64): i32 {
  const n = smoothDab(seed, <f32>cx, <f32>cy, <f32>cz, <f32>radius, 1, 0, 0.5, -0.53);
  if (n <= 0) return n;
  const mark = arenaMark();
  const m = <u32>n;
  const all = total;
  const x = arenaAlloc((<usize>all) * 24);
  const x0 = arenaAlloc((<usize>m) * 24);
  const y = arenaAlloc((<usize>all) * 24);
  const fixed = arenaAlloc((<usize>all) * 24);
  const falloff = arenaAlloc((<usize>m) << 3);
  const invDeg = arenaAlloc((<usize>all) << 3);
  const start = arenaAlloc((<usize>all + 1) << 2);
  if (x == 0 || x0 == 0 || y == 0 || fixed == 0 || falloff == 0 || invDeg == 0 || start == 0) {
    arenaRelease(mark);
    return TOPO_OUT_OF_MEMORY;
  }
  for (let i: u32 = 0; i < all; i++) {
    const v = u32At(list, i);
    setU32(slotOf, v, i);
    const pv = meshPos + (<usize>v) * 12;
    setF64(x, i * 3, <f64>load<f32>(pv));
    setF64(x, i * 3 + 1, <f64>load<f32>(pv, 4));
    setF64(x, i * 3 + 2, <f64>load<f32>(pv, 8));
  }
  memory.copy(x0, x, (<usize>m) * 24);
  // The falloff: each step moves a vertex by (1 − (d/r)²)² of its share,
  // so a vertex entering the sphere at its rim changes nothing abruptly.
  const inv2 = 1 / (radius * radius);
  for (let i: u32 = 0; i < m; i++) {
    const dx = f64At(x0, i * 3) - cx, dy = f64At(x0, i * 3 + 1) - cy, dz = f64At(x0, i * 3 + 2) - cz;
    const f = Math.max(0, 1 - (dx * dx + dy * dy + dz * dz) * inv2);
    setF64(falloff, i, isPinned(u32At(list, i)) ? 0 : f * f);
  }
  // Each listed vertex's listed neighbours by slot (stamps: clock moved,
  // clock + 1 ring), the others summed once into `fixed`.
  const ringStamp = clock + 1;
  let links: u32 = 0;
  for (let i: u32 = 0; i < all; i++) {
    const v = u32At(list, i);
    const a1 = u32At(adjOff, v + 1);
    for (let p = u32At(adjOff, v); p < a1; p++) {
      const st = u32At(stamp, u32At(adjList, p));
      if (st == clock || st == ringStamp) links++;
    }
  }
  const local = arenaAlloc((<usize>links) << 2);
  if (local == 0 && links > 0) {
    arenaRelease(mark);
    return TOPO_OUT_OF_MEMORY;
  }
  links = 0;
  for (let i: u32 = 0; i < all; i++) {
    const v = u32At(list, i);
    setU32(start, i, links);
    const a0 = u32At(adjOff, v), a1 = u32At(adjOff, v + 1);
    setF64(invDeg, i, a1 > a0 ? 1 / <f64>(a1 - a0) : 0);
    let fx: f64 = 0, fy: f64 = 0, fz: f64 = 0;
    for (let p = a0; p < a1; p++) {
      const w = u32At(adjList, p);
      const st = u32At(stamp, w);
      if (st == clock || st == ringStamp) {
        setU32(local, links++, u32At(slotOf, w));
      } else {
        const pw = meshPos + (<usize>w) * 12;
        fx += <f64>load<f32>(pw);
        fy += <f64>load<f32>(pw, 4);
        fz += <f64>load<f32>(pw, 8);
      }
    }
    setF64(fixed, i * 3, fx);
    setF64(fixed, i * 3 + 1, fy);
    setF64(fixed, i * 3 + 2, fz);
  }
  setU32(start, all, links);
  for (let st = 0; st < fairStepCount; st++) {
    const t = load<f64>(fairSteps + (<usize>st << 3));
    // y = L x over the moved vertices and the ring.
    for (let i: u32 = 0; i < all; i++) {
      const inv = f64At(invDeg, i);
      if (inv == 0) continue;
      let sx = f64At(fixed, i * 3), sy = f64At(fixed, i * 3 + 1), sz = f64At(fixed, i * 3 + 2);
      const e = u32At(start, i + 1);
      for (let p = u32At(start, i); p < e; p++) {
        const j = u32At(local, p) * 3;
        sx += f64At(x, j);
        sy += f64At(x, j + 1);
        sz += f64At(x, j + 2);
      }
      setF64(y, i * 3, f64At(x, i * 3) - sx * inv);
      setF64(y, i * 3 + 1, f64At(x, i * 3 + 1) - sy * inv);
      setF64(y, i * 3 + 2, f64At(x, i * 3 + 2) - sz * inv);
    }
    // x -= t · falloff · L y on the moved vertices (their neighbours are all listed).
    for (let i: u32 = 0; i < m; i++) {
      const w = t * f64At(falloff, i);
      const inv = f64At(invDeg, i);
      if (w == 0 || inv == 0) continue;
      let sx: f64 = 0, sy: f64 = 0, sz: f64 = 0;
      const e = u32At(start, i + 1);
      for (let p = u32At(start, i); p < e; p++) {
        const j = u32At(local, p) * 3;
        sx += f64At(y, j);
        sy += f64At(y, j + 1);
        sz += f64At(y, j + 2);
      }
      setF64(x, i * 3, f64At(x, i * 3) - w * (f64At(y, i * 3) - sx * inv));
      setF64(x, i * 3 + 1, f64At(x, i * 3 + 1) - w * (f64At(y, i * 3 + 1) - sy * inv));
      setF64(x, i * 3 + 2, f64At(x, i * 3 + 2) - w * (f64At(y, i * 3 + 2) - sz * inv));
    }
  }
  // Each vertex's move: at most a quarter of the radius (where the mesh is
  // far coarser than the brush the filter rounds at the edges' scale and
  // would move vertices by millimetres), then the strength's share of it.
  const limit = radius / 4;
  const s = Math.min(1, Math.max(0, strength));
  for (let i: u32 = 0; i < m; i++) {
    const ox = f64At(x0, i * 3), oy = f64At(x0, i * 3 + 1), oz = f64At(x0, i * 3 + 2);
    const dx = f64At(x, i * 3) - ox, dy = f64At(x, i * 3 + 1) - oy, dz = f64At(x, i * 3 + 2) - oz;
    const length = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const share = length > limit ? (s * limit) / length : s;
    const pv = meshPos + (<usize>u32At(list, i)) * 12;
    store<f32>(pv, <f32>(ox + share * dx));
    store<f32>(pv, <f32>(oy + share * dy), 4);
    store<f32>(pv, <f32>(oz + share * dz), 8);
  }
  arenaRelease(mark);
  smoothNormals(0, all);
  return n;
}

/**
 * Starts smoothing a region: the n vertex ids at `ids` (duplicates and
 * out-of-range ids are dropped), each with weight `strength` (0 on open
 * edges). Returns the number of region vertices; the list then holds them and
 * their ring (for the normals). Run smoothPass/smoothApply over [0, moved) per
 * half-step, then smoothNormals over [0, total).
 */
export function smoothRegionBegin(ids: usize, n: u32, strength: f32): i32 {
  if (!topoReady() || !prepared()) return TOPO_BAD_STATE;
  nextClock();
  moved = 0;
  const s = min<f32>(1, max<f32>(0, strength));
  for (let i: u32 = 0; i < n; i++) {
    const v = u32At(ids, i);
    if (v >= nV || u32At(stamp, v) == clock) continue;
    setU32(stamp, v, clock);
    setU32(list, moved++, v);
    store<f32>(weight + ((<usize>v) << 2), isPinned(v) ? <f32>0 : s);
  }
  closeList(collectRing());
  return <i32>moved;
}

/** The whole mesh as the region (no ring). */
export function smoothRegionBeginAll(strength: f32): i32 {
  if (!topoReady() || !prepared()) return TOPO_BAD_STATE;
  nextClock();
  const s = min<f32>(1, max<f32>(0, strength));
  for (let v: u32 = 0; v < nV; v++) {
    setU32(list, v, v);
    store<f32>(weight + ((<usize>v) << 2), isPinned(v) ? <f32>0 : s);
  }
  moved = nV;
  total = nV;
  minId = 0;
  maxId = nV > 0 ? nV - 1 : 0;
  return <i32>moved;
}

export function smoothMovedCount(): u32 { return moved; }
/** Moved vertices plus their ring. */
export function smoothTotalCount(): u32 { return total; }
export function smoothListPtr(): usize { return list; }
export function smoothMinVertex(): u32 { return minId; }
export function smoothMaxVertex(): u32 { return maxId; }
