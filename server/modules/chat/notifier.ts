// The wake-up of message streams: "something for these users was stored". In-process by default;
// with several server processes another implementation (PostgreSQL LISTEN/NOTIFY, say) carries it
// between them, and until then each stream also re-checks the database on its own (stream.ts).
export interface ChatNotifier {
  /** Wakes the streams of these users. */
  notify(userIds: readonly number[]): void;
  /** Calls `wake` on every notice for the user until the returned function is called. */
  listen(userId: number, wake: () => void): () => void;
}

export function localChatNotifier(): ChatNotifier {
  const listeners = new Map<number, Set<() => void>>();
  return {
    notify(userIds) {
      for (const id of new Set(userIds)) for (const wake of listeners.get(id) ?? []) wake();
    },
    listen(userId, wake) {
      let set = listeners.get(userId);
      if (!set) listeners.set(userId, (set = new Set()));
      set.add(wake);
      return () => {
        set.delete(wake);
        if (set.size === 0) listeners.delete(userId);
      };
    },
  };
}
