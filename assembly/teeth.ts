// Teeth segmentation kernels (driver: workers/kernels/teeth.ts, which
// holds the method's description and its constants). Phases, one call each:
//   teethPrepare   canonical positions (the caller's rigid matrix at
//                  teethMatrixPtr(), z scaled by `sign`), area-weighted
//                  vertex normals, one-ring lists, umbrella curvature and its
//                  smoothing passes;
//   teethCores     connected non-concave vertices near the occlusal plane,
//                  with per-component area, centroid sums and top height;
//   teethWatershed marker-controlled (Meyer) flood on the concavity from the
//                  seeds the caller wrote to teethRegionPtr() (-1: none), plus
//                  gum seeds (deep vertices, open borders).
// All scratch lives in the arena: the caller brackets a job with
// arenaMark()/arenaRelease().
import { arenaAlloc } from './arena';

const matrix = memory.data(16 * 8);
/** Plane centre (x, y) of each crown region 0..63: the flood keeps a crown within maxRadius of it. */
const MAX_CENTERS = 64;
const centers = memory.data(MAX_CENTERS * 16);
let nV: i32 = 0;
let nT: i32 = 0;
let X: usize = 0; // f64 xyz per vertex, canonical, z = height towards the opposing jaw
let A: usize = 0; // f64 vertex area (a third of the incident triangles')
let OFF: usize = 0; // u32 V + 1 offsets into ADJ
let ADJ: usize = 0; // u32 neighbours (each interior edge twice: once per triangle)
let CURV: usize = 0; // f64 smoothed curvature, mm^-1, positive convex
let COMP: usize = 0; // i32 core component per vertex, -1 none
let STATS: usize = 0; // f64 x 5 per component: area, sum a*x, sum a*y, sum a*z, max z
let REGION: usize = 0; // i32 region per vertex
let HEAPK: usize = 0; // f64 heap keys
let HEAPV: usize = 0; // i32 heap vertices

export function teethMatrixPtr(): usize { return matrix; }
export function teethCentersPtr(): usize { return centers; }
export function teethXPtr(): usize { return X; }
export function teethAreaPtr(): usize { return A; }
export function teethCurvaturePtr(): usize { return CURV; }
export function teethComponentPtr(): usize { return COMP; }
export function teethStatsPtr(): usize { return STATS; }
export function teethRegionPtr(): usize { return REGION; }

@inline function xf(v: i32, c: i32): f64 { return load<f64>(X + ((<usize>v * 3 + <usize>c) << 3)); }

/** 0 ok, -1 out of memory, -3 bad input. */
export function teethPrepare(positions: usize, indices: usize, vertexCount: i32, triangleCount: i32, sign: f64, passes: i32, denoise: i32): i32 {
  if (vertexCount <= 0 || triangleCount <= 0) return -3;
  nV = vertexCount; nT = triangleCount;
  const V = <usize>vertexCount, T = <usize>triangleCount;
  X = arenaAlloc(V * 24); A = arenaAlloc(V * 8); OFF = arenaAlloc((V + 1) * 4); ADJ = arenaAlloc(T * 24);
  CURV = arenaAlloc(V * 8); COMP = arenaAlloc(V * 4); STATS = arenaAlloc(V * 40); REGION = arenaAlloc(V * 4);
  HEAPK = arenaAlloc(V * 8); HEAPV = arenaAlloc(V * 4);
  const N = arenaAlloc(V * 24);
  const TMP = arenaAlloc(V * 8);
  if (X == 0 || A == 0 || OFF == 0 || ADJ == 0 || CURV == 0 || COMP == 0 || STATS == 0 || REGION == 0 || HEAPK == 0 || HEAPV == 0 || N == 0 || TMP == 0) return -1;
  const m = matrix;
  for (let v: usize = 0; v < V; v++) {
    const p = positions + v * 12;
    const x = <f64>load<f32>(p), y = <f64>load<f32>(p, 4), z = <f64>load<f32>(p, 8);
    const q = X + v * 24;
    store<f64>(q, load<f64>(m) * x + load<f64>(m, 32) * y + load<f64>(m, 64) * z + load<f64>(m, 96));
    store<f64>(q, load<f64>(m, 8) * x + load<f64>(m, 40) * y + load<f64>(m, 72) * z + load<f64>(m, 104), 8);
    store<f64>(q, sign * (load<f64>(m, 16) * x + load<f64>(m, 48) * y + load<f64>(m, 80) * z + load<f64>(m, 112)), 16);
  }
  memory.fill(N, 0, V * 24);
  memory.fill(A, 0, V * 8);
  memory.fill(OFF, 0, (V + 1) * 4);
  for (let t: usize = 0; t < T; t++) {
    const a = load<u32>(indices + t * 12), b = load<u32>(indices + t * 12, 4), c = load<u32>(indices + t * 12, 8);
    if (a >= <u32>V || b >= <u32>V || c >= <u32>V) return -3;
    const pa = X + <usize>a * 24, pb = X + <usize>b * 24, pc = X + <usize>c * 24;
    const ux = load<f64>(pb) - load<f64>(pa), uy = load<f64>(pb, 8) - load<f64>(pa, 8), uz = load<f64>(pb, 16) - load<f64>(pa, 16);
    const vx = load<f64>(pc) - load<f64>(pa), vy = load<f64>(pc, 8) - load<f64>(pa, 8), vz = load<f64>(pc, 16) - load<f64>(pa, 16);
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const ar = Math.sqrt(nx * nx + ny * ny + nz * nz) / 6;
    for (let k = 0; k < 3; k++) {
      const w = <usize>(k == 0 ? a : k == 1 ? b : c);
      const np = N + w * 24;
      store<f64>(np, load<f64>(np) + nx); store<f64>(np, load<f64>(np, 8) + ny, 8); store<f64>(np, load<f64>(np, 16) + nz, 16);
      store<f64>(A + w * 8, load<f64>(A + w * 8) + ar);
      store<u32>(OFF + (w + 1) * 4, load<u32>(OFF + (w + 1) * 4) + 2);
    }
  }
  for (let v: usize = 0; v < V; v++) store<u32>(OFF + (v + 1) * 4, load<u32>(OFF + (v + 1) * 4) + load<u32>(OFF + v * 4));
  // fill: TMP (as u32) is the cursor per vertex
  for (let v: usize = 0; v < V; v++) store<u32>(TMP + v * 4, load<u32>(OFF + v * 4));
  for (let t: usize = 0; t < T; t++) {
    const a = load<u32>(indices + t * 12), b = load<u32>(indices + t * 12, 4), c = load<u32>(indices + t * 12, 8);
    for (let k = 0; k < 3; k++) {
      const w = <usize>(k == 0 ? a : k == 1 ? b : c);
      const o1 = k == 0 ? b : k == 1 ? c : a, o2 = k == 0 ? c : k == 1 ? a : b;
      const cur = load<u32>(TMP + w * 4);
      store<u32>(ADJ + <usize>cur * 4, o1);
      store<u32>(ADJ + <usize>(cur + 1) * 4, o2);
      store<u32>(TMP + w * 4, cur + 2);
    }
  }
  // denoising for the curvature only (scanner noise swamps the umbrella operator on fine meshes): Taubin
  // passes (lambda 0.5, mu -0.53: smooths without shrinking) on a copy; heights stay the raw ones
  let G = X;
  if (denoise > 0) {
    G = arenaAlloc(V * 24);
    const H = arenaAlloc(V * 24);
    if (G == 0 || H == 0) return -1;
    memory.copy(G, X, V * 24);
    for (let p = 0; p < 2 * denoise; p++) {
      const f = (p & 1) == 0 ? 0.5 : -0.53;
      for (let v: usize = 0; v < V; v++) {
        const j0 = load<u32>(OFF + v * 4), j1 = load<u32>(OFF + (v + 1) * 4);
        const px = load<f64>(G + v * 24), py = load<f64>(G + v * 24, 8), pz = load<f64>(G + v * 24, 16);
        let sx = 0.0, sy = 0.0, sz = 0.0;
        for (let j = j0; j < j1; j++) {
          const w = <usize>load<u32>(ADJ + <usize>j * 4);
          sx += load<f64>(G + w * 24); sy += load<f64>(G + w * 24, 8); sz += load<f64>(G + w * 24, 16);
        }
        const n = <f64>(j1 - j0);
        if (n == 0) { memory.copy(H + v * 24, G + v * 24, 24); continue; }
        store<f64>(H + v * 24, px + f * (sx / n - px));
        store<f64>(H + v * 24, py + f * (sy / n - py), 8);
        store<f64>(H + v * 24, pz + f * (sz / n - pz), 16);
      }
      memory.copy(G, H, V * 24);
    }
    // normals of the denoised surface
    memory.fill(N, 0, V * 24);
    for (let t: usize = 0; t < T; t++) {
      const a = load<u32>(indices + t * 12), b = load<u32>(indices + t * 12, 4), c = load<u32>(indices + t * 12, 8);
      const pa = G + <usize>a * 24, pb = G + <usize>b * 24, pc = G + <usize>c * 24;
      const ux = load<f64>(pb) - load<f64>(pa), uy = load<f64>(pb, 8) - load<f64>(pa, 8), uz = load<f64>(pb, 16) - load<f64>(pa, 16);
      const vx = load<f64>(pc) - load<f64>(pa), vy = load<f64>(pc, 8) - load<f64>(pa, 8), vz = load<f64>(pc, 16) - load<f64>(pa, 16);
      const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      for (let k = 0; k < 3; k++) {
        const w = <usize>(k == 0 ? a : k == 1 ? b : c);
        const np = N + w * 24;
        store<f64>(np, load<f64>(np) + nx); store<f64>(np, load<f64>(np, 8) + ny, 8); store<f64>(np, load<f64>(np, 16) + nz, 16);
      }
    }
  }
  // the mirror (sign < 0) turns the winding: sign keeps the normals outwards
  for (let v: usize = 0; v < V; v++) {
    const np = N + v * 24;
    const nx = load<f64>(np), ny = load<f64>(np, 8), nz = load<f64>(np, 16);
    let l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (l == 0) l = 1;
    l *= sign;
    store<f64>(np, nx / l); store<f64>(np, ny / l, 8); store<f64>(np, nz / l, 16);
  }
  // umbrella curvature: -2 (mean neighbour - v) . n / mean |e|^2 (1/R on a sphere)
  for (let v: usize = 0; v < V; v++) {
    const j0 = load<u32>(OFF + v * 4), j1 = load<u32>(OFF + (v + 1) * 4);
    const px = load<f64>(G + v * 24), py = load<f64>(G + v * 24, 8), pz = load<f64>(G + v * 24, 16);
    let sx = 0.0, sy = 0.0, sz = 0.0, se = 0.0;
    for (let j = j0; j < j1; j++) {
      const w = <usize>load<u32>(ADJ + <usize>j * 4);
      const dx = load<f64>(G + w * 24) - px, dy = load<f64>(G + w * 24, 8) - py, dz = load<f64>(G + w * 24, 16) - pz;
      sx += dx; sy += dy; sz += dz; se += dx * dx + dy * dy + dz * dz;
    }
    const np = N + v * 24;
    store<f64>(CURV + v * 8, se > 0 ? (-2 * (sx * load<f64>(np) + sy * load<f64>(np, 8) + sz * load<f64>(np, 16))) / se : 0);
  }
  let src = CURV, dst = TMP;
  for (let p = 0; p < passes; p++) {
    for (let v: usize = 0; v < V; v++) {
      const j0 = load<u32>(OFF + v * 4), j1 = load<u32>(OFF + (v + 1) * 4);
      let s = load<f64>(src + v * 8), c = 1.0;
      for (let j = j0; j < j1; j++) { s += load<f64>(src + (<usize>load<u32>(ADJ + <usize>j * 4)) * 8); c += 1; }
      store<f64>(dst + v * 8, s / c);
    }
    const t = src; src = dst; dst = t;
  }
  if (src != CURV) memory.copy(CURV, src, V * 8);
  return 0;
}

/** Components of {curvature > -concave and z > -depth}; returns their count (stats at teethStatsPtr()). */
export function teethCores(concave: f64, depth: f64): i32 {
  const V = <usize>nV;
  const stack = HEAPV; // free until the watershed
  for (let v: usize = 0; v < V; v++) store<i32>(COMP + v * 4, -1);
  let count = 0;
  for (let s: usize = 0; s < V; s++) {
    if (load<i32>(COMP + s * 4) != -1 || !(load<f64>(CURV + s * 8) > -concave && xf(<i32>s, 2) > -depth)) continue;
    const st = STATS + <usize>count * 40;
    let ar = 0.0, cx = 0.0, cy = 0.0, cz = 0.0, mz = -Infinity;
    let top: usize = 0;
    store<i32>(stack, <i32>s); top = 1;
    store<i32>(COMP + s * 4, count);
    while (top > 0) {
      top--;
      const v = <usize>load<i32>(stack + top * 4);
      const a = load<f64>(A + v * 8);
      const x = load<f64>(X + v * 24), y = load<f64>(X + v * 24, 8), z = load<f64>(X + v * 24, 16);
      ar += a; cx += a * x; cy += a * y; cz += a * z; if (z > mz) mz = z;
      const j0 = load<u32>(OFF + v * 4), j1 = load<u32>(OFF + (v + 1) * 4);
      for (let j = j0; j < j1; j++) {
        const w = <usize>load<u32>(ADJ + <usize>j * 4);
        if (load<i32>(COMP + w * 4) != -1 || !(load<f64>(CURV + w * 8) > -concave && load<f64>(X + w * 24, 16) > -depth)) continue;
        store<i32>(COMP + w * 4, count);
        store<i32>(stack + top * 4, <i32>w); top++;
      }
    }
    store<f64>(st, ar); store<f64>(st, cx, 8); store<f64>(st, cy, 16); store<f64>(st, cz, 24); store<f64>(st, mz, 32);
    count++;
  }
  return count;
}

let heapSize: i32 = 0;
function heapPush(v: i32, key: f64): void {
  let i = heapSize++;
  while (i > 0) {
    const p = (i - 1) >> 1;
    const pk = load<f64>(HEAPK + (<usize>p << 3));
    if (pk <= key) break;
    store<f64>(HEAPK + (<usize>i << 3), pk);
    store<i32>(HEAPV + (<usize>i << 2), load<i32>(HEAPV + (<usize>p << 2)));
    i = p;
  }
  store<f64>(HEAPK + (<usize>i << 3), key);
  store<i32>(HEAPV + (<usize>i << 2), v);
}
function heapPop(): i32 {
  const top = load<i32>(HEAPV);
  const n = --heapSize;
  const key = load<f64>(HEAPK + (<usize>n << 3)), val = load<i32>(HEAPV + (<usize>n << 2));
  let i = 0;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && load<f64>(HEAPK + (<usize>(c + 1) << 3)) < load<f64>(HEAPK + (<usize>c << 3))) c++;
    const ck = load<f64>(HEAPK + (<usize>c << 3));
    if (ck >= key) break;
    store<f64>(HEAPK + (<usize>i << 3), ck);
    store<i32>(HEAPV + (<usize>i << 2), load<i32>(HEAPV + (<usize>c << 2)));
    i = c;
  }
  store<f64>(HEAPK + (<usize>i << 3), key);
  store<i32>(HEAPV + (<usize>i << 2), val);
  return top;
}

/**
 * Floods the regions at teethRegionPtr() (seeds >= 0, -1 unset) in order of increasing concavity; unset
 * vertices deeper than `gumDepth`, on an open border or beyond `maxRadius` of every crown get `gumId` first. Crown regions 0..63 do not
 * claim vertices farther than `maxRadius` in the plane from their centre at teethCentersPtr(). Returns the vertices left unset
 * (not connected to any seed).
 */
export function teethWatershed(gumDepth: f64, gumId: i32, maxRadius: f64): i32 {
  const r2max = maxRadius * maxRadius;
  const V = <usize>nV;
  const crowns = gumId < MAX_CENTERS ? gumId : MAX_CENTERS;
  for (let v: usize = 0; v < V; v++) {
    if (load<i32>(REGION + v * 4) != -1) continue;
    if (load<f64>(X + v * 24, 16) < -gumDepth) { store<i32>(REGION + v * 4, gumId); continue; }
    // beyond every crown's reach: gum from the start (the tuberosity or retromolar pad behind the last
    // molar, walled in by concave folds, would otherwise wait for the gum flood while the crown spreads)
    let reach = false;
    const x = load<f64>(X + v * 24), y = load<f64>(X + v * 24, 8);
    for (let r = 0; r < crowns && !reach; r++) {
      const dx = x - load<f64>(centers + (<usize>r << 4)), dy = y - load<f64>(centers + (<usize>r << 4), 8);
      reach = dx * dx + dy * dy <= r2max;
    }
    if (!reach && crowns > 0) { store<i32>(REGION + v * 4, gumId); continue; }
    // an edge seen from one triangle only: v's list holds that neighbour once
    const j0 = load<u32>(OFF + v * 4), j1 = load<u32>(OFF + (v + 1) * 4);
    for (let j = j0; j < j1; j++) {
      const w = load<u32>(ADJ + <usize>j * 4);
      let n = 0;
      for (let q = j0; q < j1; q++) if (load<u32>(ADJ + <usize>q * 4) == w) n++;
      if (n == 1) { store<i32>(REGION + v * 4, gumId); break; }
    }
  }
  heapSize = 0;
  for (let v: usize = 0; v < V; v++) {
    if (load<i32>(REGION + v * 4) == -1) continue;
    const j0 = load<u32>(OFF + v * 4), j1 = load<u32>(OFF + (v + 1) * 4);
    for (let j = j0; j < j1; j++) {
      if (load<i32>(REGION + (<usize>load<u32>(ADJ + <usize>j * 4)) * 4) == -1) { heapPush(<i32>v, -load<f64>(CURV + v * 8)); break; }
    }
  }
  while (heapSize > 0) {
    const v = <usize>heapPop();
    const r = load<i32>(REGION + v * 4);
    const j0 = load<u32>(OFF + v * 4), j1 = load<u32>(OFF + (v + 1) * 4);
    for (let j = j0; j < j1; j++) {
      const w = <usize>load<u32>(ADJ + <usize>j * 4);
      if (load<i32>(REGION + w * 4) != -1) continue;
      if (r != gumId && r >= 0 && r < MAX_CENTERS) {
        // a crown stops at maxRadius from its centre in the plane: beyond is gum (retromolar pad, ridge)
        const dx = load<f64>(X + w * 24) - load<f64>(centers + (<usize>r << 4));
        const dy = load<f64>(X + w * 24, 8) - load<f64>(centers + (<usize>r << 4), 8);
        if (dx * dx + dy * dy > r2max) continue;
      }
      store<i32>(REGION + w * 4, r);
      heapPush(<i32>w, -load<f64>(CURV + w * 8));
    }
  }
  let unset = 0;
  for (let v: usize = 0; v < V; v++) if (load<i32>(REGION + v * 4) == -1) unset++;
  return unset;
}

/**
 * The crest pass: a gum vertex beside a crown vertex and more concave than it joins that crown (the
 * seam between crown and gum lies on the concave crest, which the flood gives to whichever side arrives
 * first). One ring at most per call. Returns the vertices moved.
 */
export function teethDilate(gumId: i32): i32 {
  const V = <usize>nV;
  const next = HEAPV; // free after the watershed
  let moved = 0;
  for (let v: usize = 0; v < V; v++) {
    let r = load<i32>(REGION + v * 4);
    if (r == gumId) {
      const j0 = load<u32>(OFF + v * 4), j1 = load<u32>(OFF + (v + 1) * 4);
      for (let j = j0; j < j1; j++) {
        const w = <usize>load<u32>(ADJ + <usize>j * 4);
        const q = load<i32>(REGION + w * 4);
        // only a vertex on the crest: more concave than the crown vertex beside it
        if (q >= 0 && q != gumId && load<f64>(CURV + v * 8) <= load<f64>(CURV + w * 8)) { r = q; moved++; break; }
      }
    }
    store<i32>(next + v * 4, r);
  }
  memory.copy(REGION, next, V * 4);
  return moved;
}
