/**
 * The request progress bar's state: how many tracked calls are under way. Some calls never show
 * it (specification, section 7): background bootstrapping and uploads with their own progress.
 */

/** Path endings of the calls the progress bar ignores. */
const IGNORED = [
  '/eps',
  '/base/comm/person',
  '/base/comm/permmenu',
  '/base/comm/upload',
  '/base/comm/uploadMode',
  '/base/comm/uploadLimit',
  '/dict/info/data',
  '/space/info/add',
];

export function showsProgress(url: string): boolean {
  const path = url.split(/[?#]/, 1)[0]!.replace(/\/+$/, '');
  return !IGNORED.some((end) => path.endsWith(end));
}

type Listener = (pending: number) => void;

export function createProgress() {
  let pending = 0;
  const listeners = new Set<Listener>();
  const emit = () => listeners.forEach((l) => l(pending));
  return {
    get pending() {
      return pending;
    },
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Counts the call while it runs, unless its URL is one the bar ignores. */
    async track<T>(url: string, call: () => Promise<T>): Promise<T> {
      if (!showsProgress(url)) return call();
      pending++;
      emit();
      try {
        return await call();
      } finally {
        pending--;
        emit();
      }
    },
  };
}

export const progress = createProgress();
