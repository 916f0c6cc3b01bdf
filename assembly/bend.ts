// Bending area: wire kinematics for feed-rotate-bend machines (docs/device-bridge.md,
// "Step geometry"). Three kernels over raw f64 memory:
// - bendProgram: design polyline (corners) -> steps { feed, rotate, bend } (inverse kinematics);
// - bendSimulate: steps -> the wire in the head's frame after k steps (forward kinematics);
// - bendCollide: the same simulation, sweeping every rotation and bend, against boxes of the head.
//
// Head frame: the wire leaves the die at the origin moving along +X; a positive bend swings the
// fed part toward +Y (counter-clockwise seen from +Z) around a die of radius R (the centreline's
// arc radius), centre (0, +-R, 0); a positive rotate turns the bend direction from +Y toward +Z
// (right hand about +X), i.e. a machine that turns the wire instead turns it by -rotate.
// Steps: feed, then rotate, then bend. FLAG_FEED_ARC: feed includes the bend's arc material
// (R * |bend|), fed before the bend and wrapped by it; without it the bend draws that material.
import { arenaAlloc } from './arena';

const DEG: f64 = Math.PI / 180;
/** feed includes the arc material of the step's bend. */
const FLAG_FEED_ARC: i32 = 1;
/** The head bends both ways: rotate in (-90, 90], bend signed. Else bend >= 0, rotate in (-180, 180]. */
const FLAG_BIDIRECTIONAL: i32 = 2;
/** Turns below this (radians) are not bends (collinear points). */
const MIN_TURN: f64 = 1e-7;

/** f64 per program step written by bendProgram (see bendProgramPtr). */
const PS: usize = 8;

let progPtr: usize = 0;
let errIndex: i32 = -1;

/** Program rows: feed, rotate, bend (deg, signed), straight, arc, design turn (deg), corner point index, capped (0/1). */
export function bendProgramPtr(): usize {
  return progPtr;
}
/** The input point index of the corner that failed (-3), else -1. */
export function bendErrorIndex(): i32 {
  return errIndex;
}

@inline function ld(p: usize, i: usize): f64 {
  return load<f64>(p + (i << 3));
}
@inline function st(p: usize, i: usize, v: f64): void {
  store<f64>(p + (i << 3), v);
}

/**
 * Inverse kinematics: `count` xyz f64 points (corners of the centreline, mm) -> program steps,
 * one per bend plus the final straight. Returns the step count, or -1 bad input, -2 no length,
 * -3 a segment too short for the arcs at its ends (bendErrorIndex(): its first point), -4 out of memory.
 * Turns above capDeg are bent at capDeg (marked capped).
 */
export function bendProgram(pts: usize, count: i32, radius: f64, capDeg: f64, flags: i32): i32 {
  errIndex = -1;
  progPtr = 0;
  if (count < 1 || !(radius >= 0) || !isFinite(radius) || !(capDeg > 0)) return -1;
  // Unique points: segment directions and lengths.
  const n = <usize>count;
  const seg = arenaAlloc(n * 5 * 8); // dx dy dz len startIndex
  if (seg == 0) return -4;
  let segs: usize = 0;
  let lastI: usize = 0;
  for (let i: usize = 1; i < n; i++) {
    const dx = ld(pts, i * 3) - ld(pts, lastI * 3);
    const dy = ld(pts, i * 3 + 1) - ld(pts, lastI * 3 + 1);
    const dz = ld(pts, i * 3 + 2) - ld(pts, lastI * 3 + 2);
    const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (!isFinite(len)) return -1;
    if (len < 1e-9) continue;
    const o = seg + segs * 40;
    st(o, 0, dx / len);
    st(o, 1, dy / len);
    st(o, 2, dz / len);
    st(o, 3, len);
    st(o, 4, <f64>i); // the segment's end point index (the corner after it)
    segs++;
    lastI = i;
  }
  if (segs == 0) return -2;
  progPtr = arenaAlloc((segs + 1) * PS * 8);
  if (progPtr == 0) return -4;
  const capRad = capDeg * DEG;
  const withArc = (flags & FLAG_FEED_ARC) != 0;
  const both = (flags & FLAG_BIDIRECTIONAL) != 0;
  // Moving frame at the wire's end: t along the wire, n the current bend direction.
  let tx = ld(seg, 0), ty = ld(seg, 1), tz = ld(seg, 2);
  let nx: f64 = 0, ny: f64 = 0, nz: f64 = 0;
  let haveN = false;
  let pending: f64 = 0;
  let tStart: f64 = 0;
  let steps: usize = 0;
  for (let j: usize = 0; j < segs; j++) {
    const o = seg + j * 40;
    const len = ld(o, 3);
    let turn: f64 = 0;
    let ux: f64 = 0, uy: f64 = 0, uz: f64 = 0;
    if (j + 1 < segs) {
      const q = o + 40;
      const qx = ld(q, 0), qy = ld(q, 1), qz = ld(q, 2);
      const c = tx * qx + ty * qy + tz * qz;
      // Perpendicular part of the next direction: where the wire turns.
      ux = qx - c * tx;
      uy = qy - c * ty;
      uz = qz - c * tz;
      const ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
      turn = Math.atan2(ul, c);
      if (ul > 1e-12) {
        ux /= ul;
        uy /= ul;
        uz /= ul;
      } else if (haveN) {
        ux = nx;
        uy = ny;
        uz = nz;
      } else {
        // A reversal as the first bend: any plane; take one perpendicular to t.
        if (Math.abs(tx) < 0.9) {
          ux = 0; uy = -tz; uz = ty;
        } else {
          ux = tz; uy = 0; uz = -tx;
        }
        const l2 = Math.sqrt(ux * ux + uy * uy + uz * uz);
        ux /= l2; uy /= l2; uz /= l2;
      }
    }
    const isBend = turn > MIN_TURN;
    const bent = isBend ? Math.min(turn, capRad) : 0.0;
    const tEnd = isBend ? radius * Math.tan(bent * 0.5) : 0.0;
    let s = len - tStart - tEnd;
    if (s < 0) {
      if (s < -1e-6 * Math.max(1.0, len)) {
        errIndex = j == 0 ? 0 : <i32>ld(o - 40, 4); // the segment's first point
        return -3;
      }
      s = 0;
    }
    pending += s;
    if (!isBend) {
      tStart = 0;
      continue;
    }
    if (!haveN) {
      nx = ux; ny = uy; nz = uz;
      haveN = true;
    }
    // Signed angle phi from n to u about t; the head's rotate is -phi (see the header).
    const cx = ny * uz - nz * uy, cy = nz * ux - nx * uz, cz = nx * uy - ny * ux;
    let phi = Math.atan2(cx * tx + cy * ty + cz * tz, nx * ux + ny * uy + nz * uz);
    let sign: f64 = 1;
    if (both) {
      // rotate = -phi must land in (-90, 90]: phi in [-90, 90).
      if (phi >= Math.PI * 0.5 - 1e-9) {
        phi -= Math.PI;
        sign = -1;
      } else if (phi < -Math.PI * 0.5 - 1e-9) {
        phi += Math.PI;
        sign = -1;
      }
    }
    let rot = -phi / DEG;
    if (rot <= -180) rot += 360;
    if (Math.abs(rot) < 1e-9) rot = 0;
    // New bend direction: n rotated by phi about t.
    const cp = Math.cos(phi), sp = Math.sin(phi);
    const bx = ty * nz - tz * ny, by = tz * nx - tx * nz, bz = tx * ny - ty * nx; // t x n
    const mx = cp * nx + sp * bx, my = cp * ny + sp * by, mz = cp * nz + sp * bz;
    const beta = sign * bent;
    const row = progPtr + steps * PS * 8;
    const arc = radius * bent;
    st(row, 0, withArc ? pending + arc : pending);
    st(row, 1, rot);
    st(row, 2, beta / DEG);
    st(row, 3, pending);
    st(row, 4, arc);
    st(row, 5, turn / DEG);
    st(row, 6, ld(o, 4));
    st(row, 7, turn > capRad ? 1.0 : 0.0);
    steps++;
    pending = 0;
    // Transport the frame through the bend (rotation about t x n by beta), then follow the design
    // direction (differs only when capped) and keep n perpendicular to it.
    const cb = Math.cos(beta), sb = Math.sin(beta);
    let n2x = -sb * tx + cb * mx, n2y = -sb * ty + cb * my, n2z = -sb * tz + cb * mz;
    const q = o + 40;
    tx = ld(q, 0);
    ty = ld(q, 1);
    tz = ld(q, 2);
    const d = n2x * tx + n2y * ty + n2z * tz;
    n2x -= d * tx;
    n2y -= d * ty;
    n2z -= d * tz;
    const nl = Math.sqrt(n2x * n2x + n2y * n2y + n2z * n2z);
    if (nl > 1e-12) {
      nx = n2x / nl; ny = n2y / nl; nz = n2z / nl;
    } else {
      nx = mx; ny = my; nz = mz;
    }
    tStart = tEnd;
  }
  const row = progPtr + steps * PS * 8;
  st(row, 0, pending);
  st(row, 1, 0);
  st(row, 2, 0);
  st(row, 3, pending);
  st(row, 4, 0);
  st(row, 5, 0);
  st(row, 6, <f64>(count - 1));
  st(row, 7, 0);
  return <i32>(steps + 1);
}

// ---- Forward kinematics in the head's frame ----------------------------------------------
// The wire is a polyline from its tip (first fed, the design's first point) to the die exit
// (the origin, always the last point). Tracked points (the tip, each bend's virtual corner: the
// meeting point of the tangent lines) move with the wire.

let simPts: usize = 0;
let simCount: i32 = 0;
let simCap: i32 = 0;
let trkPts: usize = 0;
let trkCount: i32 = 0;
let snapPts: usize = 0;
let snapTrk: usize = 0;
let hitStep: i32 = -1;
let hitPhase: i32 = 0;
let hitAngle: f64 = 0;
let hitX: f64 = 0;
let hitY: f64 = 0;
let hitZ: f64 = 0;

/** xyz f64 polyline of the simulated wire (tip first, the die exit last). */
export function bendSimPointsPtr(): usize {
  return simPts;
}
export function bendSimPointCount(): i32 {
  return simCount;
}
/** xyz f64: the tip, then each bend's corner (tangent lines' meeting point), then the die exit. */
export function bendSimCornersPtr(): usize {
  return trkPts;
}
export function bendSimCornerCount(): i32 {
  return trkCount;
}
/** bendCollide: 1 feed, 2 rotate, 3 bend; the angle reached (deg); the wire point inside the head. */
export function bendHitPhase(): i32 {
  return hitPhase;
}
export function bendHitAngle(): f64 {
  return hitAngle;
}
export function bendHitPoint(axis: i32): f64 {
  return axis == 0 ? hitX : axis == 1 ? hitY : hitZ;
}

function simInit(steps: usize, n: i32, arcSegDeg: f64, flags: i32): i32 {
  // Capacity: one point per feed (two with the drawn arc), arc samples, the first point.
  let cap: f64 = 2;
  for (let i = 0; i < n; i++) {
    const b = Math.abs(ld(steps, <usize>i * 4 + 3));
    const over = Math.abs(ld(steps, <usize>i * 4 + 2));
    cap += 3 + Math.ceil(Math.max(b, over) / arcSegDeg);
  }
  if (cap > 5e7) return -1;
  simCap = <i32>cap;
  simPts = arenaAlloc(<usize>simCap * 24);
  snapPts = arenaAlloc(<usize>simCap * 24);
  trkPts = arenaAlloc(<usize>(n + 2) * 24);
  snapTrk = arenaAlloc(<usize>(n + 2) * 24);
  if (simPts == 0 || snapPts == 0 || trkPts == 0 || snapTrk == 0) return -4;
  simCount = 1;
  st(simPts, 0, 0); st(simPts, 1, 0); st(simPts, 2, 0);
  trkCount = 1;
  st(trkPts, 0, 0); st(trkPts, 1, 0); st(trkPts, 2, 0);
  return 0;
}

function simFeed(f: f64): void {
  if (f <= 0) return;
  for (let i = 0; i < simCount; i++) st(simPts, <usize>i * 3, ld(simPts, <usize>i * 3) + f);
  for (let i = 0; i < trkCount; i++) st(trkPts, <usize>i * 3, ld(trkPts, <usize>i * 3) + f);
  const o = <usize>simCount * 3;
  st(simPts, o, 0); st(simPts, o + 1, 0); st(simPts, o + 2, 0);
  simCount++;
}

/** Head turns by +deg about +X: the wire, in the head's frame, by -deg. From src buffers into the live ones. */
function rotateFrom(srcP: usize, srcT: usize, deg: f64): void {
  const c = Math.cos(deg * DEG), s = Math.sin(deg * DEG);
  for (let i = 0; i < simCount; i++) {
    const o = <usize>i * 3;
    const y = ld(srcP, o + 1), z = ld(srcP, o + 2);
    st(simPts, o, ld(srcP, o));
    st(simPts, o + 1, y * c + z * s);
    st(simPts, o + 2, -y * s + z * c);
  }
  for (let i = 0; i < trkCount; i++) {
    const o = <usize>i * 3;
    const y = ld(srcT, o + 1), z = ld(srcT, o + 2);
    st(trkPts, o, ld(srcT, o));
    st(trkPts, o + 1, y * c + z * s);
    st(trkPts, o + 2, -y * s + z * c);
  }
}

@inline function bendPoint(src: usize, dst: usize, o: usize, w: f64, R: f64, sg: f64, c: f64, s: f64): void {
  // Material beyond the wrapped length w: back by w along X, then about the die centre (0, sg*R).
  const x = ld(src, o) - w, y = ld(src, o + 1) - sg * R;
  st(dst, o, x * c - y * s);
  st(dst, o + 1, x * s + y * c + sg * R);
  st(dst, o + 2, ld(src, o + 2));
}

/**
 * Bends by `deg` from the snapshot taken before the bend (snapCount points, the last at the die
 * exit): every point but the last moves rigidly, the last `R*|deg|` of material wraps the die.
 */
function bendFrom(snapCount: i32, snapTrkCount: i32, deg: f64, R: f64, arcSegDeg: f64): void {
  const sg: f64 = deg < 0 ? -1 : 1;
  const a = Math.abs(deg) * DEG;
  const w = R * a;
  const c = Math.cos(deg * DEG), s = Math.sin(deg * DEG);
  for (let i = 0; i < snapCount - 1; i++) bendPoint(snapPts, simPts, <usize>i * 3, w, R, sg, c, s);
  for (let i = 0; i < snapTrkCount; i++) bendPoint(snapTrk, trkPts, <usize>i * 3, w, R, sg, c, s);
  trkCount = snapTrkCount;
  // The arc, from the end of the wrap back to the die exit.
  let k = <i32>Math.ceil(Math.abs(deg) / arcSegDeg);
  if (w <= 0) k = 0;
  let m = snapCount - 1;
  for (let j = k - 1; j >= 0; j--) {
    const psi = (a * <f64>j) / <f64>k;
    const o = <usize>m * 3;
    st(simPts, o, R * Math.sin(psi));
    st(simPts, o + 1, sg * R * (1 - Math.cos(psi)));
    st(simPts, o + 2, 0);
    m++;
  }
  if (k == 0) {
    const o = <usize>m * 3;
    st(simPts, o, 0); st(simPts, o + 1, 0); st(simPts, o + 2, 0);
    m++;
  }
  simCount = m;
}

function snapshot(): void {
  memory.copy(snapPts, simPts, <usize>simCount * 24);
  memory.copy(snapTrk, trkPts, <usize>trkCount * 24);
}

function addCorner(deg: f64, R: f64): void {
  const o = <usize>trkCount * 3;
  st(trkPts, o, R * Math.tan(Math.abs(deg) * DEG * 0.5));
  st(trkPts, o + 1, 0);
  st(trkPts, o + 2, 0);
  trkCount++;
}

function finishCorners(): void {
  const o = <usize>trkCount * 3;
  st(trkPts, o, 0); st(trkPts, o + 1, 0); st(trkPts, o + 2, 0);
  trkCount++;
}

/** Does the wire (segments, inflated by r) meet one of the boxes (f64 xmin ymin zmin xmax ymax zmax)? */
function touches(boxes: usize, boxCount: i32, r: f64): bool {
  for (let b = 0; b < boxCount; b++) {
    const o = boxes + <usize>b * 48;
    const x0 = ld(o, 0) - r, y0 = ld(o, 1) - r, z0 = ld(o, 2) - r;
    const x1 = ld(o, 3) + r, y1 = ld(o, 4) + r, z1 = ld(o, 5) + r;
    for (let i = 0; i + 1 < simCount; i++) {
      const p = <usize>i * 3;
      const ax = ld(simPts, p), ay = ld(simPts, p + 1), az = ld(simPts, p + 2);
      const dx = ld(simPts, p + 3) - ax, dy = ld(simPts, p + 4) - ay, dz = ld(simPts, p + 5) - az;
      // Slab test of the segment a + t d, t in [0, 1].
      let t0: f64 = 0, t1: f64 = 1;
      let ok = true;
      for (let axis = 0; axis < 3 && ok; axis++) {
        const s = axis == 0 ? ax : axis == 1 ? ay : az;
        const d = axis == 0 ? dx : axis == 1 ? dy : dz;
        const lo = axis == 0 ? x0 : axis == 1 ? y0 : z0;
        const hi = axis == 0 ? x1 : axis == 1 ? y1 : z1;
        if (Math.abs(d) < 1e-15) {
          if (s <= lo || s >= hi) ok = false;
        } else {
          let ta = (lo - s) / d, tb = (hi - s) / d;
          if (ta > tb) {
            const tmp = ta; ta = tb; tb = tmp;
          }
          if (ta > t0) t0 = ta;
          if (tb < t1) t1 = tb;
          if (t0 >= t1) ok = false;
        }
      }
      if (ok) {
        const tm = (t0 + t1) * 0.5;
        hitX = ax + tm * dx;
        hitY = ay + tm * dy;
        hitZ = az + tm * dz;
        return true;
      }
    }
  }
  return false;
}

/**
 * Forward kinematics. `steps`: n rows of 4 f64 { feed, rotate, bendReached, bend }: the head
 * bends to bendReached (the compensated angle; the collision sweep goes that far), the wire keeps
 * bend (after springback). Simulates the first `upto` steps (all when upto < 0 or > n).
 * With boxCount > 0 checks the wire against the boxes (inflated by wireRadius) after each feed
 * and through every rotation and bend in increments of at most sweepDeg; stops at the first
 * contact. Returns the steps done (n or upto), the 0-based colliding step as -(step + 10) on
 * contact, -1 bad input, -2 a feed shorter than its arc material, -4 out of memory.
 */
export function bendSimulate(
  steps: usize, n: i32, radius: f64, flags: i32, arcSegDeg: f64, upto: i32,
  boxes: usize, boxCount: i32, wireRadius: f64, sweepDeg: f64,
): i32 {
  hitStep = -1;
  hitPhase = 0;
  hitAngle = 0;
  simCount = 0;
  trkCount = 0;
  if (n < 0 || !(radius >= 0) || !(arcSegDeg > 0) || (boxCount > 0 && !(sweepDeg > 0))) return -1;
  for (let i = 0; i < n * 4; i++) if (!isFinite(ld(steps, <usize>i))) return -1;
  const r = simInit(steps, n, arcSegDeg, flags);
  if (r < 0) return r;
  const last = upto < 0 || upto > n ? n : upto;
  const withArc = (flags & FLAG_FEED_ARC) != 0;
  for (let i = 0; i < last; i++) {
    const row = steps + <usize>i * 32;
    const feed = ld(row, 0), rot = ld(row, 1), over = ld(row, 2), bend = ld(row, 3);
    const arc = radius * Math.abs(bend) * DEG;
    if (withArc && bend != 0 && feed < arc - 1e-9) return -2;
    if (feed < 0) return -1;
    simFeed(withArc ? feed - (bend != 0 ? arc : 0) : feed);
    if (bend != 0) simFeed(arc);
    if (boxCount > 0 && touches(boxes, boxCount, wireRadius)) {
      hitStep = i; hitPhase = 1;
      return -(i + 10);
    }
    if (rot != 0) {
      if (boxCount > 0) {
        snapshot();
        const k = <i32>Math.ceil(Math.abs(rot) / sweepDeg);
        for (let j = 1; j <= k; j++) {
          const ang = (rot * <f64>j) / <f64>k;
          rotateFrom(snapPts, snapTrk, ang);
          if (touches(boxes, boxCount, wireRadius)) {
            hitStep = i; hitPhase = 2; hitAngle = ang;
            return -(i + 10);
          }
        }
      } else {
        rotateFrom(simPts, trkPts, rot);
      }
    }
    if (bend != 0 || over != 0) {
      snapshot();
      const sc = simCount, tc = trkCount;
      if (boxCount > 0) {
        const k = <i32>Math.ceil(Math.abs(over) / sweepDeg);
        for (let j = 1; j <= k; j++) {
          const ang = (over * <f64>j) / <f64>k;
          bendFrom(sc, tc, ang, radius, arcSegDeg);
          if (touches(boxes, boxCount, wireRadius)) {
            hitStep = i; hitPhase = 3; hitAngle = ang;
            return -(i + 10);
          }
        }
      }
      bendFrom(sc, tc, bend, radius, arcSegDeg);
      if (bend != 0) addCorner(bend, radius);
    }
  }
  finishCorners();
  return last;
}
