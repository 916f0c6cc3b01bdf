// The springback rule, one definition for the back office's device calibration
// (server/modules/device/device-config.ts validates a table with it), the bend kernels
// (workers/kernels/bend.ts compensates with it) and the editor (which refuses to bend with a table
// that breaks it). Pure: no DOM, worker or Node imports, and no zod (the geometry worker bundles it).
//
// A wire bent to angle a keeps a - springback. The back office stores a table per device and wire
// diameter: rows [targetAngle, springback] in degrees, angles strictly rising in 0..180. We bend
// to compensated = target + springback(target), springback interpolated linearly between rows and
// clamped outside them (the first row's value below it, the last row's above it: extrapolating a
// measured table past its ends tends to run away). Signed bends use |angle| and keep their sign.

/** What a stored table may hold (device config): its angles, springbacks and number of rows. */
export const SPRINGBACK_LIMITS = {
  /** Target angles (deg): a bend of 0..180. */
  minAngle: 0,
  maxAngle: 180,
  /** Springback at an angle (deg). */
  minSpringback: -90,
  maxSpringback: 90,
  /** One row per degree at most, both ends included. */
  minRows: 1,
  maxRows: 361,
} as const;

/** Rows of [targetAngle, springback], degrees. */
export type SpringbackTable = readonly (readonly [number, number])[];

/**
 * Why a table cannot be used, or null: each row a pair of finite numbers, angles rising, and the
 * compensated angle (angle + springback) rising with them (slope > -1), or two targets would
 * share one bend. The value ranges of a stored table are device-request.ts's springbackRowsSchema.
 */
export function springbackTableProblem(table: SpringbackTable): string | null {
  for (let i = 0; i < table.length; i++) {
    const [a, s] = table[i]!;
    if (!Number.isFinite(a) || !Number.isFinite(s)) return `row ${i + 1} is not a pair of numbers`;
    if (i > 0) {
      const [a0, s0] = table[i - 1]!;
      if (!(a > a0)) return `row ${i + 1}: angles must rise`;
      if (!(a + s > a0 + s0)) return `rows ${i}-${i + 1}: the compensated angle must rise with the target`;
    }
  }
  return null;
}

/** Springback (degrees) at |angle|: linear between rows, clamped outside; 0 with no table. */
export function springbackAt(table: SpringbackTable | undefined, angle: number): number {
  if (!table || table.length === 0) return 0;
  const a = Math.abs(angle);
  const first = table[0]!;
  const last = table[table.length - 1]!;
  if (a <= first[0]) return first[1];
  if (a >= last[0]) return last[1];
  let lo = 0;
  let hi = table.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (table[mid]![0] <= a) lo = mid;
    else hi = mid;
  }
  const [a0, s0] = table[lo]!;
  const [a1, s1] = table[hi]!;
  return s0 + ((s1 - s0) * (a - a0)) / (a1 - a0);
}

/** The angle to bend to so that the wire keeps `target`. */
export function compensateAngle(table: SpringbackTable | undefined, target: number): number {
  if (target === 0) return 0;
  return Math.sign(target) * (Math.abs(target) + springbackAt(table, target));
}

/**
 * The angle a wire keeps after being bent to `reached` (inverse of compensateAngle, exact on the
 * piecewise linear table; needs a table without springbackTableProblem).
 */
export function springbackResult(table: SpringbackTable | undefined, reached: number): number {
  if (reached === 0 || !table || table.length === 0) return reached;
  const c = Math.abs(reached);
  const f = (row: readonly [number, number]): number => row[0] + row[1];
  const first = table[0]!;
  const last = table[table.length - 1]!;
  let kept: number;
  if (c <= f(first)) kept = c - first[1];
  else if (c >= f(last)) kept = c - last[1];
  else {
    let i = 1;
    while (f(table[i]!) < c) i++;
    const [a0, s0] = table[i - 1]!;
    const [a1, s1] = table[i]!;
    const t = (c - (a0 + s0)) / (a1 + s1 - (a0 + s0));
    kept = a0 + t * (a1 - a0);
  }
  return Math.sign(reached) * kept;
}

/** One measurement of a calibration run: the wire bent to `commanded` kept `measured` (degrees). */
export interface SpringbackMeasurement {
  commanded: number;
  measured: number;
}

/**
 * A springback table from measurements (the machine's calibration app uploads them): the wire
 * bent to c kept m, so a target of m needs springback c - m. Repeated bends to one commanded
 * angle are averaged; the rows are sorted by the angle kept and rounded to 0.01°. The result is
 * held to the same rule as a table typed in the back office (device-request.ts springbackSchema),
 * which refuses, for instance, two commanded angles that kept the same angle.
 */
export function springbackFromMeasurements(points: readonly SpringbackMeasurement[]): [number, number][] {
  const byCommand = new Map<number, number[]>();
  for (const p of points) {
    const c = Math.round(p.commanded * 100) / 100;
    byCommand.set(c, [...(byCommand.get(c) ?? []), p.measured]);
  }
  const round = (v: number) => Math.round(v * 100) / 100;
  return [...byCommand]
    .map(([c, ms]): [number, number] => {
      // The springback of the rounded angle kept, so that angle plus springback is the command.
      const kept = round(ms.reduce((a, b) => a + b, 0) / ms.length);
      return [kept, round(c - kept)];
    })
    .sort((a, b) => a[0] - b[0]);
}
