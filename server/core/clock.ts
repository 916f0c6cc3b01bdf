// Time comes from an injectable clock so tests can move it (token expiry, rate-limit windows).

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** "YYYY-MM-DD HH:mm:ss" in UTC: the form admin tables show and that sorts as text. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}
