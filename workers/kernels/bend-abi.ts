// Raw exports of assembly/bend.ts (bending programs: wire kinematics), typed for JS.
// Pointers come back as i32: read them with `>>> 0`. See workers/kernels/bend.ts.

export interface BendExports {
  /** Design corners (xyz f64) -> program rows; the step count or -1 bad input, -2 no length, -3 corners too close, -4 out of memory. */
  bendProgram(pts: number, count: number, radius: number, capDeg: number, flags: number): number;
  /** f64[8] per step: feed, rotate, bend, straight, arc, design turn, corner index, capped. */
  bendProgramPtr(): number;
  /** The first point of the too-short segment of a -3 from bendProgram. */
  bendErrorIndex(): number;
  /** Forward kinematics (and collision sweep with boxCount > 0); steps are f64[4] { feed, rotate, bendReached, bend }. */
  bendSimulate(
    steps: number, n: number, radius: number, flags: number, arcSegDeg: number, upto: number,
    boxes: number, boxCount: number, wireRadius: number, sweepDeg: number,
  ): number;
  bendSimPointsPtr(): number;
  bendSimPointCount(): number;
  bendSimCornersPtr(): number;
  bendSimCornerCount(): number;
  /** 1 feed, 2 rotate, 3 bend. */
  bendHitPhase(): number;
  bendHitAngle(): number;
  bendHitPoint(axis: number): number;
}
