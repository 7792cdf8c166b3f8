import { describe, expect, it } from 'vitest';
import { commonTitleSuffix, withoutSuffix } from './titles.ts';

describe('site suffix of titles', () => {
  it('is what every title ends with after a separator', () => {
    expect(commonTitleSuffix(['URL dispatcher — Django 5 documentation', 'Index — Django 5 documentation'])).toBe(
      ' — Django 5 documentation',
    );
    expect(commonTitleSuffix(['Quickstart - Flask Documentation', 'API - Flask Documentation'])).toBe(' - Flask Documentation');
    expect(commonTitleSuffix(['Home | Site', 'About | Site'])).toBe(' | Site');
  });

  it('is nothing for one page, or titles that share no suffix', () => {
    expect(commonTitleSuffix(['Only — Site'])).toBe('');
    expect(commonTitleSuffix(['A — One', 'B — Two'])).toBe('');
  });

  it('allows a few titles without it (a redirect page)', () => {
    const titles = [...Array.from({ length: 9 }, (_, n) => `Page ${n} - Tool`), 'Redirecting...'];
    expect(commonTitleSuffix(titles)).toBe(' - Tool');
  });

  it('is dropped from a title, unless nothing would remain', () => {
    expect(withoutSuffix('Install — Tool docs', ' — Tool docs')).toBe('Install');
    expect(withoutSuffix(' — Tool docs', ' — Tool docs')).toBe(' — Tool docs');
    expect(withoutSuffix('Install', '')).toBe('Install');
  });
});
