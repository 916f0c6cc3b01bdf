// One-at-a-time section for blob writes and blob sweeps, so a sweep never removes bytes an
// upload is about to record (one process; several processes would need a database lock).
export interface Serial {
  run<T>(job: () => Promise<T>): Promise<T>;
}

export function serial(): Serial {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run(job) {
      const next = tail.then(job, job);
      tail = next.catch(() => {});
      return next;
    },
  };
}
