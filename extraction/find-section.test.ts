import { describe, expect, it } from 'vitest';
import { demoPage } from '../test/fixtures/demo.ts';
import { extractSection, InvalidSelectorError } from './find-section.ts';
import { absolutize } from './html/links.ts';
import { parseHtml } from './html/parse.ts';

const base = 'https://docs.example.org/en/latest/';

describe('extractSection on real Sphinx output', () => {
  const glossary = parseHtml(demoPage('aurora/en/latest/glossary.html'));
  const configuration = parseHtml(demoPage('aurora/en/latest/guides/configuration.html'));
  const retries = parseHtml(demoPage('aurora/en/latest/tutorial/retries.html'));

  it('returns a glossary term alone, or with only its own definition for doctool=sphinx', () => {
    const url = `${base}glossary.html#term-lease`;
    expect(extractSection(glossary, url, { fragment: 'term-lease' })).toMatch(/^<dt id="term-lease">lease<a class="headerlink"/);
    const sphinx = extractSection(glossary, url, { fragment: 'term-lease', doctool: 'sphinx' })!;
    expect(sphinx).toMatch(/^<dl class="simple glossary">/);
    expect(sphinx).toContain('A time-limited claim of a worker on a run.');
    expect(sphinx).not.toContain('term-job');
    expect(sphinx.match(/<dd>/g)).toHaveLength(1);
  });

  it('keeps terms that share one definition apart', () => {
    const html = extractSection(glossary, `${base}glossary.html#term-dead-letter`, { fragment: 'term-dead-letter', doctool: 'sphinx' })!;
    expect(html).toContain('id="term-dead-letter"');
    expect(html).not.toContain('id="term-dead-letter-queue"');
    expect(html).toContain('Where runs that failed for good are kept');
  });

  it('returns the whole configuration value entry for doctool=sphinx', () => {
    const html = extractSection(configuration, `${base}guides/configuration.html#confval-lease_timeout`, {
      fragment: 'confval-lease_timeout',
      doctool: 'sphinx',
    })!;
    expect(html).toMatch(/^<dl class="std confval">/);
    expect(html).toContain('How long, in seconds, a worker holds a job');
  });

  it('turns a label target into its section for doctool=sphinx', () => {
    const url = `${base}tutorial/retries.html#jitter`;
    expect(extractSection(retries, url, { fragment: 'jitter' })).toBe('<span id="jitter"></span>');
    const section = extractSection(retries, url, { fragment: 'jitter', doctool: 'sphinx' })!;
    expect(section).toMatch(/^<section id="adding-jitter">/);
    expect(section).toMatch(/Jitter\s+spreads the retries out/);
  });

  it('returns the main content without a fragment, or what maincontent selects', () => {
    expect(extractSection(retries, `${base}tutorial/retries.html`, {})).toMatch(
      /^<div itemprop="articleBody" role="main">|^<div role="main"/,
    );
    expect(extractSection(retries, `${base}tutorial/retries.html`, { maincontent: 'section#which-errors-are-retried' })).toMatch(
      /^<section id="which-errors-are-retried">/,
    );
    expect(extractSection(retries, `${base}tutorial/retries.html`, { maincontent: '#nothing-here' })).toBeNull();
    expect(() => extractSection(retries, `${base}tutorial/retries.html`, { maincontent: 'div[' })).toThrow(InvalidSelectorError);
  });

  it('answers null for a fragment the page does not have', () => {
    expect(extractSection(retries, `${base}tutorial/retries.html#nope`, { fragment: 'nope' })).toBeNull();
  });

  it('makes links and images absolute', () => {
    const html = extractSection(retries, `${base}tutorial/retries.html?x=1#retry-policies`, { fragment: 'retry-policies' })!;
    expect(html).toContain(`href="${base}api/jobs.html#aurora.RetryPolicy"`);
    expect(html).toContain(`href="${base}tutorial/retries.html#retry-policies"`);
    expect(html).not.toMatch(/href="(?!https:)/);
  });
});

describe('extractSection on MkDocs output', () => {
  it('finds headings and the main content of a material page', () => {
    const page = parseHtml(demoPage('skyline/en/latest/getting-started/index.html'));
    const url = 'https://skyline.example/en/latest/getting-started/';
    expect(extractSection(page, url, { fragment: 'add-the-script' })).toMatch(/^<h2 id="add-the-script">Add the script/);
    const main = extractSection(page, url, {})!;
    expect(main).toContain('Install the collector');
    expect(main).toContain(`href="https://skyline.example/en/latest/faq/#nothing-shows-up"`);
  });
});

describe('extraction of odd pages', () => {
  it('decodes a percent-encoded fragment', () => {
    const page = parseHtml('<html><body><div role="main"><h2 id="café">Café</h2></div></body></html>');
    expect(extractSection(page, `${base}x.html#caf%C3%A9`, { fragment: 'caf%C3%A9' })).toBe('<h2 id="café">Café</h2>');
  });

  it('keeps characters and entities as they were', () => {
    const page = parseHtml('<html><body><p id="p">a &lt;b&gt; &amp; ¶ — &nbsp;"q"</p></body></html>');
    expect(extractSection(page, base, { fragment: 'p' })).toBe('<p id="p">a &lt;b&gt; &amp; ¶ — &nbsp;"q"</p>');
  });

  it('yields what a browser shows from unclosed and misnested markup', () => {
    const html = '<body><div role="main"><h1>T</h1><p>one <i>two<p>three</div>';
    expect(extractSection(html, base, {})).toBe('<div role="main"><h1>T</h1><p>one <i>two</i></p><p><i>three</i></p></div>');
  });
});

describe('absolutize', () => {
  const page = 'https://docs.example.org/en/latest/guide/page.html?q=1#here';
  it.each([
    ['#frag', 'https://docs.example.org/en/latest/guide/page.html#frag'],
    ['other.html#x', 'https://docs.example.org/en/latest/guide/other.html#x'],
    ['../api/', 'https://docs.example.org/en/latest/api/'],
    ['/root.html', 'https://docs.example.org/root.html'],
    ['//cdn.example.org/a.png', '//cdn.example.org/a.png'],
    ['https://elsewhere.example/', 'https://elsewhere.example/'],
    ['mailto:team@example.org', 'mailto:team@example.org'],
    ['javascript:alert(1)', 'javascript:alert(1)'],
    ['', ''],
  ])('%s → %s', (reference, expected) => {
    expect(absolutize(reference, page)).toBe(expected);
  });
});
