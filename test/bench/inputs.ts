// What the bench parses: generated UV spheres (always) and the real jaw scans
// beside the project (when present; read in place, never copied).

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sphereCounts, sphereStl } from '../fixtures/stl.ts';

export interface InputSpec {
  /** Short name for the table. */
  name: string;
  format: 'binary' | 'ascii';
  triangles: number;
  /** Produces the file's bytes (generated or read from disk). */
  load(): Uint8Array<ArrayBuffer>;
}

export interface Skipped {
  name: string;
  reason: string;
}

const root = fileURLToPath(new URL('../..', import.meta.url));
export const fixturesDir = process.env.ARCHWRIGHT_FIXTURES ?? resolve(root, '../shared/fixtures');

function sphere(segments: number, rings: number, binary: boolean): InputSpec {
  const { triangles } = sphereCounts(segments, rings);
  const label = triangles >= 1e6 ? `${triangles / 1e6}M` : `${triangles / 1e3}k`;
  return {
    name: `sphere ${label} ${binary ? 'binary' : 'ASCII'}`,
    format: binary ? 'binary' : 'ascii',
    triangles,
    load: () => sphereStl({ segments, rings, radius: 40, binary }),
  };
}

function realFile(relative: string, triangles: number): InputSpec | Skipped {
  const path = resolve(fixturesDir, relative);
  if (!existsSync(path)) {
    return { name: relative, reason: `${path} not found (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)` };
  }
  return {
    name: relative,
    format: 'binary',
    triangles,
    load: () => {
      const buf = readFileSync(path);
      // Own the bytes in an ArrayBuffer of exactly the file's length.
      return new Uint8Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
    },
  };
}

/**
 * 100k and 1M triangle spheres in both formats, then the two real files.
 * `quick` keeps the 100k spheres and the real files only.
 */
export function benchInputs(quick: boolean): { inputs: InputSpec[]; skipped: Skipped[] } {
  const generated = [
    sphere(250, 201, true), // 100,000 triangles, 4.8 MiB
    sphere(250, 201, false), // 22 MiB of text
    ...(quick
      ? []
      : [
          sphere(1000, 501, true), // 1,000,000 triangles, 48 MiB
          sphere(1000, 501, false), // 222 MiB of text
        ]),
  ];
  const real = [
    realFile('open-full-jaw-p26/upper.stl', 447_456),
    realFile('study-models/upper-model.stl', 358_578),
  ];
  const inputs: InputSpec[] = [...generated];
  const skipped: Skipped[] = [];
  for (const r of real) {
    if ('reason' in r) skipped.push(r);
    else inputs.push(r);
  }
  return { inputs, skipped };
}
