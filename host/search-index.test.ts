import { describe, expect, it } from 'vitest';
import { demoPage } from '../test/fixtures/demo.ts';
import MiniSearch from 'minisearch';
import { ENGINE_OPTIONS, highlight, highlightExcerpts, VersionIndex } from './search-index.ts';

function demoIndex(index = new VersionIndex()): VersionIndex {
  for (const page of [
    'index.html',
    'quickstart.html',
    'glossary.html',
    'faq.html',
    'api/scheduler.html',
    'api/jobs.html',
    'guides/configuration.html',
    'tutorial/retries.html',
    'guides/deployment.html',
  ]) {
    index.addPage(page, demoPage(`aurora/en/latest/${page}`));
  }
  return index;
}

describe('VersionIndex', () => {
  const index = demoIndex();

  it('ranks the page about a term first', () => {
    expect(index.search('retry policy')[0]!.path).toBe('tutorial/retries.html');
    expect(index.search('lease timeout')[0]!.sections[0]!.section.anchor).toBe('confval-lease_timeout');
  });

  it('matches the start of a word while the reader types', () => {
    const hits = index.search('misfi');
    expect(hits.map((hit) => hit.path)).toContain('glossary.html');
    expect([...hits[0]!.matchedWords].some((word) => word.startsWith('misfire'))).toBe(true);
  });

  it('tolerates one typo', () => {
    expect(index.search('sheduler').length).toBeGreaterThan(0);
    expect(index.search('jiter')[0]!.path).toBe('tutorial/retries.html');
  });

  it('requires every word, and falls back to any word when none has them all', () => {
    const both = index.search('jitter backoff');
    expect(both.every((hit) => hit.matchedWords.has('jitter') || hit.matchedWords.has('backoff'))).toBe(true);
    expect(index.search('jitter zzzqqq').length).toBeGreaterThan(0);
    expect(index.search('zzzqqq')).toEqual([]);
  });

  it('returns nothing for a query with no words', () => {
    expect(index.search('  ?! ')).toEqual([]);
  });

  it('leaves out generated indexes and titles pages without a heading by their <title> minus the site name', () => {
    const site = new VersionIndex();
    const entries = Array.from({ length: 30 }, (_, n) => `<li><a href="p${n}.html">entry number ${n} of the index</a></li>`).join('');
    site.addPage(
      'genindex.html',
      `<html><head><title>Index — Tool docs</title></head><body><div role="main"><h1>Index</h1><ul>${entries}</ul></div></body></html>`,
    );
    site.addPage(
      'notes.html',
      '<html><head><title>Release notes — Tool docs</title></head>' +
        '<body><div role="main"><p>Quokka support was added.</p></div></body></html>',
    );
    expect(site.size.pages).toBe(1);
    expect(site.search('quokka')[0]!.title).toBe('Release notes');
    expect(site.search('entry number')).toEqual([]);
  });

  it('builds the same engine as MiniSearch adding the sections itself', () => {
    const byMiniSearch = demoIndex(new VersionIndex(new MiniSearch(ENGINE_OPTIONS)));
    // The order of terms is the only difference: MiniSearch lists them from its search tree.
    const engineOf = (built: VersionIndex) => {
      const { engine } = built.toJSON();
      return { ...engine, index: engine.index.sort(([a], [b]) => (a < b ? -1 : 1)) };
    };
    expect(engineOf(index)).toEqual(engineOf(byMiniSearch));
  });

  it('searches what was added between searches, as a MiniSearch adding every page would', () => {
    const growing = new VersionIndex();
    const byMiniSearch = new VersionIndex(new MiniSearch(ENGINE_OPTIONS));
    for (const page of ['glossary.html', 'tutorial/retries.html', 'faq.html']) {
      for (const built of [growing, byMiniSearch]) built.addPage(page, demoPage(`aurora/en/latest/${page}`));
      for (const query of ['retry', 'lease', 'jiter'])
        expect(growing.search(query), `${query} after ${page}`).toEqual(byMiniSearch.search(query));
    }
  });

  it('answers the same once saved and loaded again (the index cache, the index threads)', async () => {
    const loaded = await VersionIndex.fromJSON(JSON.stringify(index));
    expect(loaded.size).toEqual(index.size);
    expect(loaded.pageTitles()).toEqual(index.pageTitles());
    for (const query of ['retry policy', 'misfi', 'sheduler', 'lease timeout', 'jitter zzzqqq']) {
      const summary = (hits: ReturnType<VersionIndex['search']>) =>
        hits.map((hit) => [hit.path, hit.title, hit.sections.map((section) => section.section.anchor)]);
      expect(summary(loaded.search(query)), query).toEqual(summary(index.search(query)));
    }
  });

  it('groups sections by page, at most three each', () => {
    for (const hit of index.search('job')) {
      expect(hit.sections.length).toBeLessThanOrEqual(3);
      expect(new Set(hit.sections.map((section) => section.section.path))).toEqual(new Set([hit.path]));
    }
  });
});

describe('highlight', () => {
  it('wraps matched words in <span> and escapes everything else', () => {
    expect(highlight('Use <b>Lease</b> & "leases"', new Set(['lease']))).toBe(
      'Use &lt;b&gt;<span>Lease</span>&lt;/b&gt; &amp; &quot;leases&quot;',
    );
  });

  it('cuts excerpts around the matches', () => {
    const text = `${'filler '.repeat(60)}the lease expires ${'filler '.repeat(60)}`;
    const [excerpt] = highlightExcerpts(text, new Set(['lease']));
    expect(excerpt).toContain('<span>lease</span>');
    expect(excerpt!.length).toBeLessThan(200);
  });
});
