// The job runner's vocabulary (docs/jobs.md).
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';

export type { GeoJobState, GeoJobView } from '../../../common/order-lifecycle.ts';

/** What the runner posts to a job's thread. */
export interface ThreadStart {
  /** URL (href) of the module holding the thread-side function. */
  module: string;
  /** The exported function: (input, progress: (f: number) => void) => Promise<result>. */
  fn: string;
  input: unknown;
}

export type ThreadMessage = { type: 'progress'; f: number } | { type: 'done'; result: unknown } | { type: 'error'; message: string };

/** A job row as the kinds' main-side hooks see it. */
export interface JobInfo {
  id: number;
  kind: string;
  orderId: number | null;
  attempts: number;
  input: unknown;
}

export interface HookArgs {
  ctx: AppContext;
  /** The transaction the job's end is written in: write everything through it. */
  trx: Kysely<Database>;
  job: JobInfo;
}

/** One kind of job: where its thread-side code is, and what the main side does when it ends. */
export interface GeoKind {
  /** URL (href) of the module the thread imports (a .ts file is loaded through tsx). */
  module: string;
  /** Its exported function; default `run`. */
  fn?: string;
  /** Taken only when no job of a foreground kind is queued (a teeth job never delays a bite job). */
  background?: boolean;
  /** Longest an attempt may run (ms, real time) before its thread is stopped and the attempt fails; default the runner's. */
  timeoutMs?: number;
  /**
   * Kinds that must end first: a job of this kind is not taken while a job of one of these kinds
   * for the same order is queued or running (the automatic design waits for the bite and teeth).
   */
  after?: readonly string[];
  /**
   * Main side, after the claim and before the thread starts: answers the thread's input (from the
   * stored one and the database as it is now). A throw fails the attempt with its message; a
   * PreparedResult ends the job done without a thread.
   */
  prepare?(args: Omit<HookArgs, 'trx'>): Promise<unknown> | unknown;
  /**
   * Main side, at each look for work: ends what the kind waits for outside the runner (an AI
   * service's overdue answer). A throw is logged.
   */
  sweep?(ctx: AppContext): Promise<void>;
  /** In the transaction that marks the job done. */
  onDone?(result: unknown, args: HookArgs): Promise<void> | void;
  /** In the transaction that marks the job failed for good (after its last attempt). */
  onFailed?(error: string, args: HookArgs): Promise<void> | void;
}

export type GeoKinds = Readonly<Record<string, GeoKind>>;

/**
 * What a kind's prepare answers when the job needs no thread (its work was handed to an outside
 * service): the job ends done with `result`, as if a thread had answered it.
 */
export class PreparedResult {
  constructor(readonly result: unknown) {}
}
