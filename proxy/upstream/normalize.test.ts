import { describe, expect, it } from 'vitest';
import { ProxyError } from '../http/errors.ts';
import { recorded, recordedList as listed } from './fixtures/recorded.ts';
import { embedResult, projectSummary, searchAnswer, searchResult, subprojectSummary, versionSummary } from './normalize.ts';
import { embedResultV2, projectInList, projectSummaryV2, searchAnswerV2, versionsV2 } from './normalize-v2.ts';

const PAGE = 'http://127.0.0.1:7300/en/latest/glossary.html#term-job';

const PROJECT_FIELDS = [
  'default_version',
  'id',
  'language',
  'name',
  'programming_language',
  'slug',
  'subproject_of',
  'tags',
  'translation_of',
  'urls',
];
const VERSION_FIELDS = ['active', 'built', 'downloads', 'hidden', 'id', 'privacy_level', 'ref', 'slug', 'type', 'urls', 'verbose_name'];

/** The error a normalizer throws, for its status and code. */
function failure(normalize: () => unknown): ProxyError {
  try {
    normalize();
  } catch (error) {
    if (error instanceof ProxyError) return error;
    throw error;
  }
  throw new Error('expected a ProxyError');
}

describe('API v3 answers', () => {
  it('keeps of a project only the fields safe to show any reader', () => {
    const project = projectSummary(recorded('v3-project'));
    expect(Object.keys(project).sort()).toEqual(PROJECT_FIELDS);
    expect(project).toMatchObject({
      id: 1,
      slug: 'aurora',
      name: 'Aurora',
      language: { code: 'en', name: 'English' },
      default_version: 'latest',
      subproject_of: null,
      translation_of: null,
    });
    expect(project.urls).toEqual({ documentation: 'http://127.0.0.1:7300/en/latest/', home: 'http://127.0.0.1:7300/projects/aurora/' });
    expect(JSON.stringify(project)).not.toMatch(/repository|users|_links|example\.org/);
  });

  it('reads translations and subprojects with their relation one level deep', () => {
    const [spanish] = listed('v3-translations').map((item) => projectSummary(item));
    expect(spanish).toMatchObject({
      slug: 'aurora-es',
      language: { code: 'es' },
      translation_of: { slug: 'aurora', translation_of: null, subproject_of: null },
    });
    const [plugins] = listed('v3-subprojects').map(subprojectSummary);
    expect(plugins).toMatchObject({ alias: 'plugins', child: { slug: 'aurora-plugins', subproject_of: { slug: 'aurora' } } });
    expect(Object.keys(plugins?.child ?? {}).sort()).toEqual(PROJECT_FIELDS);
  });

  it('reads versions with what stable points to, hidden and inactive ones included', () => {
    const versions = listed('v3-versions').map(versionSummary);
    expect(versions.map((version) => version.slug)).toEqual(['latest', 'stable', '2.0', '1.0', 'next', '0.9']);
    for (const version of versions) expect(Object.keys(version).sort()).toEqual(VERSION_FIELDS);
    expect(versions.find((version) => version.slug === 'stable')).toMatchObject({
      ref: '2.0',
      type: 'tag',
      urls: { documentation: 'http://127.0.0.1:7300/en/stable/' },
    });
    expect(versions.find((version) => version.slug === 'next')).toMatchObject({ hidden: true, active: true });
    expect(versions.find((version) => version.slug === '0.9')).toMatchObject({ active: false, built: false });
  });

  it('reads a search answer into the shapes the widget reads, section and domain blocks alike', () => {
    const answer = searchAnswer(recorded('v3-search'));
    expect(answer).toMatchObject({
      count: 11,
      hasNext: true,
      query: 'retry',
      indexing: false,
      projects: [{ slug: 'aurora', versions: [{ slug: 'latest' }] }],
    });
    expect(answer.results).toHaveLength(2);
    const blocks = answer.results.flatMap((result) => result.blocks);
    const domain = blocks.find((block) => block.type === 'domain');
    expect(domain && Object.keys(domain).sort()).toEqual(['content', 'highlights', 'id', 'name', 'role', 'type']);
    const section = blocks.find((block) => block.type === 'section');
    expect(section && Object.keys(section).sort()).toEqual(['content', 'highlights', 'id', 'title', 'type']);
    expect(section?.highlights.content.some((text) => text.includes('<span>'))).toBe(true);
  });

  it('reads an embed answer as sent', () => {
    const data = recorded('v3-embed');
    expect(embedResult(data, PAGE)).toEqual({ url: PAGE, fragment: 'term-job', content: data.content, external: false });
  });
});

describe('API v2 answers, in the v3 shapes', () => {
  const project = projectInList(recorded('v2-projects'), 'aurora') ?? {};

  it('finds the project by its exact slug and takes its documentation from canonical_url', () => {
    expect(projectInList(recorded('v2-projects'), 'auror')).toBeUndefined();
    const summary = projectSummaryV2(project);
    expect(Object.keys(summary).sort()).toEqual(PROJECT_FIELDS);
    expect(summary).toMatchObject({
      slug: 'aurora',
      language: { code: 'en', name: 'en' },
      programming_language: { code: 'py' },
      urls: { documentation: 'http://127.0.0.1:7300/en/latest/' },
    });
  });

  it('gives each version the documentation URL the v3 API gives it', () => {
    const fromV3 = new Map(
      listed('v3-versions')
        .map(versionSummary)
        .map((version) => [version.slug, version.urls.documentation]),
    );
    const versions = versionsV2(recorded('v2-active-versions'), project);
    expect(versions.map((version) => version.slug)).toEqual(['latest', 'stable', '2.0', '1.0', 'next']);
    for (const version of versions) expect(version.urls.documentation).toBe(fromV3.get(version.slug));
  });

  it('reads the same search results as v3 does, the query being what the proxy sent', () => {
    const answer = searchAnswerV2(recorded('v2-search'), 'project:aurora/latest retry');
    expect(answer.results).toEqual(searchAnswer(recorded('v3-search')).results);
    expect(answer).toMatchObject({ count: 11, hasNext: true, query: 'project:aurora/latest retry' });
  });

  it('joins the parts of an embedded section and takes the fragment from the URL asked for', () => {
    const result = embedResultV2(recorded('v2-embed'), PAGE);
    expect(result).toMatchObject({ url: PAGE, fragment: 'term-job', external: false });
    expect(result.content).toContain('id="term-job"');
    expect(embedResultV2(recorded('v2-embed'), PAGE.replace(/#.*/, '')).fragment).toBeNull();
  });
});

describe('malformed upstream JSON', () => {
  it('refuses search answers that cannot be what was asked for', () => {
    const results = recorded('v3-search').results;
    for (const data of [
      {},
      { results: 'many' },
      { results, count: -1 },
      { results, count: 1.5 },
      { results, count: 1 },
      { results, count: '11' },
      { results, next: 5 },
    ]) {
      expect(failure(() => searchAnswer(data))).toMatchObject({ status: 502, code: 'upstream_invalid_response' });
      expect(failure(() => searchAnswerV2(data, 'q'))).toMatchObject({ status: 502, code: 'upstream_invalid_response' });
    }
    expect(searchAnswer({ results }).count).toBe(2);
  });

  it('gives every field of a search result its type, whatever was sent', () => {
    const result = searchResult({
      project: 'aurora',
      version: null,
      title: 5,
      highlights: { title: ['a', 3, null] },
      blocks: [null, { type: 'domain', name: 7 }, { type: 'other', title: 'T' }],
    });
    expect(result).toEqual({
      type: 'page',
      project: { slug: '', alias: null },
      version: { slug: '' },
      title: '',
      domain: '',
      path: '',
      highlights: { title: ['a'] },
      blocks: [
        { type: 'section', id: '', title: '', content: '', highlights: { title: [], content: [] } },
        { type: 'domain', id: '', name: '', role: '', content: '', highlights: { name: [], content: [] } },
        { type: 'section', id: '', title: 'T', content: '', highlights: { title: [], content: [] } },
      ],
    });
  });

  it('fills a project and a version with defaults, keeping only strings where strings belong', () => {
    expect(
      projectSummary({
        slug: 'x',
        language: 'fr',
        tags: ['a', 1],
        translation_of: 'aurora',
        subproject_of: { slug: 'p', subproject_of: { slug: 'q' } },
      }),
    ).toEqual({
      id: null,
      slug: 'x',
      name: 'x',
      language: { code: 'fr', name: 'fr' },
      programming_language: null,
      default_version: 'latest',
      urls: { documentation: '', home: '' },
      tags: ['a'],
      subproject_of: expect.objectContaining({ slug: 'p', subproject_of: null }),
      translation_of: null,
    });
    expect(projectSummary({ language: { code: '' } }).language).toEqual({ code: 'en', name: 'en' });
    const version = versionSummary({
      slug: '1.0',
      active: 'no',
      hidden: 'yes',
      built: 0,
      ref: 2,
      downloads: { pdf: 'https://x/a.pdf', epub: 3 },
      urls: 'https://x/',
    });
    expect(version).toMatchObject({
      verbose_name: '1.0',
      type: 'branch',
      active: true,
      hidden: false,
      built: true,
      ref: null,
      downloads: { pdf: 'https://x/a.pdf' },
      urls: { documentation: '' },
    });
  });

  it('refuses an embed without content, and reads a v2 embed without parts as no such section', () => {
    expect(failure(() => embedResult({ url: PAGE }, PAGE))).toMatchObject({ status: 502, code: 'upstream_invalid_response' });
    expect(embedResult({ content: '<p>x</p>', fragment: 3, external: 'true' }, PAGE)).toEqual({
      url: PAGE,
      fragment: null,
      content: '<p>x</p>',
      external: false,
    });
    for (const content of [undefined, 'text', ['', ' \n'], [null]])
      expect(failure(() => embedResultV2({ content }, PAGE))).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('finds no v2 project in a list that is not one, and builds no documentation URL without canonical_url', () => {
    expect(projectInList({ results: { slug: 'aurora' } }, 'aurora')).toBeUndefined();
    expect(versionsV2({ versions: [{ slug: 'latest' }] }, { slug: 'aurora' })[0]?.urls.documentation).toBe('');
    expect(versionsV2({ versions: 'latest' }, { canonical_url: 'http://127.0.0.1:7300/en/latest/' })).toEqual([]);
  });
});
