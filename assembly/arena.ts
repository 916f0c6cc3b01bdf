// Bump arena over the module's linear memory.
//
// Everything a kernel keeps lives in this arena: input bytes, welded meshes,
// hash tables. There is no free(): the worker resets the arena (or releases to
// a mark) between jobs. Allocations are 16-byte aligned and followed by at
// least 16 bytes of addressable memory so that SIMD loads may over-read the
// last element.

const ALIGN: usize = 16;
const PAD: usize = 16;
// Stay well below the 4 GiB wasm32 limit so that size arithmetic cannot wrap.
const MAX_TOP: usize = 0xF000_0000;

let base: usize = 0;
let top: usize = 0;

@inline function init(): void {
  if (base == 0) {
    base = (__heap_base + ALIGN - 1) & ~(ALIGN - 1);
    top = base;
  }
}

/** Allocates `size` bytes; returns 0 when memory cannot grow that far. */
export function arenaAlloc(size: usize): usize {
  init();
  const ptr = (top + ALIGN - 1) & ~(ALIGN - 1);
  if (size > MAX_TOP - ptr - PAD) return 0;
  const end = ptr + size + PAD;
  const havePages = <usize>memory.size();
  const needPages = (end + 0xFFFF) >>> 16;
  if (needPages > havePages) {
    if (memory.grow(<i32>(needPages - havePages)) < 0) return 0;
  }
  top = ptr + size;
  return ptr;
}

/** Forgets every allocation. Memory is not shrunk and not cleared. */
export function arenaReset(): void {
  init();
  top = base;
}

/** Current top of the arena; pass it to arenaRelease() to drop later allocations. */
export function arenaMark(): usize {
  init();
  return top;
}

export function arenaRelease(mark: usize): void {
  init();
  if (mark >= base && mark <= top) top = mark;
}

/** Bytes in use. */
export function arenaUsed(): usize {
  init();
  return top - base;
}
