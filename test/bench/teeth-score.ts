// Scores a per-vertex teeth labelling against the truth (the goals):
// per-tooth IoU of the vertex labels, whether every tooth got its number, and
// the share of gum vertices (truth 0) left as gum. Used by the teeth harness
// (test/bench/teeth-measure.ts) and the kernel tests; pure, no I/O.

export interface ToothScore {
  /** Universal number in the truth. */
  number: number;
  /** |pred = n and truth = n| / |pred = n or truth = n|. */
  iou: number;
  /** The predicted label covering most of this truth tooth's vertices (0: gum). */
  bestLabel: number;
  truthVertices: number;
  predVertices: number;
}

export interface LabelScore {
  teeth: ToothScore[];
  meanIou: number;
  /** Every truth tooth's best overlap carries its own number, and no extra number is predicted. */
  numberingRight: boolean;
  /** Predicted numbers absent from the truth. */
  extraNumbers: number[];
  /** Truth-gum vertices predicted 0, over all truth-gum vertices. */
  gumAccuracy: number;
  /** Truth-tooth vertices predicted 0, over all truth-tooth vertices. */
  toothAsGum: number;
}

export function scoreLabels(truth: ArrayLike<number>, pred: ArrayLike<number>): LabelScore {
  if (truth.length !== pred.length) throw new Error(`label counts differ: truth ${truth.length}, predicted ${pred.length}`);
  // confusion[t * 33 + p]
  const conf = new Float64Array(33 * 33);
  for (let i = 0; i < truth.length; i++) conf[truth[i]! * 33 + pred[i]!]!++;
  const rowSum = (t: number): number => { let s = 0; for (let p = 0; p < 33; p++) s += conf[t * 33 + p]!; return s; };
  const colSum = (p: number): number => { let s = 0; for (let t = 0; t < 33; t++) s += conf[t * 33 + p]!; return s; };
  const teeth: ToothScore[] = [];
  let numberingRight = true;
  for (let n = 1; n <= 32; n++) {
    const tv = rowSum(n);
    if (tv === 0) continue;
    const pv = colSum(n);
    const inter = conf[n * 33 + n]!;
    let best = 0, bestCount = -1;
    for (let p = 0; p < 33; p++) if (conf[n * 33 + p]! > bestCount) { bestCount = conf[n * 33 + p]!; best = p; }
    if (best !== n) numberingRight = false;
    teeth.push({ number: n, iou: inter / (tv + pv - inter), bestLabel: best, truthVertices: tv, predVertices: pv });
  }
  const extraNumbers: number[] = [];
  for (let p = 1; p <= 32; p++) if (rowSum(p) === 0 && colSum(p) > 0) extraNumbers.push(p);
  if (extraNumbers.length) numberingRight = false;
  const gum = rowSum(0);
  let toothTotal = 0, toothGum = 0;
  for (let n = 1; n <= 32; n++) { toothTotal += rowSum(n); toothGum += conf[n * 33]!; }
  return {
    teeth,
    meanIou: teeth.reduce((s, t) => s + t.iou, 0) / Math.max(1, teeth.length),
    numberingRight,
    extraNumbers,
    gumAccuracy: gum ? conf[0]! / gum : 1,
    toothAsGum: toothTotal ? toothGum / toothTotal : 0,
  };
}

export function formatScore(name: string, s: LabelScore): string {
  const per = s.teeth.map((t) => `${t.number}:${t.iou.toFixed(3)}${t.bestLabel !== t.number ? `(->${t.bestLabel})` : ''}`).join(' ');
  return `${name}: mean IoU ${s.meanIou.toFixed(4)}, numbering ${s.numberingRight ? 'right' : 'WRONG'}` +
    `${s.extraNumbers.length ? ` (extra ${s.extraNumbers.join(',')})` : ''}, gum ${(100 * s.gumAccuracy).toFixed(2)} %, ` +
    `tooth as gum ${(100 * s.toothAsGum).toFixed(2)} %\n  ${per}`;
}
