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

import { arenaAlloc, arenaMark } from './arena';
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
  if (list == 0 || weight == 0 || temp == 0 || stamp == 0) {
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
