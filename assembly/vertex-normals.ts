// The area-weighted vertex normal, shared by the STL parser (assembly/stl.ts)
// and the whole-mesh pass (assembly/mesh-ops.ts) so both give the same bits:
// per vertex the sum of its triangles' unnormalised cross products (twice
// the area, along the winding), summed in 16-byte slots, then normalised in
// f64; (0, 0, 1) when only degenerate triangles touch it.

/** Cross product of (b - a) and (c - a) in lanes 0..2; lane 3 is 0. */
@inline export function faceCross(a: v128, b: v128, c: v128): v128 {
  const e1 = f32x4.sub(b, a);
  const e2 = f32x4.sub(c, a);
  return v128.and(
    f32x4.sub(
      f32x4.mul(i32x4.shuffle(e1, e1, 1, 2, 0, 3), i32x4.shuffle(e2, e2, 2, 0, 1, 3)),
      f32x4.mul(i32x4.shuffle(e1, e1, 2, 0, 1, 3), i32x4.shuffle(e2, e2, 1, 2, 0, 3)),
    ),
    i32x4(-1, -1, -1, 0),
  );
}

/** True for a triangle that adds nothing: two corners the same vertex, or no area. */
@inline export function isDegenerate(ia: u32, ib: u32, ic: u32, n: v128): bool {
  return ia == ib || ib == ic || ia == ic || (i32x4.bitmask(f32x4.eq(n, f32x4.splat(0))) & 7) == 7;
}

/** Adds `n` to the sums (16 bytes per vertex at `acc`) of the triangle's three vertices. */
@inline export function addToCorners(acc: usize, ia: u32, ib: u32, ic: u32, n: v128): void {
  const na = acc + ((<usize>ia) << 4);
  const nb = acc + ((<usize>ib) << 4);
  const nc = acc + ((<usize>ic) << 4);
  v128.store(na, f32x4.add(v128.load(na), n));
  v128.store(nb, f32x4.add(v128.load(nb), n));
  v128.store(nc, f32x4.add(v128.load(nc), n));
}

/** Writes the unit normal of the sum at `ap` to `np` (xyz f32). */
@inline export function storeUnitNormal(ap: usize, np: usize): void {
  const nx = <f64>load<f32>(ap), ny = <f64>load<f32>(ap, 4), nz = <f64>load<f32>(ap, 8);
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (len > 0 && len < Infinity) {
    const inv = 1.0 / len;
    store<f32>(np, <f32>(nx * inv));
    store<f32>(np, <f32>(ny * inv), 4);
    store<f32>(np, <f32>(nz * inv), 8);
  } else {
    store<f32>(np, 0);
    store<f32>(np, 0, 4);
    store<f32>(np, 1, 8);
  }
}
