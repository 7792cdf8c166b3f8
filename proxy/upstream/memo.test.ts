import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Memo } from './memo.ts';

describe('Memo', () => {
  // Loads take time on a fake clock: the test runs it to the end of every load.
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('answers every concurrent caller with a value too big to keep, loading it once', async () => {
    const memo = new Memo<{ bytes: number }>({ maxSize: 100, sizeOf: (value) => value.bytes, ttlSeconds: 60, staleWhileRefreshing: false });
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return { bytes: 1000 };
    };
    const all = Promise.all([memo.get('big', load), memo.get('big', load), memo.get('big', load)]);
    await vi.runAllTimersAsync();
    const values = await all;
    expect(values).toEqual([{ bytes: 1000 }, { bytes: 1000 }, { bytes: 1000 }]);
    expect(loads).toBe(1);
    expect(memo.size).toBe(0);
  });

  it('answers callers whose entry was evicted by other loads meanwhile', async () => {
    const memo = new Memo<{ bytes: number }>({ maxSize: 100, sizeOf: (value) => value.bytes, ttlSeconds: 60, staleWhileRefreshing: false });
    const load = (delay: number) => async () => {
      await new Promise((resolve) => setTimeout(resolve, delay));
      return { bytes: 60 };
    };
    // The first loads finish last: the entries of the early finishers are evicted before their callers are answered.
    const all = Promise.all(Array.from({ length: 6 }, (_, i) => memo.get(`page${i}`, load(5 * (6 - i)))));
    await vi.runAllTimersAsync();
    const values = await all;
    expect(values.every((value) => value.bytes === 60)).toBe(true);
    expect(memo.size).toBeLessThanOrEqual(100);
  });

  it('rejects with the load error when there is nothing to fall back on', async () => {
    const memo = new Memo<{ bytes: number }>({ max: 10, ttlSeconds: 60, staleWhileRefreshing: false });
    await expect(memo.get('x', () => Promise.reject(new Error('upstream down')))).rejects.toThrow('upstream down');
  });
});
