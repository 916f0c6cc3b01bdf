// The 'fair' dab written plainly in JS (f64), as the worker ran it before the
// kernel did (assembly/smooth.ts smoothFairDab). The kernel must give the same
// positions bit for bit: saved strokes of brush 2 replay through it.

import type { MeshRef } from '../../workers/kernels/mesh.ts';
import { FAIR_STEPS } from '../../workers/kernels/smooth.ts';

const VF_BOUNDARY = 2;

/** Runs the dab on `m` (its topology ready) and returns the moved count; positions change in place. */
export function fairDabReference(m: MeshRef, seed: number, center: [number, number, number], radius: number, strength: number): number {
  const k = m.k;
  const [cx, cy, cz] = center;
  // The kernel's walk alone (no rounds) lists the vertices in the sphere, then their ring.
  const moved = k.smoothDab(seed, cx, cy, cz, radius, 1, 0, 0.5, -0.53);
  if (moved <= 0) return moved;
  const total = k.smoothTotalCount() >>> 0;
  const V = m.vertexCount;
  const buf = k.memory.buffer;
  const list = new Uint32Array(buf, k.smoothListPtr() >>> 0, total);
  const pos = new Float32Array(buf, m.positionsPtr, V * 3);
  const offsets = new Uint32Array(buf, k.topoAdjacencyOffsetsPtr() >>> 0, V + 1);
  const neighbours = new Uint32Array(buf, k.topoAdjacencyPtr() >>> 0, k.topoAdjacencyCount() >>> 0);
  const flags = new Uint8Array(buf, k.topoVertexFlagsPtr() >>> 0, V);
  const slot = new Map<number, number>();
  const x = new Float64Array(total * 3);
  for (let i = 0; i < total; i++) {
    slot.set(list[i]!, i);
    for (let a = 0; a < 3; a++) x[i * 3 + a] = pos[list[i]! * 3 + a]!;
  }
  const x0 = x.slice(0, moved * 3);
  const inv2 = 1 / (radius * radius);
  const falloff = new Float64Array(moved);
  for (let i = 0; i < moved; i++) {
    const dx = x0[i * 3]! - cx, dy = x0[i * 3 + 1]! - cy, dz = x0[i * 3 + 2]! - cz;
    const f = Math.max(0, 1 - (dx * dx + dy * dy + dz * dz) * inv2);
    falloff[i] = flags[list[i]!]! & VF_BOUNDARY ? 0 : f * f;
  }
  const local: number[][] = [];
  const fixed = new Float64Array(total * 3);
  const inverseDegree = new Float64Array(total);
  for (let i = 0; i < total; i++) {
    const v = list[i]!;
    const a0 = offsets[v]!, a1 = offsets[v + 1]!;
    inverseDegree[i] = a1 > a0 ? 1 / (a1 - a0) : 0;
    local.push([]);
    for (let p = a0; p < a1; p++) {
      const w = neighbours[p]!;
      const s = slot.get(w);
      if (s !== undefined) local[i]!.push(s);
      else for (let a = 0; a < 3; a++) fixed[i * 3 + a]! += pos[w * 3 + a]!;
    }
  }
  const y = new Float64Array(total * 3);
  for (const t of FAIR_STEPS) {
    for (let i = 0; i < total; i++) {
      const inv = inverseDegree[i]!;
      if (inv === 0) continue;
      for (let a = 0; a < 3; a++) {
        let s = fixed[i * 3 + a]!;
        for (const j of local[i]!) s += x[j * 3 + a]!;
        y[i * 3 + a] = x[i * 3 + a]! - s * inv;
      }
    }
    for (let i = 0; i < moved; i++) {
      const w = t * falloff[i]!;
      const inv = inverseDegree[i]!;
      if (w === 0 || inv === 0) continue;
      for (let a = 0; a < 3; a++) {
        let s = 0;
        for (const j of local[i]!) s += y[j * 3 + a]!;
        x[i * 3 + a]! -= w * (y[i * 3 + a]! - s * inv);
      }
    }
  }
  const limit = radius / 4;
  for (let i = 0; i < moved; i++) {
    const d = [0, 1, 2].map((a) => x[i * 3 + a]! - x0[i * 3 + a]!);
    const length = Math.sqrt(d[0]! * d[0]! + d[1]! * d[1]! + d[2]! * d[2]!);
    const share = length > limit ? (strength * limit) / length : strength;
    for (let a = 0; a < 3; a++) pos[list[i]! * 3 + a] = x0[i * 3 + a]! + share * d[a]!;
  }
  return moved;
}
