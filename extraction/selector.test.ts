import { describe, expect, it } from 'vitest';
import { simpleSelector } from './selector.ts';

describe('simpleSelector', () => {
  it('takes type, class, id and attribute selectors joined by descendant or child combinators, rebuilt', () => {
    expect(simpleSelector('div.body>section#main')).toBe('div.body > section#main');
    expect(simpleSelector('[role=main]  article')).toBe('[role="main"] article');
    expect(simpleSelector('a[href^="https:"] *')).toBe('a[href^="https:"] *');
    expect(simpleSelector('[id="module-aurora.retry"]')).toBe('[id="module-aurora.retry"]');
  });

  it('refuses pseudo-classes, sibling combinators, lists, namespaces, escapes, flags and long chains', () => {
    for (const selector of [
      '*:has(~ * ~ * ~ * ~ * ~ *)',
      'div:not(.x)',
      'p::before',
      'h1 + p',
      'h1 ~ p',
      'div, p',
      'svg|a',
      '.a\\.b',
      '[a="b" i]',
      '[a="\\"b"]',
      'a b c d e',
      '> a',
      'a >',
      '',
      'div['.padEnd(120, 'x'),
    ])
      expect(simpleSelector(selector), selector).toBeUndefined();
  });
});
