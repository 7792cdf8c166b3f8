import { describe, expect, it } from 'vitest';
import type { ProjectSummary, VersionSummary } from '../upstream/api.ts';
import { recordedScope, recordedVersions } from '../upstream/fixtures/recorded.ts';
import { buildPageContext, type PageContextSources } from './page-context.ts';
import { pageContextAnswer, pagesToCheck, type PageContextFacts } from './page-context-answer.ts';
import { locatePage } from './page-location.ts';

const DOCS = 'http://127.0.0.1:7300';
const scope = recordedScope();
const versions = recordedVersions('v3-versions');
const spanishVersions = recordedVersions('v3-translation-versions');
const project = (slug: string): ProjectSummary => scope.get(slug)!.project;

/** The facts of a page of `aurora` as the recorded host has them. */
function factsOf(url: string): PageContextFacts {
  const location = locatePage(new URL(url), scope);
  if (!location) throw new Error(`${url} is in no recorded project`);
  return {
    location,
    versions,
    languages: [
      { project: project('aurora'), versions },
      { project: project('aurora-es'), versions: spanishVersions },
    ],
  };
}

describe('the page context answer', () => {
  it('checks the page in every other version readers can open and in every other language', () => {
    expect(pagesToCheck(factsOf(`${DOCS}/en/1.0/guides/deploy.html`))).toEqual([
      `${DOCS}/en/latest/guides/deploy.html`,
      `${DOCS}/en/stable/guides/deploy.html`,
      `${DOCS}/en/2.0/guides/deploy.html`,
      // The translation has no 1.0: its default version.
      `${DOCS}/es/latest/guides/deploy.html`,
    ]);
  });

  it('lists versions in switcher order with the same page, marks the current one and tells an old release', () => {
    const missing = `${DOCS}/en/stable/guides/deploy.html`;
    const answer = pageContextAnswer(
      factsOf(`${DOCS}/en/1.0/guides/deploy.html`),
      new Map([
        [missing, false],
        [`${DOCS}/en/2.0/guides/deploy.html`, true],
      ]),
    );
    expect(answer.versions.map(({ slug, current, exists }) => ({ slug, current, exists }))).toEqual([
      { slug: 'latest', current: false, exists: null },
      { slug: 'stable', current: false, exists: false },
      { slug: '2.0', current: false, exists: true },
      { slug: '1.0', current: true, exists: true },
    ]);
    expect(answer.version).toEqual({ slug: '1.0', verbose_name: '1.0', type: 'tag', status: 'old' });
    expect(answer.path).toBe('guides/deploy.html');
    // Stable lacks the page: the reader is sent to its start page.
    expect(answer.stable).toEqual({ slug: 'stable', verbose_name: 'stable', release: '2.0', url: `${DOCS}/en/stable/` });
    expect(answer.project).toEqual({
      slug: 'aurora',
      name: 'Aurora',
      language: { code: 'en', name: 'English' },
      default_version: 'latest',
    });
  });

  it('offers each language at the same version when it has it, ordered by language code', () => {
    const answer = pageContextAnswer(factsOf(`${DOCS}/en/latest/index.html`), new Map([[`${DOCS}/es/latest/index.html`, true]]));
    expect(answer.translations.map(({ slug, current, url, exists }) => ({ slug, current, url, exists }))).toEqual([
      { slug: 'aurora', current: true, url: `${DOCS}/en/latest/index.html`, exists: true },
      { slug: 'aurora-es', current: false, url: `${DOCS}/es/latest/index.html`, exists: true },
    ]);
    expect(answer.version.status).toBe('dev');
    expect(answer.stable?.url).toBe(`${DOCS}/en/stable/index.html`);
  });

  it('answers for a version it does not list (hidden, or unknown) without a status', () => {
    const hidden = pageContextAnswer(factsOf(`${DOCS}/en/next/index.html`), new Map());
    expect(hidden.version).toEqual({ slug: 'next', verbose_name: 'next', type: 'unknown', status: null });
    expect(hidden.versions.some((version) => version.current)).toBe(false);
    // The page's own language is offered at its default version, as the hidden one is not listed.
    expect(hidden.translations.find((translation) => translation.current)?.url).toBe(`${DOCS}/en/latest/index.html`);
  });
});

describe('buildPageContext', () => {
  /** Sources reading the recorded host; pages exist when listed in `existing`. */
  function sources(existing: string[], overrides: Partial<PageContextSources> = {}): PageContextSources & { checked: string[] } {
    const checked: string[] = [];
    const versionsOf: Record<string, VersionSummary[]> = { aurora: versions, 'aurora-es': spanishVersions };
    return {
      checked,
      scope: async () => scope,
      versions: async (slug) => versionsOf[slug] ?? [],
      translations: async (slug) => (slug === 'aurora' ? [project('aurora-es')] : []),
      exists: async (url) => {
        checked.push(url);
        return existing.includes(url);
      },
      ...overrides,
    };
  }

  it('answers for a translated page with the languages of its original', async () => {
    const from = sources([`${DOCS}/en/latest/index.html`]);
    const answer = await buildPageContext(from, { url: new URL(`${DOCS}/es/latest/index.html`) });
    expect(answer.project.slug).toBe('aurora-es');
    expect(answer.translations.map(({ slug, current, exists }) => ({ slug, current, exists }))).toEqual([
      { slug: 'aurora', current: false, exists: true },
      { slug: 'aurora-es', current: true, exists: true },
    ]);
    expect(from.checked).toEqual([`${DOCS}/en/latest/index.html`]);
  });

  it('still offers a translation whose versions cannot be read, at its default version', async () => {
    const failing = sources([], { versions: async (slug) => (slug === 'aurora' ? versions : Promise.reject(new Error('upstream down'))) });
    const answer = await buildPageContext(failing, { url: new URL(`${DOCS}/en/2.0/a.html`) });
    expect(answer.translations.find((translation) => translation.slug === 'aurora-es')).toMatchObject({
      url: `${DOCS}/es/latest/a.html`,
      exists: false,
    });
  });

  it('refuses a project out of scope and a page of no project', async () => {
    await expect(buildPageContext(sources([]), { url: new URL(`${DOCS}/en/latest/`), project: 'skyline' })).rejects.toMatchObject({
      status: 404,
      code: 'project_not_allowed',
    });
    await expect(buildPageContext(sources([]), { url: new URL('https://elsewhere.example/en/latest/') })).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });
});
