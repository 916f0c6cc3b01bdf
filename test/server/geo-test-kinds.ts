// Thread-side functions of the job runner's test kinds (test/server/geo-jobs.test.ts). Each runs
// in a worker thread; `input` is the job's input.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sleeps input.ms, reporting progress in ten steps; answers { slept }. */
export async function sleepy(input: { ms: number; tag?: string }, progress: (f: number) => void) {
  for (let i = 1; i <= 10; i++) {
    await sleep(input.ms / 10);
    progress(i / 10);
  }
  return { slept: input.ms, tag: input.tag ?? null };
}

/** Busy for input.ms of CPU in its thread (the HTTP loop must not notice). */
export async function spin(input: { ms: number }) {
  const end = Date.now() + input.ms;
  let x = 0;
  while (Date.now() < end) x += Math.sqrt(x + 1);
  return { x: x > 0 };
}

/** Throws on its first attempt (input.marker: a file that exists after the first try). */
export async function failOnce(input: { marker: string }) {
  const fs = await import('node:fs');
  if (!fs.existsSync(input.marker)) {
    fs.writeFileSync(input.marker, '1');
    throw new Error('first attempt fails');
  }
  return { second: true };
}

export async function failAlways(): Promise<never> {
  throw new Error('the kernel said no');
}

/** Kills its thread without an answer. */
export async function crash(): Promise<never> {
  process.exit(3);
}

/** Reports half progress, then stays busy forever (a timer keeps its thread alive until it is stopped). */
export async function hang(_input: unknown, progress: (f: number) => void) {
  progress(0.5);
  await new Promise(() => setInterval(() => {}, 1000));
}

/** A bite registration that answers at once (the lifecycle tests' stand-in for the kernel). */
export async function fakeBite(input: { upper: string }, progress: (f: number) => void) {
  progress(0.5);
  const m = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  return { upper: m, lower: m, rms: 0.05, overlap: 0.8, penetration: 0.1, ms: input.upper.length };
}

/** A registration that finds no fit: a result with its error, not a throw. */
export async function fakeBitePoor() {
  const m = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  return { upper: m, lower: m, rms: 9, overlap: 0.01, penetration: 0, error: 'the bite scan does not fit the models', code: 'BITE_POOR_FIT' };
}

/** Stored teeth that answer at once (the automatic design tests' stand-in for the segmentation). */
export async function fakeTeeth(input: { jaw: 'upper' | 'lower' }) {
  return { jaw: input.jaw, vertexCount: 0, labels: '', teeth: [], arch: [] };
}

/**
 * An engine that designs one wire per prescribed wire (tests of server/modules/ai): each marked
 * `ai: { accepted: false }`, with a report; it sleeps a little so that `processing` can be seen,
 * and refuses to run without the stored teeth (it must run after the teeth job).
 */
export async function fakeAutodesign(
  input: { orderId: number; upper: { teeth: unknown } | null; lower: { teeth: unknown } | null; prescription: { upper: { wires: { type: string; teeth: number[] }[] } | null } },
  progress: (f: number) => void,
) {
  if (input.upper && !input.upper.teeth) throw new Error('no stored teeth for the upper jaw');
  progress(0.5);
  await sleep(300);
  const wires = (input.prescription.upper?.wires ?? []).map((w, i) => ({ id: `ai-${i}`, type: w.type, teeth: w.teeth, ai: { accepted: false } }));
  return {
    design: { schemaVersion: 1, wires },
    report: wires.map((w) => ({ wireId: w.id, jaw: 'upper', type: w.type, teeth: w.teeth, ok: true })),
  };
}

/**
 * An engine that leaves the last prescribed upper wire out (AI detection failed on its first
 * tooth) and reports the base holding the first wire's tag short, as the built-in engine does.
 */
export async function fakeAutodesignLeftOut(input: { prescription: { upper: { wires: { type: string; teeth: number[] }[] } | null } }) {
  const prescribed = input.prescription.upper?.wires ?? [];
  const made = prescribed.slice(0, -1).map((w, i) => ({ id: `ai-${i}`, type: w.type, jaw: 'upper', teeth: w.teeth, ai: { accepted: false } }));
  const last = prescribed.at(-1)!;
  return {
    design: { schemaVersion: 1, wires: made },
    report: [
      ...made.map((w) => ({ wireId: w.id, jaw: 'upper', type: w.type, teeth: w.teeth, status: 'placed', tipUndercut: 0.25, detail: 'not kept' })),
      { jaw: 'upper', type: last.type, teeth: last.teeth, status: 'failed', code: 'DETECTION_FAILED', tooth: last.teeth[0], message: `AI detection failed on tooth ${last.teeth[0]}`, detail: 'not kept' },
    ],
    bases: [{ jaw: 'upper', status: 'generated', volume: 1234, slots: [{ wireId: 'ai-0', status: 'cut' }], tags: [{ wireId: 'ai-0', inside: 0.2, outside: 1 }] }],
  };
}

/** An engine whose design is good but whose report is not (a failure of an unknown code). */
export async function fakeAutodesignBadReport() {
  return { design: { schemaVersion: 1, wires: [] }, report: [{ jaw: 'upper', type: 'labialBow', teeth: [6, 11], status: 'failed', code: 'TOO_HARD' }], bases: [] };
}

/** An engine that answers something that is no design. */
export async function fakeAutodesignJunk() {
  return { design: { schemaVersion: 99, wires: [] }, report: [] };
}
