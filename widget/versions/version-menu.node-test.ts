import { describe, expect, it } from 'vitest';
import type { ContextVersion, PageContext } from '../../contract/index.ts';
import { stringsFor } from '../shared/i18n.ts';
import { currentLanguage, downloadLinks, entryUrl, noticeKind, noticeMessage, typeaheadIndex, versionKind } from './version-menu.ts';

function version(slug: string, fields: Partial<ContextVersion> = {}): ContextVersion {
  return {
    slug,
    verbose_name: slug,
    type: 'branch',
    current: false,
    url: `https://d.example/en/${slug}/guide.html`,
    root_url: `https://d.example/en/${slug}/`,
    exists: true,
    downloads: {},
    ...fields,
  };
}

function context(fields: Partial<PageContext> = {}): PageContext {
  return {
    project: { slug: 'aurora', name: 'Aurora', language: { code: 'en', name: 'English' }, default_version: 'stable' },
    version: { slug: '1.0', verbose_name: '1.0', type: 'tag', status: 'old' },
    path: 'guide.html',
    versions: [
      version('latest'),
      version('stable', { type: 'tag' }),
      version('2.0', { type: 'tag' }),
      version('1.0', { type: 'tag', current: true }),
    ],
    translations: [],
    stable: { slug: 'stable', verbose_name: 'stable', release: '2.0', url: 'https://d.example/en/stable/guide.html' },
    subprojects: 0,
    ...fields,
  };
}

describe('version menu', () => {
  it('says what stable points to, and tag or branch for the others', () => {
    const page = context();
    expect(page.versions.map((entry) => versionKind(entry, page))).toEqual(['', '→ 2.0', 'tag', 'tag']);
    expect(versionKind(version('feature-x'), page)).toBe('branch');
    expect(
      versionKind(
        version('stable', { type: 'tag' }),
        context({ stable: { slug: 'stable', verbose_name: 'stable', release: 'stable', url: '' } }),
      ),
    ).toBe('tag');
  });

  it('links a version missing the page to its start page', () => {
    expect(entryUrl(version('2.0'))).toBe('https://d.example/en/2.0/guide.html');
    expect(entryUrl(version('2.0', { exists: false }))).toBe('https://d.example/en/2.0/');
    expect(entryUrl(version('2.0', { exists: null }))).toBe('https://d.example/en/2.0/guide.html');
  });

  it('lists the current version’s web downloads, labelled, and nothing else', () => {
    const downloads = { pdf: 'https://d.example/aurora.pdf', epub: 'javascript:alert(1)', htmlzip: 'HTTP://d.example/aurora.zip' };
    const page = context({
      versions: [version('latest', { downloads: { pdf: 'https://d.example/latest.pdf' } }), version('1.0', { current: true, downloads })],
    });
    expect(downloadLinks(page)).toEqual([
      { label: 'PDF', url: 'https://d.example/aurora.pdf' },
      { label: 'HTML (zip)', url: 'HTTP://d.example/aurora.zip' },
    ]);
    expect(downloadLinks(context({ versions: [version('latest')] }))).toEqual([]);
  });

  it('takes the language of the current translation, else the project’s', () => {
    expect(currentLanguage(context())).toEqual({ code: 'en', name: 'English' });
    const translated = context({
      translations: [
        {
          slug: 'aurora-es',
          name: 'Aurora',
          language: { code: 'es', name: 'Spanish' },
          current: true,
          url: '',
          root_url: '',
          exists: true,
        },
      ],
    });
    expect(currentLanguage(translated)).toEqual({ code: 'es', name: 'Spanish' });
  });

  it('goes to the next entry starting with a typed character, going round, or to none', () => {
    const labels = ['latest', 'stable → 2.0', ' 2.0tag', '1.0tag', 'Spanish'];
    expect(typeaheadIndex(labels, -1, 's')).toBe(1);
    expect(typeaheadIndex(labels, 1, 'S')).toBe(4);
    expect(typeaheadIndex(labels, 4, 's')).toBe(1);
    expect(typeaheadIndex(labels, 0, '2')).toBe(2);
    expect(typeaheadIndex(labels, 0, 'x')).toBe(-1);
    expect(typeaheadIndex([], -1, 'a')).toBe(-1);
  });
});

describe('version notices', () => {
  const s = stringsFor('en');
  const old = context();
  const dev = context({ version: { slug: 'latest', verbose_name: 'latest', type: 'branch', status: 'dev' } });

  it('go to the versions the setting names, and only where a stable version exists', () => {
    expect([noticeKind(old, 'old'), noticeKind(old, 'dev'), noticeKind(old, 'all'), noticeKind(old, 'none')]).toEqual([
      'old',
      undefined,
      'old',
      undefined,
    ]);
    expect([noticeKind(dev, 'old'), noticeKind(dev, 'dev'), noticeKind(dev, 'all')]).toEqual([undefined, 'dev', 'dev']);
    expect(noticeKind(context({ stable: null }), 'all')).toBe(undefined);
    expect(noticeKind(context({ version: { slug: 'stable', verbose_name: 'stable', type: 'tag', status: null } }), 'all')).toBe(undefined);
  });

  it('say which version, unless dismissed; the arrival on a start page always', () => {
    expect(noticeMessage(old, s, { notice: 'old', dismissed: false, landedOnStart: false })).toContain('1.0');
    expect(noticeMessage(dev, s, { notice: 'all', dismissed: false, landedOnStart: false })).not.toBe(
      noticeMessage(old, s, { notice: 'all', dismissed: false, landedOnStart: false }),
    );
    expect(noticeMessage(old, s, { notice: 'old', dismissed: true, landedOnStart: false })).toBe(undefined);
    expect(noticeMessage(old, s, { notice: 'none', dismissed: true, landedOnStart: true })).toBe(
      'The page you were reading does not exist in 1.0: this is its start page.',
    );
  });
});
