import { describe, expect, it } from 'vitest';
import { parseRecent, RECENT_LIMIT, recentKey, withoutRecent, withRecent } from './recent.ts';

describe('recent searches', () => {
  it('are kept per project searched, or for all the configured ones', () => {
    expect(recentKey('aurora')).toBe('doclens:recent:aurora');
    expect(recentKey(undefined)).toBe('doclens:recent:all');
  });

  it('read only strings from storage, at most the limit, and nothing from what does not parse', () => {
    expect(parseRecent(JSON.stringify(['retry', 3, null, 'lease', { q: 'x' }]))).toEqual(['retry', 'lease']);
    expect(parseRecent(JSON.stringify(Array.from({ length: 20 }, (_, index) => `q${index}`)))).toHaveLength(RECENT_LIMIT);
    for (const stored of [null, '', '{', '"retry"', '{"0":"retry"}', 'null']) expect(parseRecent(stored)).toEqual([]);
  });

  it('put the latest first, once, and drop the oldest beyond the limit', () => {
    expect(withRecent(['lease', 'retry', 'pool'], 'retry')).toEqual(['retry', 'lease', 'pool']);
    const full = Array.from({ length: RECENT_LIMIT }, (_, index) => `q${index}`);
    const added = withRecent(full, 'new');
    expect(added).toHaveLength(RECENT_LIMIT);
    expect(added[0]).toBe('new');
    expect(added).not.toContain(`q${RECENT_LIMIT - 1}`);
  });

  it('lose one search without changing the order of the others', () => {
    expect(withoutRecent(['lease', 'retry', 'pool'], 'retry')).toEqual(['lease', 'pool']);
    expect(withoutRecent(['lease'], 'other')).toEqual(['lease']);
  });
});
