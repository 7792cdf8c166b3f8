import { describe, expect, it } from 'vitest';
import { scopedQuery } from './scope.ts';

describe('scopedQuery', () => {
  it('puts the project (and version) searched before the words, with or without its subprojects', () => {
    expect(scopedQuery({ project: 'aurora', version: '2.0', includeSubprojects: true }, '  retry policy ')).toBe(
      'subprojects:aurora/2.0 retry policy',
    );
    expect(scopedQuery({ project: 'aurora', includeSubprojects: false }, 'retry')).toBe('project:aurora retry');
  });

  it('sends only the words when the proxy’s configured projects are searched, and only the scope without words', () => {
    expect(scopedQuery({ includeSubprojects: true }, 'retry')).toBe('retry');
    expect(scopedQuery({ project: 'aurora', includeSubprojects: true }, '   ')).toBe('subprojects:aurora');
  });
});
