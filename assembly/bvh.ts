// Placeholder: kernels of this area land here (see docs/geometry.md).
export function bvhAbiPlaceholder(): i32 {
  return 0;
}
