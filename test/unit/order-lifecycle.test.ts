// The order lifecycle's pure parts: two bite scans merged into one binary STL (the order form),
// the design rule check of a document's wires, and submit / reopen / "start from this design"
// of the editor's OrderLifecycle against stand-ins of the autosave and the back end.
import { describe, expect, it } from 'vitest';
import { mergeBinaryStl, mergedName, StlMergeError, stlKind, triangleCount } from '../../src/geometry/stlMerge.ts';
import { designChecks, OrderLifecycle, type DrcIssue, type LifecycleHost, type LifecyclePort, type SaveHandle } from '../../src/editor/order/lifecycle.ts';
import type { DesignDocument, WireDesign } from '../../src/editor/engine/document.ts';
import type { AutosaveState } from '../../src/editor/engine/autosave.ts';
import type { BendCheckResult } from '../../src/geometry/client.ts';
import { ORDER_STATUS, type OrderStatus } from '../../common/orders.ts';
import { asciiStl, binaryStl, cubeTriangles, sphereTriangles } from '../fixtures/stl.ts';

describe('two bite scans become one occlusion model', () => {
  it('binary files are concatenated record-wise: one file, every triangle, each scan a shell of its own', () => {
    const left = binaryStl(cubeTriangles(10, [-20, 0, 0]));
    const right = binaryStl(sphereTriangles(5, 16, 8, [20, 0, 0]));
    const merged = mergeBinaryStl([
      { name: 'bite-left.stl', bytes: left },
      { name: 'bite-right.stl', bytes: right },
    ]);
    expect(stlKind(merged)).toBe('binary');
    expect(triangleCount(merged)).toBe(triangleCount(left) + triangleCount(right));
    expect(merged.byteLength).toBe(84 + 50 * (triangleCount(left) + triangleCount(right)));
    // The records are the originals, in order.
    expect(merged.subarray(84, 84 + left.byteLength - 84)).toEqual(left.subarray(84));
    expect(merged.subarray(84 + left.byteLength - 84)).toEqual(right.subarray(84));
    // The header never starts with "solid" (readers would take it for ASCII).
    expect(new TextDecoder().decode(merged.subarray(0, 5))).not.toBe('solid');
    expect(mergedName(['bite-left.stl', 'bite-right.STL'])).toBe('bite-left+bite-right.stl');
    expect(mergedName(['one.stl'])).toBe('one.stl');
  });

  it('an ASCII or unreadable scan is refused, naming the file', () => {
    const binary = binaryStl(cubeTriangles());
    const ascii = asciiStl(cubeTriangles());
    expect(stlKind(ascii)).toBe('ascii');
    const attempt = (parts: { name: string; bytes: Uint8Array }[]) => {
      try {
        mergeBinaryStl(parts);
        return null;
      } catch (e) {
        return e instanceof StlMergeError ? e.detail : e;
      }
    };
    expect(attempt([{ name: 'a.stl', bytes: binary }, { name: 'b.stl', bytes: ascii }])).toEqual({ code: 'STL_MERGE_ASCII', name: 'b.stl' });
    expect(attempt([{ name: 'junk.stl', bytes: new Uint8Array(100).fill(7) }])).toEqual({ code: 'STL_MERGE_INVALID', name: 'junk.stl' });
    expect(attempt([])).toEqual({ code: 'STL_MERGE_EMPTY' });
  });
});

const wire = (id: string): WireDesign => ({ id, type: 'singleArmClasp', jaw: 'upper', diameter: 0.8 as never, clearance: 0.1 as never, points: [], anchors: [] });
const result = (issues: { code: string; severity: 'error' | 'warning'; message: string }[]): BendCheckResult =>
  ({ program: null, ok: !issues.some((i) => i.severity === 'error'), issues: issues.map((i) => ({ ...i, messageKey: i.message })) }) as unknown as BendCheckResult;

describe('the design rule check', () => {
  it('errors fail it, warnings are listed, an unchecked wire is an error', () => {
    const checks: Record<string, BendCheckResult | null> = {
      a: result([{ code: 'WRAPAROUND_FIRST_LONG', severity: 'warning', message: 'long' }]),
      b: result([{ code: 'ARC_TOO_SHARP', severity: 'error', message: 'sharp' }]),
      c: null,
    };
    expect(designChecks([wire('a')], (id) => checks[id]!)).toEqual({ passed: true, issues: [{ code: 'WRAPAROUND_FIRST_LONG', severity: 'warning', message: 'long', wireId: 'a' }] });
    const failed = designChecks([wire('a'), wire('b'), wire('c')], (id) => checks[id] ?? null);
    expect(failed.passed).toBe(false);
    expect(failed.issues.map((i) => [i.wireId, i.code])).toEqual([
      ['a', 'WRAPAROUND_FIRST_LONG'],
      ['b', 'ARC_TOO_SHARP'],
      ['c', 'WIRE_NOT_CHECKED'],
    ]);
  });
});

function setup(opts: { wires?: WireDesign[]; checks?: Record<string, BendCheckResult>; version?: number; dirty?: boolean; status?: OrderStatus } = {}) {
  const log: string[] = [];
  let doc: DesignDocument = { schemaVersion: 1, measurements: [], wires: opts.wires ?? [wire('w1')], bite: { upper: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], lower: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], source: 'auto' } };
  let saveState: AutosaveState = { status: 'saved', version: opts.version ?? 3, message: null, savedAt: null };
  let dirty = opts.dirty ?? false;
  const save: SaveHandle = {
    getState: () => saveState,
    get dirty() {
      return dirty;
    },
    flush: async (force) => {
      log.push(`flush:${force ? 'force' : ''}`);
      saveState = { ...saveState, status: 'saved', version: saveState.version + 1 };
      dirty = false;
    },
  };
  const host: LifecycleHost = {
    document: () => doc,
    checksSettled: async () => void log.push('checks'),
    check: (id) => opts.checks?.[id] ?? result([]),
    change: (label, next) => {
      log.push(`change:${label}`);
      doc = next;
    },
    needsSave: () => false,
  };
  const drc: { designVersion: number; passed: boolean; issues: DrcIssue[] }[] = [];
  const port: LifecyclePort = {
    updateDrc: async (body) => void drc.push(body),
    submit: async (orderId) => void log.push(`submit:${orderId}`),
    reopen: async (orderId) => void log.push(`reopen:${orderId}`),
    status: async () => ORDER_STATUS.processed,
    design: async (orderId) => ({ data: { schemaVersion: 1, measurements: [], wires: [wire(`from-${orderId}`)], bite: { upper: [2], lower: [2] } } }),
  };
  const lifecycle = new OrderLifecycle(host);
  lifecycle.attach(42, opts.status ?? ORDER_STATUS.design, save, port);
  return { lifecycle, log, drc, doc: () => doc };
}

describe('submitting a design', () => {
  it('saves first when dirty, stores the check for the saved version, then submits: the order is to be processed', async () => {
    const { lifecycle, log, drc } = setup({ dirty: true, version: 3 });
    expect(lifecycle.canSubmit()).toBe(true);
    expect(await lifecycle.submit()).toEqual({ kind: 'submitted' });
    expect(log).toEqual(['checks', 'flush:force', 'submit:42']);
    expect(drc).toEqual([{ orderId: 42, designVersion: 4, passed: true, issues: [] }]);
    expect(lifecycle.getState()).toMatchObject({ status: ORDER_STATUS.pending, busy: null, outcome: { kind: 'submitted' } });
    expect(lifecycle.canSubmit()).toBe(false);
    expect(lifecycle.canReopen()).toBe(true);
    expect(await lifecycle.reopen()).toBe(true);
    expect(lifecycle.getState().status).toBe(ORDER_STATUS.design);
    expect(log.at(-1)).toBe('reopen:42');
  });

  it('a design whose checks fail is not submitted; the failed check is stored and its issues shown', async () => {
    const { lifecycle, log, drc } = setup({ checks: { w1: result([{ code: 'ARC_TOO_SHARP', severity: 'error', message: 'Arc angle over 160°' }]) } });
    const outcome = await lifecycle.submit();
    expect(outcome).toMatchObject({ kind: 'failed-checks', issues: [{ code: 'ARC_TOO_SHARP', wireId: 'w1' }] });
    expect(log).not.toContain('submit:42');
    expect(log).not.toContain('flush:force'); // saved and clean: the stored version is checked
    expect(drc[0]).toMatchObject({ designVersion: 3, passed: false });
    expect(lifecycle.getState().status).toBe(ORDER_STATUS.design);
  });

  it('a design without wires, or an order not in design, is not submitted', async () => {
    const empty = setup({ wires: [] });
    expect(await empty.lifecycle.submit()).toEqual({ kind: 'no-wires' });
    const biting = setup({ status: ORDER_STATUS.biteRegistration });
    expect(biting.lifecycle.canSubmit()).toBe(false);
  });

  it("starting from another design replaces the document in one undoable change and keeps this order's bite", async () => {
    const { lifecycle, log, doc } = setup();
    const bite = doc().bite;
    expect(await lifecycle.startFrom({ id: 9, caseNo: 'C-9' })).toBe(true);
    expect(log).toEqual(['change:design.copy']);
    expect(doc().wires?.map((w) => w.id)).toEqual(['from-9']);
    expect(doc().bite).toEqual(bite);
    expect(lifecycle.getState().outcome).toEqual({ kind: 'copied', caseNo: 'C-9' });
  });

  it('the status is asked again (a machine finished)', async () => {
    const { lifecycle } = setup({ status: ORDER_STATUS.pending });
    await lifecycle.refreshStatus();
    expect(lifecycle.getState().status).toBe(ORDER_STATUS.processed);
  });
});
