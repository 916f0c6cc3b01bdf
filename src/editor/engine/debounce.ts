// A job that waits until changes stop: schedule() (re)starts the wait, and the job runs once
// `delayMs()` after the last call. The analysis' heatmaps and the wires' live checks use it.

export class Debounced<T = void> {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private arg: T | undefined;

  constructor(
    private readonly job: (arg: T) => void,
    /** Read at every schedule() (tests set the analysis' debounceMs to 0). */
    private readonly delayMs: () => number,
  ) {}

  /** Whether the job waits to run. */
  get pending(): boolean {
    return this.timer !== null;
  }

  /** Runs the job with `arg` after the delay, dropping a wait under way. */
  schedule(arg: T): void {
    this.cancel();
    this.arg = arg;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.job(arg);
    }, this.delayMs());
  }

  /** Drops the wait (nothing runs). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Runs a waiting job now; false when none waits. */
  flush(): boolean {
    if (!this.timer) return false;
    this.cancel();
    this.job(this.arg as T);
    return true;
  }
}
