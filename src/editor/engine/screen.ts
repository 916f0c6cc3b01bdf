// Canvas-pixel geometry the tools' hit tests share.

/** A point on the canvas, px. */
export interface ScreenPoint {
  x: number;
  y: number;
}

/** Distance from `p` to the segment `a`-`b` on the canvas, px. */
export function screenSegmentDistance(p: ScreenPoint, a: ScreenPoint, b: ScreenPoint): number {
  const dx = b.x - a.x, dy = b.y - a.y;
  const l2 = dx * dx + dy * dy;
  const t = l2 > 0 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2)) : 0;
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}
