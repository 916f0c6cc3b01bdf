// The `autodesign` job kind: the automatic design of an order's wires (thread side
// autodesign.thread.ts, the engine of `npm run autodesign`, docs/autodesign.md). What is done with
// the result (the order's design saved, its AI status moved) is the order module's: it passes
// onDone/onFailed; the kind itself stores nothing.
import type { Prescription } from '../../../common/prescription.ts';
import type { AutodesignOutput } from './autodesign.thread.ts';
import type { GeoKind, HookArgs } from './types.ts';

export const AUTODESIGN_THREAD = new URL('./autodesign.thread.ts', import.meta.url).href;

/** What an autodesign job reads: the storage keys of the order's jaw models and its prescription. */
export interface AutodesignInput {
  orderId: number;
  uploads: string;
  /** space_info.key of each jaw model (null: none). */
  upper: string | null;
  lower: string | null;
  prescription: Prescription;
}

export interface AutodesignHooks {
  onDone?(result: AutodesignOutput, args: HookArgs): Promise<void> | void;
  onFailed?(error: string, args: HookArgs): Promise<void> | void;
  /** Other thread code (tests). */
  module?: string;
  fn?: string;
}

/** The autodesign kind (not in GEO_KINDS until the order module stores its result). */
export function autodesignKind(hooks: AutodesignHooks = {}): GeoKind {
  return {
    module: hooks.module ?? AUTODESIGN_THREAD,
    fn: hooks.fn ?? 'run',
    onDone: (result, args) => hooks.onDone?.(result as AutodesignOutput, args),
    onFailed: (error, args) => hooks.onFailed?.(error, args),
  };
}
