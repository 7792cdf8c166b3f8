import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../../contract/index.ts';
import { ResultList } from './result-list.ts';

const host: ReactiveControllerHost = {
  addController: (_: ReactiveController) => undefined,
  removeController: (_: ReactiveController) => undefined,
  requestUpdate: () => undefined,
  updateComplete: Promise.resolve(true),
};

const result = (path: string, title: string): SearchResult => ({
  type: 'page',
  project: { slug: 'aurora', alias: null },
  version: { slug: 'latest' },
  title,
  domain: 'https://aurora.docs.example.org',
  path,
  highlights: { title: [] },
  blocks: [],
});

describe('ResultList', () => {
  it('keeps the row the reader went to with the arrows when the same words are answered again, not after they type', () => {
    let results = [result('/a.html', 'A'), result('/b.html', 'B'), result('/c.html', 'C')];
    let words = 'run';
    const list = new ResultList(
      host,
      () => results,
      () => words,
    );
    list.reset();
    expect(list.active?.url).toBe('https://aurora.docs.example.org/a.html');
    list.step(1);
    list.step(1);
    // Asked again while the site is indexed: a new answer, one page more before the row.
    results = [result('/new.html', 'New'), ...results];
    list.reset();
    expect(list.active?.url).toBe('https://aurora.docs.example.org/c.html');
    // The row gone: the row chosen first.
    results = [result('/a.html', 'A')];
    list.reset();
    expect(list.activeIndex).toBe(0);
    list.step(1);
    list.typed();
    words = 'runs';
    results = [result('/a.html', 'A'), result('/b.html', 'B')];
    list.reset();
    expect(list.activeIndex).toBe(0);
  });
});
