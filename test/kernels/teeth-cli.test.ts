// npm run teeth (test/teeth-cli.ts), spawned as a user runs it: on a generated jaw (labels one
// byte per welded vertex, the JSON's teeth well-formed), its refusals (exit code, one line, no
// stack trace) and, with the fixtures, on the study models (the truth's length, scored like the
// kernel test). Skips the study models with a message without the fixtures.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseStl } from '../../workers/kernels/stl.ts';
import { formatScore, scoreLabels } from '../bench/teeth-score.ts';
import { jawMesh } from '../fixtures/jaw.ts';
import { binaryStl, garbage, soupOf } from '../fixtures/stl.ts';
import { loadKernels } from './kernels.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = process.env.ARCHWRIGHT_FIXTURES ?? resolve(root, '../shared/fixtures');
const study = resolve(fixtures, 'study-models');
const present = existsSync(resolve(study, 'lower-model.labels.bin')) && existsSync(resolve(study, 'lower-model.stl'));
const studyTitle = present
  ? `npm run teeth on the study model (${study})`
  : `npm run teeth on the study model: SKIPPED, ${resolve(study, 'lower-model.labels.bin')} not found (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`;
if (!present) console.warn(studyTitle);

const dir = mkdtempSync(join(tmpdir(), 'teeth-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function teeth(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'test/teeth-cli.ts'), ...args], { cwd: root, encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr, stdout: r.stdout };
}

async function weldedCount(bytes: Uint8Array): Promise<number> {
  const parsed = await parseStl(await loadKernels(), bytes);
  if (!parsed.ok) throw new Error(parsed.error.code);
  return parsed.mesh.vertexCount;
}

describe('npm run teeth', () => {
  const stl = binaryStl(soupOf(jawMesh({ detail: 0.3 })));
  const model = join(dir, 'lower-jaw.stl');
  writeFileSync(model, stl);

  it('writes one label byte per welded vertex and the teeth as JSON; the jaw from the file name', async () => {
    const out = join(dir, 'labels.bin');
    const json = join(dir, 'teeth.json');
    const r = teeth(model, '--out', out, '--json', json);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^lower jaw: \d+ teeth/);
    const labels = readFileSync(out);
    expect(labels.length).toBe(await weldedCount(stl));
    const doc = JSON.parse(readFileSync(json, 'utf8'));
    expect(doc).toMatchObject({ jaw: 'lower', model: 'lower-jaw.stl', vertexCount: labels.length });
    expect(doc.teeth.length).toBeGreaterThan(0);
    for (const t of doc.teeth) {
      expect(t.number).toBeGreaterThanOrEqual(17);
      expect(t.number).toBeLessThanOrEqual(32);
      expect(t.fdi).toBeGreaterThanOrEqual(31);
      expect(['incisor', 'canine', 'premolar', 'molar']).toContain(t.type);
      expect(t.centroid).toHaveLength(3);
      expect(t.tip).toHaveLength(3);
      expect(t.mesioDistalWidth).toBeGreaterThan(0);
      // the labels and the records agree on each tooth's vertices
      expect(labels.filter((n) => n === t.number).length).toBe(t.vertexCount);
    }
    expect(Array.isArray(doc.arch)).toBe(true);
    expect(doc.timings.totalMs).toBeGreaterThanOrEqual(0);
    expect(Object.keys(doc.timings)).toEqual(expect.arrayContaining(['parseMs', 'segmentMs', 'kernel']));
  });

  it('--jaw overrides the file name; without either it asks for --jaw', () => {
    const plain = join(dir, 'model.stl');
    writeFileSync(plain, stl);
    const asked = teeth(plain, '--out', join(dir, 'x.bin'));
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain('give --jaw upper or --jaw lower');
    const r = teeth(plain, '--out', join(dir, 'x.bin'), '--json', join(dir, 'x.json'), '--jaw', 'upper');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'x.json'), 'utf8')).jaw).toBe('upper');
  });

  it('refuses a missing file, a file that is no STL, a bad --jaw and a missing --out: exit code, one message, no stack trace', () => {
    const bad = join(dir, 'upper-bad.stl');
    writeFileSync(bad, garbage(3000));
    const cases: [string[], number, string][] = [
      [[join(dir, 'upper-missing.stl'), '--out', join(dir, 'y.bin')], 3, 'does not exist'],
      [[bad, '--out', join(dir, 'y.bin')], 3, 'not a readable STL'],
      [[model, '--out', join(dir, 'y.bin'), '--jaw', 'middle'], 2, '--jaw must be upper or lower'],
      [[model], 2, '--out is required'],
      [[model, '--out', join(dir, 'no-such-dir', 'y.bin')], 3, 'cannot write'],
    ];
    for (const [args, code, message] of cases) {
      const r = teeth(...args);
      expect(r.code, r.stderr).toBe(code);
      expect(r.stderr).toContain(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(existsSync(join(dir, 'y.bin'))).toBe(false);
  });
});

describe.skipIf(!present)(studyTitle, () => {
  it('lower: the labels have the truth\'s length and score like the kernel test', () => {
    const out = join(dir, 'study.bin');
    const r = teeth(resolve(study, 'lower-model.stl'), '--out', out);
    expect(r.code, r.stderr).toBe(0);
    const truth = readFileSync(resolve(study, 'lower-model.labels.bin'));
    const labels = readFileSync(out);
    expect(labels.length).toBe(truth.length);
    const s = scoreLabels(truth, labels);
    const msg = formatScore('npm run teeth, lower', s);
    expect(s.numberingRight, msg).toBe(true);
    expect(s.meanIou, msg).toBeGreaterThanOrEqual(0.95);
    expect(s.gumAccuracy, msg).toBeGreaterThanOrEqual(0.98);
  });
});
