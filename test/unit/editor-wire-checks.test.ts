// The wires' live checks (src/editor/features/wires/checks.ts) with a worker stand-in whose
// answers the test releases: an undo then a redo while the undo's check is still running, or
// before it started, ends with the check of the shape shown, not "checking" forever.
import { describe, expect, it } from 'vitest';
import { WireChecks } from '../../src/editor/features/wires/checks.ts';
import type { WireDesign, WirePoint } from '../../src/editor/engine/document.ts';
import type { BendCheckResult } from '../../src/geometry/client.ts';

const wire = { id: 'w1', type: 'singleArmClasp', diameter: 0.8 } as WireDesign;
const shape = (x: number): WirePoint[] => [{ point: [0, 0, 0] }, { point: [x, 0, 0] }, { point: [x, 10, 0] }];

describe('live wire checks', () => {
  it('a shape shown again while another shape is being checked is checked again', async () => {
    const pending: (() => void)[] = [];
    const checked: number[] = [];
    const checks = new WireChecks(
      {
        bendCheck: (input) =>
          new Promise<BendCheckResult>((resolve) => {
            checked.push(input.points[1]![0]);
            pending.push(() => resolve({ ok: true, issues: [] } as unknown as BendCheckResult));
          }),
      },
      () => {},
      0,
    );
    const release = async () => {
      while (!pending.length) await new Promise((r) => setTimeout(r, 1));
      pending.shift()!();
    };
    const a = shape(10), b = shape(12);
    checks.queueCheck(wire, a);
    await release();
    await checks.settled();
    expect(checks.isCurrent(wire, a)).toBe(true);

    checks.queueCheck(wire, b); // undo: B is being checked...
    while (!pending.length) await new Promise((r) => setTimeout(r, 1));
    checks.queueCheck(wire, a); // ...when a redo shows A again
    pending.shift()!();
    // settle, releasing every check that starts meanwhile
    for (;;) {
      await new Promise((r) => setTimeout(r, 5));
      if (pending.length) pending.shift()!();
      else if (!checks['running']) break;
    }
    expect(checked).toEqual([10, 12, 10]);
    expect(checks.isCurrent(wire, a)).toBe(true);
  });

  it('a shape shown again before the other shape\'s check started drops that check', async () => {
    const checked: number[] = [];
    const checks = new WireChecks({ bendCheck: async (input) => (checked.push(input.points[1]![0]), { ok: true, issues: [] } as unknown as BendCheckResult) }, () => {}, 50);
    const a = shape(10), b = shape(12);
    checks.queueCheck(wire, b);
    await checks.settled();
    expect(checks.isCurrent(wire, b)).toBe(true);
    checks.queueCheck(wire, a); // undo: A waits for the debounce...
    checks.queueCheck(wire, b); // ...when a redo shows B again, whose check is current
    await checks.settled();
    expect(checked).toEqual([12]);
    expect(checks.isCurrent(wire, b)).toBe(true);
  });
});
