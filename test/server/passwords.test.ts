// Password hashing waits its turn: at most ARGON2_CONCURRENCY hashes run on libuv's thread pool,
// which every other request needs too (token checks, file I/O).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { createPasswordHasher, gate } from '../../server/core/passwords.ts';

describe('password hashing in turn', () => {
  it('gate runs at most n jobs at once, the rest in order, and passes failures through', async () => {
    const inTurn = gate(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const job = (i: number) => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      order.push(i);
      if (i === 3) throw new Error('boom');
      return i;
    };
    const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map((i) => inTurn(job(i))));
    expect(most).toBe(2);
    expect(order.slice(2)).toEqual([2, 3, 4, 5]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    // A failed job gives its slot back.
    expect(await inTurn(async () => 'after')).toBe('after');
  });

  it('two hashes at a time by default; a burst of verifications all answer', async () => {
    const config = loadConfig({ ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' });
    expect(config.argon2.concurrency).toBe(2);
    expect(() => loadConfig({ ARGON2_CONCURRENCY: '0' })).toThrow(/ARGON2_CONCURRENCY/);
    const hasher = createPasswordHasher(config);
    const hashed = await hasher.hash('secret-pass');
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => hasher.verify(hashed, i % 2 ? 'secret-pass' : 'wrong')));
    expect(answers).toEqual(Array.from({ length: 12 }, (_, i) => i % 2 === 1));
  });
});
