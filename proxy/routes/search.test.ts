import { describe, expect, it } from 'vitest';
import { formatSearchQuery, parseSearchQuery } from '../../extraction/search-query.ts';
import type { ProjectSummary } from '../upstream/api.ts';
import type { ScopedProject } from '../upstream/metadata.ts';
import { scopedQuery, UPSTREAM_MAX_QUERY_LENGTH } from './search.ts';

const project = (slug: string): ProjectSummary => ({
  id: null,
  slug,
  name: slug,
  language: { code: 'en', name: 'English' },
  programming_language: null,
  default_version: 'latest',
  urls: { documentation: `https://${slug}.docs.example/en/latest/`, home: '' },
  tags: [],
  subproject_of: null,
  translation_of: null,
});

/** Projects in scope: `aurora` configured, its subproject `aurora-cli`, its translation `aurora-es`. */
const scope = new Map<string, ScopedProject>([
  ['aurora', { project: project('aurora'), role: 'project' }],
  ['aurora-cli', { project: project('aurora-cli'), role: 'subproject', alias: 'cli' }],
  ['aurora-es', { project: project('aurora-es'), role: 'translation' }],
]);

/** The query string the upstream would be sent for what the reader typed. */
const sent = (q: string, { configured = ['aurora'], withSubprojects = false } = {}) =>
  formatSearchQuery(scopedQuery(parseSearchQuery(q), scope, configured, withSubprojects));

describe('scopedQuery', () => {
  it('searches the configured projects when the query names none', () => {
    expect(sent('install guide')).toBe('project:aurora install guide');
    expect(sent('install', { withSubprojects: true })).toBe('subprojects:aurora install');
    expect(sent('install', { configured: ['gone', 'aurora'] })).toBe('project:aurora install');
  });

  it('keeps project terms in scope, versions included, in place of the configured ones', () => {
    expect(sent('project:aurora-es/latest lease')).toBe('project:aurora-es/latest lease');
    expect(sent('project:aurora project:aurora-cli x')).toBe('project:aurora project:aurora-cli x');
  });

  it('refuses a project outside the scope, as a project or with its subprojects', () => {
    for (const q of ['project:secret x', 'subprojects:secret x', 'project:aurora project:secret/latest x']) {
      expect(() => sent(q), q).toThrow(expect.objectContaining({ status: 403, code: 'project_not_allowed' }));
    }
  });

  it('searches a project alone when subprojects are out of scope', () => {
    expect(sent('subprojects:aurora x')).toBe('project:aurora x');
    expect(sent('subprojects:aurora x', { withSubprojects: true })).toBe('subprojects:aurora x');
  });

  it('never sends a user filter, nor any other word that could be read as a filter', () => {
    expect(sent('user:@me lease')).toBe('project:aurora lease');
    expect(sent('org:evil PROJECT:secret Project:secret project:a/b/c lease')).toBe(
      'project:aurora org\\:evil PROJECT\\:secret Project\\:secret project\\:a/b/c lease',
    );
    expect(sent('a\\:b')).toBe('project:aurora a\\\\:b');
  });

  it('splits words where the upstream splits them, so no separator hides a filter', () => {
    // U+001F and U+0085 are white space to the upstream's Python, not to JavaScript's \s.
    expect(() => sent('lease\u001fproject:secret')).toThrow(expect.objectContaining({ code: 'project_not_allowed' }));
    expect(sent('lease\u0085org:evil')).toBe('project:aurora lease org\\:evil');
  });

  it('fails with an upstream error when none of the configured projects exists', () => {
    expect(() => sent('x', { configured: ['gone'] })).toThrow(expect.objectContaining({ status: 502, code: 'upstream_error' }));
  });

  it('refuses a query that the project terms would take beyond the upstream limit, naming q', () => {
    const words = 'w'.repeat(UPSTREAM_MAX_QUERY_LENGTH - 'project:aurora '.length);
    expect(sent(words)).toHaveLength(UPSTREAM_MAX_QUERY_LENGTH);
    expect(() => sent(`${words}w`)).toThrow(
      expect.objectContaining({ status: 400, code: 'invalid_parameter', message: expect.stringContaining('"q"') }),
    );
  });
});
