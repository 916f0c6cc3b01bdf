// One-at-a-time section for blob writes and blob sweeps, so a sweep never removes bytes an
// upload is about to record: in order within this process, and under one database lock across
// the processes that share the uploads folder (STORAGE_DIR, docs/scaling.md).
import type { Kysely } from 'kysely';
import { withSessionLock } from '../../db/dialect.ts';

export interface Serial {
  run<T>(job: () => Promise<T>): Promise<T>;
}

/** `db`: the database whose lock `name` spans the processes (none: this process only). */
export function serial(db?: Kysely<any>, name = 'space:blobs'): Serial {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run(job) {
      const locked = db ? () => withSessionLock(db, name, job) : job;
      const next = tail.then(locked, locked);
      tail = next.catch(() => {});
      return next;
    },
  };
}
