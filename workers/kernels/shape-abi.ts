// Raw exports of assembly/shape.ts (straightening and simplification), typed for JS.
// Pointers and u32 counts come back as i32: read them with `>>> 0`.

export interface ShapeExports {
  shapeAbiPlaceholder(): number;
}
