// The contract between `npm run bench` (run.ts) and one suite of measurements
// (test/bench/suites/<area>.ts). A suite measures ours and its peer side by side
// on each input, in the same run, and returns one row per figure.

import type { InputSpec } from './inputs.ts';

/** One figure; printed as a table row and, with --json, as one JSON line. */
export interface BenchRow {
  /** e.g. 'bvh-build/three-mesh-bvh'. */
  name: string;
  /** InputSpec.name. */
  input: string;
  ours_ms: number;
  /** What we are compared with, e.g. 'three-mesh-bvh 0.9.17'; '' when there is none. */
  peer: string;
  /** NaN when there is no peer. */
  peer_ms: number;
  /** peer_ms / ours_ms (higher is better for us); NaN when there is no peer. */
  ratio: number;
  /** Free text for the human table (goal, caveats). */
  note?: string;
}

export interface BenchContext {
  quick: boolean;
  /** Timed runs per contender. */
  runs: number;
  /** The inputs of this run: a generated 1M-triangle model and the fixtures' upper.stl (when present). */
  inputs: readonly InputSpec[];
  /** Human-readable progress (goes to stderr with --json). */
  log(line: string): void;
}

export interface BenchSuite {
  name: string;
  run(ctx: BenchContext): Promise<BenchRow[]>;
}
