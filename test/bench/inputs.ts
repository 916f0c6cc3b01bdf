// What the bench runs on: a generated UV sphere (always) and the real jaw scans
// beside the project (when present; read in place, never copied). Every suite
// gets benchInputs(); a suite may add inputs of its own (sphereInput, realInput).

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

export function sphereInput(segments: number, rings: number, binary: boolean): InputSpec {
  const { triangles } = sphereCounts(segments, rings);
  const label = triangles >= 1e6 ? `${triangles / 1e6}M` : `${triangles / 1e3}k`;
  return {
    name: `sphere ${label} ${binary ? 'binary' : 'ASCII'}`,
    format: binary ? 'binary' : 'ascii',
    triangles,
    load: () => sphereStl({ segments, rings, radius: 40, binary }),
  };
}

export function realInput(relative: string, triangles: number): InputSpec | Skipped {
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
 * The inputs of every suite: a generated 1,000,000-triangle sphere (binary;
 * 100,000 triangles with `quick`) and open-full-jaw-p26/upper.stl (skipped,
 * with the reason, when the fixtures are absent).
 */
export function benchInputs(quick: boolean): { inputs: InputSpec[]; skipped: Skipped[] } {
  const inputs: InputSpec[] = [quick ? sphereInput(250, 201, true) : sphereInput(1000, 501, true)];
  const skipped: Skipped[] = [];
  const upper = realInput('open-full-jaw-p26/upper.stl', 447_456);
  if ('reason' in upper) skipped.push(upper);
  else inputs.push(upper);
  return { inputs, skipped };
}
