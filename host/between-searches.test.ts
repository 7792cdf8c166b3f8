import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BetweenSearches } from './between-searches.ts';

const QUIET_MS = 300;
const LONGEST_MS = 5000;
const WRITE_MS = 10;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** A slow saver: which parts it made, and when; it writes each (in `WRITE_MS`) as the scheduler hands it over. */
function save(between: BetweenSearches, parts: number) {
  const made: { part: number; at: number }[] = [];
  function* slowParts(): Generator<number> {
    for (let part = 0; part < parts; part++) {
      made.push({ part, at: Date.now() });
      yield part;
    }
  }
  const done = (async () => {
    for await (const part of between.steps(slowParts())) {
      expect(part).toBe(made.length - 1);
      await delay(WRITE_MS);
    }
  })();
  return { made, done };
}

describe('work between searches', () => {
  it('makes no part of the index while searches come, and all of them once they pause', async () => {
    const between = new BetweenSearches(QUIET_MS, LONGEST_MS);
    const start = Date.now();
    // A search answered as the index is ready, then one every 100 ms for a second.
    between.searched();
    const { made, done } = save(between, 3);
    for (let search = 0; search < 10; search++) {
      await vi.advanceTimersByTimeAsync(100);
      between.searched();
    }
    expect(made).toEqual([]);
    const lastSearch = Date.now();
    await vi.advanceTimersByTimeAsync(QUIET_MS - 1);
    expect(made).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await vi.runAllTimersAsync();
    await done;
    expect(made.map(({ part }) => part)).toEqual([0, 1, 2]);
    expect(made.every(({ at }) => at >= lastSearch + QUIET_MS)).toBe(true);
    expect(lastSearch - start).toBe(1000);
  });

  it('waits for a pause before each part, not only the first', async () => {
    const between = new BetweenSearches(QUIET_MS, LONGEST_MS);
    const { made, done } = save(between, 2);
    await vi.advanceTimersByTimeAsync(0);
    expect(made.map(({ part }) => part)).toEqual([0]);
    // A search answered while the first part is written.
    await vi.advanceTimersByTimeAsync(WRITE_MS / 2);
    between.searched();
    await vi.advanceTimersByTimeAsync(QUIET_MS - 1);
    expect(made).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.runAllTimersAsync();
    await done;
    expect(made.map(({ part }) => part)).toEqual([0, 1]);
  });

  it('still saves, a part at a time, a host searched without pause', async () => {
    const between = new BetweenSearches(QUIET_MS, LONGEST_MS);
    const start = Date.now();
    between.searched();
    const { made } = save(between, 2);
    for (let elapsed = 0; elapsed < LONGEST_MS; elapsed += 100) {
      await vi.advanceTimersByTimeAsync(100);
      between.searched();
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(made).toEqual([{ part: 0, at: start + LONGEST_MS }]);
  });
});
