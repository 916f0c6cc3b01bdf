// npm run autodesign (test/autodesign-cli.ts), spawned as a user runs it: a generated lower jaw's
// STL designed with the default prescription (the document the editor opens, the report), both
// jaws moved apart with their registration (--bite), and the refusals (exit code, one line, no
// stack trace).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/editor/engine/document.ts';
import { binaryStl, garbage, soupOf } from '../fixtures/stl.ts';
import { biteOf, posed, randomPose } from '../fixtures/poses.ts';
import { teethJaw } from '../fixtures/teeth-jaws.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'autodesign-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function autodesign(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'test/autodesign-cli.ts'), ...args], { cwd: root, encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr, stdout: r.stdout };
}

const oneLine = (s: string): void => {
  expect(s.trim().split('\n').length).toBeLessThanOrEqual(2);
  expect(s).not.toMatch(/\n\s+at /);
};

describe('npm run autodesign', () => {
  const lower = join(dir, 'lower.stl');
  writeFileSync(lower, binaryStl(soupOf(teethJaw({ jaw: 'lower' }))));

  it('designs the lower jaw with the default prescription: the document opens in the editor, the report says every wire is placed', () => {
    const out = join(dir, 'design.json');
    const report = join(dir, 'report.json');
    const r = autodesign('--lower', lower, '--out', out, '--report', report);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/3 of 3 wires placed/);
    const doc = parseDocument(JSON.parse(readFileSync(out, 'utf8')));
    expect(doc.wires?.map((w) => [w.jaw, w.type, w.ai?.accepted])).toEqual([
      ['lower', 'singleArmClasp', false],
      ['lower', 'singleArmClasp', false],
      ['lower', 'labialBow', false],
    ]);
    expect(doc.straightening?.jaw).toBe('lower');
    const rep = JSON.parse(readFileSync(report, 'utf8'));
    expect(rep.report.map((x: { status: string }) => x.status)).toEqual(['placed', 'placed', 'placed']);
    expect(rep.teeth.lower).toContain(30);
  }, 120_000);

  it('--bite: designs jaws moved apart in their registration, the document carries the bite; a failed registration is refused', () => {
    const upperStl = join(dir, 'upper.stl');
    const pose = randomPose(7);
    writeFileSync(upperStl, binaryStl(soupOf(teethJaw({ jaw: 'upper' }))));
    const movedLower = join(dir, 'lower-moved.stl');
    writeFileSync(movedLower, binaryStl(soupOf(posed(teethJaw({ jaw: 'lower' }), pose))));
    const bite = join(dir, 'bite.json');
    const registration = biteOf([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], pose);
    writeFileSync(bite, JSON.stringify(registration));
    const out = join(dir, 'design-bite.json');
    const r = autodesign('--upper', upperStl, '--lower', movedLower, '--bite', bite, '--out', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/6 of 6 wires placed/);
    const doc = parseDocument(JSON.parse(readFileSync(out, 'utf8')));
    expect(doc.bite?.source).toBe('auto');
    doc.bite!.lower.forEach((v, i) => expect(v).toBeCloseTo(registration.lower[i]!, 5));
    writeFileSync(bite, JSON.stringify({ ...registration, error: 'the bite scan does not overlap the models', code: 'BITE_NO_OVERLAP' }));
    const failed = autodesign('--upper', upperStl, '--lower', movedLower, '--bite', bite, '--out', out);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toMatch(/failed registration/);
    oneLine(failed.stderr);
  }, 180_000);

  it('refuses with one line and its exit code', () => {
    const out = join(dir, 'x.json');
    const usage = autodesign('--out', out);
    expect(usage.code).toBe(2);
    expect(autodesign('--lower', lower).code).toBe(2);
    expect(autodesign('--lower', lower, '--out', out, '--what').code).toBe(2);

    const missing = autodesign('--lower', join(dir, 'nope.stl'), '--out', out);
    expect(missing.code).toBe(3);
    oneLine(missing.stderr);
    const junk = join(dir, 'junk.stl');
    writeFileSync(junk, garbage(4000));
    const notStl = autodesign('--lower', junk, '--out', out);
    expect(notStl.code, notStl.stderr).toBe(3);
    oneLine(notStl.stderr);

    const p = join(dir, 'p.json');
    writeFileSync(p, JSON.stringify({ upper: null, lower: { wires: [{ type: 'arrowClasp', teeth: [30, 19] }], base: false, diameter: 0.8 } }));
    const refused = autodesign('--lower', lower, '--prescription', p, '--out', out);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not neighbours/);
    writeFileSync(p, JSON.stringify({ upper: { wires: [{ type: 'singleArmClasp', teeth: [3] }], base: false, diameter: 0.8 }, lower: null }));
    expect(autodesign('--lower', lower, '--prescription', p, '--out', out).stderr).toMatch(/give --upper/);
  }, 180_000); // eight spawns, each starting tsx
});
