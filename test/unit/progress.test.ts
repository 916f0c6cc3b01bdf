import { describe, expect, it } from 'vitest';
import { createProgress, showsProgress } from '../../src/api/progress.ts';

describe('request progress', () => {
  it('ignores the calls the specification lists, whatever their query', () => {
    for (const url of [
      '/admin/base/open/eps',
      '/admin/base/comm/person',
      '/admin/base/comm/permmenu?t=1',
      '/admin/base/comm/upload',
      '/admin/base/comm/uploadMode',
      '/admin/dict/info/data',
      '/admin/space/info/add/',
    ]) {
      expect(showsProgress(url), url).toBe(false);
    }
    for (const url of ['/admin/base/open/login', '/admin/base/sys/user/page', '/admin/base/comm/personUpdate', '/admin/space/info/page']) {
      expect(showsProgress(url), url).toBe(true);
    }
  });

  it('counts tracked calls until each settles, failures included', async () => {
    const p = createProgress();
    const seen: number[] = [];
    p.subscribe((n) => seen.push(n));
    let finish!: () => void;
    const slow = p.track('/admin/base/sys/user/page', () => new Promise<void>((r) => (finish = r)));
    const failing = p.track('/admin/base/sys/log/page', () => Promise.reject(new Error('boom')));
    const ignored = p.track('/admin/base/comm/person', () => Promise.resolve('me'));
    expect(p.pending).toBe(2);
    await expect(failing).rejects.toThrow('boom');
    await expect(ignored).resolves.toBe('me');
    expect(p.pending).toBe(1);
    finish();
    await slow;
    expect(p.pending).toBe(0);
    expect(seen).toEqual([1, 2, 1, 0]);
  });
});
